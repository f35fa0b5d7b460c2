/**
 * The users, content, media and plugins stats' `details` lists, shaped as the legacy Events_Stats queries select
 * them: named context values as strings, an event left out when one of its values is missing (the
 * queries join one context row per value), grouped lists counted per user or login and ordered by
 * count, the others newest first.
 */
import type { HistoryRow } from '../../store/history.ts';

/** Output name → context key, after the event's GMT date under its own name. */
type Columns = Record<string, string>;

/** The events' values, newest first; events missing a value are left out. */
function pick(rows: HistoryRow[], date: string, cols: Columns): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const r of rows) {
    const item: Record<string, string> = { [date]: r.date };
    for (const [name, key] of Object.entries(cols)) item[name] = r.context[key];
    if (Object.values(item).every((v) => v !== undefined)) out.push(item);
  }
  return out;
}

/**
 * One row per value of `by` (MySQL's GROUP BY: the other values from the group's first event),
 * with the group's size under `count`, largest first (ties in order of first appearance).
 */
function grouped(rows: HistoryRow[], cols: Columns, by: string, count: string, limit: number): Record<string, string>[] {
  const groups = new Map<string, { item: Record<string, string>; n: number }>();
  // Oldest first, as the table is scanned.
  for (const item of pick(rows.toReversed(), 'date', cols)) {
    const g = groups.get(item[by]);
    if (g) g.n++;
    else groups.set(item[by], { item, n: 1 });
  }
  return [...groups.values()]
    .toSorted((x, y) => y.n - x.n)
    .slice(0, limit)
    .map(({ item, n }) => ({ ...item, [count]: String(n) }));
}

/** The legacy `Logger:message_key` pairs each list reads. */
export const DETAIL_SOURCES = {
  successful_logins: ['SimpleUserLogger:user_logged_in', 'SimpleUserLogger:user_unknown_logged_in'],
  failed_logins: ['SimpleUserLogger:user_login_failed', 'SimpleUserLogger:user_unknown_login_failed'],
  profile_updates: ['SimpleUserLogger:user_updated_profile'],
  added_users: ['SimpleUserLogger:user_created'],
  removed_users: ['SimpleUserLogger:user_deleted'],
  created: ['SimplePostLogger:post_created'],
  updated: ['SimplePostLogger:post_updated'],
  trashed: ['SimplePostLogger:post_trashed'],
  deleted: ['SimplePostLogger:post_deleted'],
} as const;

export type DetailSource = keyof typeof DETAIL_SOURCES;

/** Reads the events of a list (all of them for the grouped lists, `limit` for the others). */
export type ReadEvents = (source: DetailSource, limit: number | null) => Promise<HistoryRow[]>;

export async function userDetails(read: ReadEvents, limit: number) {
  const user = { user_id: '_user_id' };
  return {
    successful_logins: grouped(await read('successful_logins', null), { ...user, user_login: 'user_login', user_email: 'user_email' }, 'user_id', 'login_count', limit),
    // The failed login's name is `login` (a known user) or `failed_username` (an unknown one).
    failed_logins: grouped(
      (await read('failed_logins', null)).map((r) => ({ ...r, context: { ...r.context, attempted: r.context.login ?? r.context.failed_username } })),
      { attempted_username: 'attempted' },
      'attempted_username',
      'failed_count',
      limit,
    ),
    profile_updates: grouped(await read('profile_updates', null), { ...user, user_login: 'edited_user_login', user_email: 'edited_user_email' }, 'user_id', 'update_count', limit),
    added_users: pick(await read('added_users', limit), 'date', { user_id: 'created_user_id', user_login: 'created_user_login', user_email: 'created_user_email', user_role: 'created_user_role', added_by_id: '_user_id' }),
    removed_users: pick(await read('removed_users', limit), 'date', { user_login: 'deleted_user_login', user_email: 'deleted_user_email', removed_by_id: '_user_id' }),
  };
}

export async function contentDetails(read: ReadEvents, limit: number) {
  const list = async (source: 'created' | 'updated' | 'trashed' | 'deleted') =>
    pick(await read(source, limit), `${source}_date`, { post_id: 'post_id', post_title: 'post_title', post_type: 'post_type', [`${source}_by_id`]: '_user_id' });
  return {
    content_items_created_details: await list('created'),
    content_items_updated_details: await list('updated'),
    content_items_trashed_details: await list('trashed'),
    content_items_deleted_details: await list('deleted'),
  };
}

/** WordPress's human_time_diff: the distance between two instants (seconds) in its largest whole unit, rounded. */
export function humanTimeDiff(from: number, to: number): string {
  const diff = Math.trunc(Math.abs(to - from));
  const units: [string, number][] = [['year', 365 * 86_400], ['month', 30 * 86_400], ['week', 7 * 86_400], ['day', 86_400], ['hour', 3_600], ['minute', 60]];
  for (const [unit, size] of units) {
    if (diff >= size) {
      const n = Math.max(1, Math.round(diff / size));
      return `${n} ${unit}${n === 1 ? '' : 's'}`;
    }
  }
  const secs = Math.max(1, diff);
  return `${secs} second${secs === 1 ? '' : 's'}`;
}

/**
 * A plugin list (get_plugin_details): each event's plugin name and version and how long ago it
 * happened, newest first; an event missing either value is left out (the query joins both).
 */
export function pluginDetails(rows: HistoryRow[], limit: number, now: Date): { name: string; version: string; when: string }[] {
  return pick(rows, 'date', { name: 'plugin_name', version: 'plugin_version' })
    .slice(0, limit)
    .map((r) => ({ name: r.name, version: r.version, when: `${humanTimeDiff(Date.parse(`${r.date.replace(' ', 'T')}Z`) / 1000, now.getTime() / 1000)} ago` }));
}

/**
 * A media list (get_detailed_stats_for_logger_and_value): every event of the range, newest first,
 * as its table row (MySQL's strings) with its whole context (`[]` when it has none).
 */
export function eventRows(rows: HistoryRow[]) {
  return rows.map((r) => ({
    id: String(r.id),
    date: r.date,
    logger: r.logger,
    level: r.level,
    message: r.message,
    occasionsID: r.occasions_id,
    initiator: r.initiator,
    context: Object.keys(r.context).length ? r.context : [],
  }));
}
