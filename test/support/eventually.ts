import { CHANGES_CHANNEL } from '../../src/store/change-feed.ts';
import type { OpenStore } from '../../src/store/store.ts';
import { scaled } from './time.ts';

/** Waits until `ok()` holds, or fails after `ms` (scaled to the machine): for what arrives asynchronously (change-feed announcements after a commit). */
export async function eventually(ok: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const limit = scaled(ms);
  const end = Date.now() + limit;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`not within ${limit} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Waits until the change feed has delivered the announcements of every write committed so far, instead of
 * a fixed wait: a notification of a topic nobody reads, sent now, arrives after them (PostgreSQL delivers
 * notifications in commit order), so once it is heard the earlier ones have been, or never will be.
 */
export async function feedCaughtUp(store: Pick<OpenStore, 'sql' | 'changes'>): Promise<void> {
  const before = store.changes.version([BARRIER]);
  await store.sql.query(`select pg_notify('${CHANGES_CHANNEL}', '${BARRIER}')`);
  await eventually(() => store.changes.version([BARRIER]) !== before);
}
const BARRIER = 'test-barrier';
