/** Demo history: the first start's own events, so the log is not empty on a fresh install. */
import type { Clock } from '../../clock.ts';
import type { Store } from '../../store/store.ts';
import { logEvent, type Actor } from '../../audit/log.ts';

export async function seedHistoryDemo(store: Store, clock: Clock): Promise<void> {
  const admin = await store.users.byLogin('admin');
  const actor: Actor = { user: admin, ip: '', clock, rest: false, initiator: 'wp' };
  await logEvent(store, actor, { logger: 'CustomEntryLogger', key: 'custom_entry_added', context: { message: 'Lintel installed', note: 'The demo events, venues, organizers and redirects were loaded.' } });
  await logEvent(store, actor, { logger: 'SimpleOptionsLogger', key: 'option_updated', context: { option: 'timezone_string', option_page: 'general', new_value: (await store.options.site()).timezone } });
  await logEvent(store, actor, { logger: 'CustomEntryLogger', key: 'custom_entry_added', level: 'notice', context: { message: 'History keeps every change made through the API' } });
}
