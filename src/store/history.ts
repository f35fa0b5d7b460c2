/**
 * The audit log (history/v1): appending events in the caller's transaction, the list and its
 * filters, occasions, stats from the hourly counts, retention. Filters arrive already reduced to
 * what applies (see `namespaces/history/query.ts`); this file only turns them into SQL.
 */
import type { Sql } from './sql.ts';
import { like, Where } from './where.ts';

export type Initiator = 'wp_user' | 'web_user' | 'wp' | 'wp_cli' | 'other';

/** An event as the legacy loggers record it: every context value a string. */
export interface NewHistoryEvent {
  logger: string;
  level: string;
  /** The uninterpolated message (`Added a custom entry: {message}`). */
  message: string;
  messageKey: string | null;
  initiator: Initiator;
  context: Record<string, string>;
  /** GMT `Y-m-d H:i:s`. */
  date: string;
  occasionsId: string;
  /** An imported event keeps its legacy ID. */
  id?: number;
}

export interface HistoryRow {
  id: number;
  date: string;
  logger: string;
  level: string;
  message: string;
  message_key: string | null;
  occasions_id: string;
  initiator: Initiator;
  context: Record<string, string>;
  run_size: number;
}

export interface HistoryFilter {
  /** Loggers the reader may see; null: all. */
  readable: string[] | null;
  grouped: boolean;
  include?: number[];
  words?: string[];
  excludeWords?: string[];
  metadataSearch?: string;
  levels?: string[];
  excludeLevels?: string[];
  loggers?: string[];
  excludeLoggers?: string[];
  messages?: { logger: string; key: string }[];
  excludeMessages?: { logger: string; key: string }[];
  users?: number[];
  excludeUsers?: number[];
  initiators?: string[];
  excludeInitiators?: string[];
  /** GMT bounds, inclusive. */
  after?: string;
  before?: string;
  /** Alternative GMT ranges [from, to] (either end may be open): an event in any of them matches. */
  ranges?: [string | null, string | null][];
  sinceId?: number;
  sinceDate?: string;
  maxId?: number;
  belowId?: number;
  ip?: string;
  contextFilters?: Record<string, string>;
  onlySticky?: boolean;
}

// `date` is selected as text: ORDER BY must name the column as `history_events.date` (the bare name is the text).
const COLUMNS = 'id, to_char(date, \'YYYY-MM-DD HH24:MI:SS\') as date, logger, level, message, message_key, occasions_id, initiator, context';

/** The text a search looks through: the message, logger, level and every context value. */
const SEARCHED = "(message || ' ' || logger || ' ' || level || ' ' || context::text)";

function where(f: HistoryFilter, w = new Where()): Where {
  if (f.readable) w.raw(`logger = any(${w.next(f.readable)}::text[])`);
  if (f.grouped) w.raw('is_head');
  if (f.include?.length) w.raw(`id = any(${w.next(f.include)}::int8[])`);
  for (const word of f.words ?? []) w.raw(`${SEARCHED} ilike ${w.next(like(word))}`);
  for (const word of f.excludeWords ?? []) w.raw(`${SEARCHED} not ilike ${w.next(like(word))}`);
  if (f.metadataSearch) w.raw(`context::text ilike ${w.next(like(f.metadataSearch))}`);
  if (f.levels) w.raw(`level = any(${w.next(f.levels)}::text[])`);
  if (f.excludeLevels?.length) w.raw(`level <> all(${w.next(f.excludeLevels)}::text[])`);
  if (f.loggers) w.raw(`logger = any(${w.next(f.loggers)}::text[])`);
  if (f.excludeLoggers?.length) w.raw(`logger <> all(${w.next(f.excludeLoggers)}::text[])`);
  const pairs = (list: { logger: string; key: string }[]) => list.map((m) => `${m.logger}:${m.key}`);
  if (f.messages) w.raw(`(logger || ':' || coalesce(message_key, '')) = any(${w.next(pairs(f.messages))}::text[])`);
  if (f.excludeMessages?.length) w.raw(`(logger || ':' || coalesce(message_key, '')) <> all(${w.next(pairs(f.excludeMessages))}::text[])`);
  if (f.users) w.raw(`user_id = any(${w.next(f.users)}::int8[])`);
  if (f.excludeUsers?.length) w.raw(`(user_id is null or user_id <> all(${w.next(f.excludeUsers)}::int8[]))`);
  if (f.initiators) w.raw(`initiator = any(${w.next(f.initiators)}::text[])`);
  if (f.excludeInitiators?.length) w.raw(`initiator <> all(${w.next(f.excludeInitiators)}::text[])`);
  if (f.after) w.raw(`date >= ${w.next(f.after)}::timestamp`);
  if (f.before) w.raw(`date <= ${w.next(f.before)}::timestamp`);
  if (f.ranges?.length) {
    const ors = f.ranges.map(([from, to]) => {
      const c = [from ? `date >= ${w.next(from)}::timestamp` : 'true', to ? `date <= ${w.next(to)}::timestamp` : 'true'];
      return `(${c.join(' and ')})`;
    });
    w.raw(`(${ors.join(' or ')})`);
  }
  if (f.sinceDate !== undefined) {
    const d = w.next(f.sinceDate);
    w.raw(f.sinceId !== undefined ? `(date > ${d}::timestamp or (date = ${d}::timestamp and id > ${w.next(f.sinceId)}))` : `date > ${d}::timestamp`);
  } else if (f.sinceId !== undefined) w.raw(`id > ${w.next(f.sinceId)}`);
  if (f.maxId !== undefined) w.raw(`id <= ${w.next(f.maxId)}`);
  if (f.belowId !== undefined) w.raw(`id < ${w.next(f.belowId)}`);
  if (f.ip !== undefined) {
    // A stored address is anonymised (`.x` for its last part); one given in full matches its anonymised form too.
    const anon = f.ip.replace(/\.\d+$/, '.x');
    w.raw(`(context->>'_server_remote_addr' = ${w.next(f.ip)} or context->>'_server_remote_addr' = ${w.next(anon)} or context->>'_server_http_x_forwarded_for_0' = ${w.next(f.ip)})`);
  }
  for (const [k, v] of Object.entries(f.contextFilters ?? {})) w.raw(`context->>${w.next(k)} = ${w.next(v)}`);
  if (f.onlySticky) w.raw(`context ? '_sticky'`);
  return w;
}

/** GMT `Y-m-d H:i:s` helpers for the hourly counts. */
const hourOf = (t: string) => `${t.slice(0, 13)}:00:00`;
const shift = (t: string, seconds: number) => new Date(Date.parse(`${t.replace(' ', 'T')}Z`) + seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
/** The first whole hour at or after `t`. */
const ceilHour = (t: string) => (t.endsWith(':00:00') ? t : shift(hourOf(t), 3600));
/** The end (exclusive) of the last whole hour that ends at or before `t` (an inclusive bound). */
const floorHour = (t: string) => hourOf(shift(t, 1));
const secondBefore = (t: string) => shift(t, -1);

export interface Counts {
  /** `logger:message_key` → events in the range. */
  byMessage: Map<string, number>;
  total: number;
}

export class HistoryRepo {
  private readonly sql: Sql;
  constructor(sql: Sql) {
    this.sql = sql;
  }

  /**
   * Appends an event, joining the run of the newest event when it is another occasion of the same
   * thing (same occasions ID, not backdated before it). Runs in the caller's transaction.
   */
  async log(e: NewHistoryEvent): Promise<number> {
    const [newest] = await this.sql.query<{ id: number; run_start: number; run_size: number; occasions_id: string; date: string }>(
      `select id, run_start, run_size, occasions_id, to_char(date, 'YYYY-MM-DD HH24:MI:SS') as date from history_events where is_head order by history_events.date desc, id desc limit 1`,
    );
    const joins = newest !== undefined && newest.occasions_id === e.occasionsId && e.date >= newest.date;
    const userId = /^\d+$/.test(e.context._user_id ?? '') ? Number(e.context._user_id) : null;
    const [row] = await this.sql.query<{ id: number }>(
      `insert into history_events (id, date, logger, level, message, message_key, occasions_id, initiator, user_id, context, run_start, run_size)
       select n, $2::timestamp, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, coalesce($11::int8, n), $12
       from (select coalesce($1::int8, nextval('history_events_id_seq')) as n) s returning id`,
      [e.id ?? null, e.date, e.logger, e.level, e.message, e.messageKey, e.occasionsId, e.initiator, userId, JSON.stringify(e.context), joins ? newest.run_start : null, joins ? newest.run_size + 1 : 1],
    );
    if (joins) {
      await this.sql.query('update history_events set is_head = false, run_size = 1 where id = $1', [newest.id]);
      // The run's previous newest event is no longer what the grouped list shows (same logger and key: same occasions).
      await this.sql.query(
        `update history_hourly set heads = heads - 1 where hour = date_trunc('hour', $1::timestamp) and logger = $2 and message_key = coalesce($3, '')`,
        [newest.date, e.logger, e.messageKey],
      );
      await this.sql.query(`update history_kinds set heads = heads - 1 where logger = $1 and message_key = coalesce($2, '')`, [e.logger, e.messageKey]);
    }
    return row.id;
  }

  /**
   * Imports legacy events with their IDs (`imported`: those of them already imported, left as they are)
   * and moves the ID sequence past them; the caller rebuilds the runs once the whole log is in.
   */
  async importEvents(events: (NewHistoryEvent & { id: number })[], imported: ReadonlySet<number>): Promise<void> {
    if (!events.length) return;
    // A legacy event keeps its ID: an event logged here (the admin created at the first start) that
    // holds one of these IDs moves past the largest, as if logged after the imported ones.
    const ids = events.map((e) => e.id);
    await this.sql.query(`select setval('history_events_id_seq', greatest($1, (select last_value from history_events_id_seq)))`, [Math.max(...ids)]);
    await this.sql.query(`update history_events set id = nextval('history_events_id_seq') where id = any($1::int8[]) and not (id = any($2::int8[]))`, [ids, [...imported]]);
    for (let i = 0; i < events.length; i += 1000) {
      const chunk = events.slice(i, i + 1000);
      await this.sql.query(
        `insert into history_events (id, date, logger, level, message, message_key, occasions_id, initiator, user_id, context)
         select x.id, x.date::timestamp, x.logger, x.level, x.message, x.message_key, x.occasions_id, x.initiator,
                case when x.context->>'_user_id' ~ '^\\d+$' then (x.context->>'_user_id')::int8 end, x.context
         from jsonb_to_recordset($1::jsonb) as x(id int8, date text, logger text, level text, message text, message_key text, occasions_id text, initiator text, context jsonb)
         on conflict (id) do nothing`,
        [JSON.stringify(chunk.map((e) => ({ id: e.id, date: e.date, logger: e.logger, level: e.level, message: e.message, message_key: e.messageKey, occasions_id: e.occasionsId, initiator: e.initiator, context: e.context })))],
      );
    }
    await this.sql.query(`select setval('history_events_id_seq', greatest((select coalesce(max(id), 1) from history_events), (select last_value from history_events_id_seq)))`);
  }

  /** Removes these events (gone from the legacy site); the runs are rebuilt by the caller. */
  async deleteEvents(ids: readonly number[]): Promise<void> {
    await this.sql.query('delete from history_events where id = any($1::int8[])', [ids]);
  }

  /**
   * Numbers the next event after the largest held (the first when none is), as a log that never held
   * the removed ones would: for replacing the whole log with another (the differential tester starts
   * both sides from the legacy log, whose next event must get the same ID on both).
   */
  async restartIds(): Promise<void> {
    await this.sql.query(`select setval('history_events_id_seq', coalesce((select max(id) from history_events), 1), exists (select 1 from history_events))`);
  }

  /** IDs of every event, newest first. */
  async allIds(): Promise<number[]> {
    return (await this.sql.query<{ id: number }>('select id from history_events order by id desc')).map((r) => r.id);
  }

  /** Recomputes the runs of consecutive occasions over the whole log (after an import or bulk load). */
  async rebuildRuns(): Promise<void> {
    await this.sql.query(
      `with o as (
         select id, date, case when lag(occasions_id) over (order by date, id) = occasions_id then 0 else 1 end as starts from history_events
       ), g as (
         select id, date, sum(starts) over (order by date, id) as grp from o
       ), r as (
         select id, min(id) over (partition by grp) as run_start, count(*) over (partition by grp) as size,
                row_number() over (partition by grp order by date desc, id desc) as rn from g
       )
       update history_events h set run_start = r.run_start, is_head = (r.rn = 1), run_size = case when r.rn = 1 then r.size else 1 end
       from r where r.id = h.id and (h.run_start, h.is_head, h.run_size) is distinct from (r.run_start, r.rn = 1, case when r.rn = 1 then r.size else 1 end)`,
    );
    await this.sql.query(
      `update history_hourly h set heads = x.heads
       from (select date_trunc('hour', date) as hour, logger, coalesce(message_key, '') as k, count(*) filter (where is_head) as heads from history_events group by 1, 2, 3) x
       where h.hour = x.hour and h.logger = x.logger and h.message_key = x.k and h.heads <> x.heads`,
    );
    await this.sql.query(
      `update history_kinds h set heads = x.heads
       from (select logger, sum(heads) as heads, message_key from history_hourly group by logger, message_key) x
       where h.logger = x.logger and h.message_key = x.message_key and h.heads <> x.heads`,
    );
  }

  async list(f: HistoryFilter, page: { limit: number; offset: number }): Promise<HistoryRow[]> {
    const w = where(f);
    const size = f.grouped ? 'run_size' : '1';
    return this.sql.query<HistoryRow>(
      `select ${COLUMNS}, ${size}::int as run_size from history_events ${w} order by history_events.date desc, id desc limit ${w.next(page.limit)} offset ${w.next(page.offset)}`,
      w.params,
    );
  }

  /**
   * How many events (or runs, grouped) match. Filters on loggers, message keys and date bounds are
   * answered from the hourly counts, plus the partial hours at the ends counted from the log; any
   * other filter counts the matching events themselves.
   */
  async count(f: HistoryFilter): Promise<number> {
    const { readable, grouped, loggers, excludeLoggers, messages, excludeMessages, after, before, ...rest } = f;
    const hourly = Object.values(rest).every((v) => v === undefined || v === false);
    if (!hourly) return this.countRows(f);
    const hf = after === undefined ? null : ceilHour(after);
    const ht = before === undefined ? null : floorHour(before);
    // A range inside one hour has no whole hour to read.
    if (hf !== null && ht !== null && hf > ht) return this.countRows(f);
    const w = new Where();
    if (readable) w.raw(`logger = any(${w.next(readable)}::text[])`);
    if (loggers) w.raw(`logger = any(${w.next(loggers)}::text[])`);
    if (excludeLoggers?.length) w.raw(`logger <> all(${w.next(excludeLoggers)}::text[])`);
    const pairs = (list: { logger: string; key: string }[]) => list.map((m) => `${m.logger}:${m.key}`);
    if (messages) w.raw(`(logger || ':' || message_key) = any(${w.next(pairs(messages))}::text[])`);
    if (excludeMessages?.length) w.raw(`(logger || ':' || message_key) <> all(${w.next(pairs(excludeMessages))}::text[])`);
    if (hf !== null) w.raw(`hour >= ${w.next(hf)}::timestamp`);
    if (ht !== null) w.raw(`hour < ${w.next(ht)}::timestamp`);
    // Without date bounds the all-time counts per kind answer it.
    const table = hf === null && ht === null ? 'history_kinds' : 'history_hourly';
    const [r] = await this.sql.query<{ n: number }>(`select coalesce(sum(${grouped ? 'heads' : 'n'}), 0)::int8 as n from ${table} ${w}`, w.params);
    // The partial hours at the ends: [after, hf) and [ht, before].
    const edges: [string, string][] = [];
    if (after !== undefined && hf! > after) edges.push([after, secondBefore(hf!)]);
    if (before !== undefined && ht! <= before) edges.push([ht!, before]);
    const edge = edges.length ? await this.countRows({ readable, grouped, loggers, excludeLoggers, messages, excludeMessages, ranges: edges }) : 0;
    return Number(r.n) + edge;
  }

  private async countRows(f: HistoryFilter): Promise<number> {
    const w = where(f);
    const [r] = await this.sql.query<{ n: number }>(`select count(*)::int8 as n from history_events ${w}`, w.params);
    return Number(r.n);
  }

  async byId(id: number): Promise<HistoryRow | null> {
    const [r] = await this.sql.query<HistoryRow>(`select ${COLUMNS}, 1 as run_size from history_events where id = $1`, [id]);
    return r ?? null;
  }

  /** The occasions of one event before `belowId`, newest first, of the readable loggers only (null: all). */
  async occasions(occasionsId: string, belowId: number, limit: number, loggers: string[] | null): Promise<HistoryRow[]> {
    return this.sql.query<HistoryRow>(
      `select ${COLUMNS}, 1 as run_size from history_events where occasions_id = $1 and id < $2 and ($4::text[] is null or logger = any($4::text[])) order by id desc limit $3`,
      [occasionsId, belowId, limit, loggers],
    );
  }

  /** The `count` events before and after `id` in list order (newest first), with the event itself. */
  async surrounding(id: number, count: number): Promise<{ before: HistoryRow[]; center: HistoryRow | null; after: HistoryRow[] }> {
    const center = await this.byId(id);
    if (!center) return { before: [], center: null, after: [] };
    const newer = await this.sql.query<HistoryRow>(
      `select ${COLUMNS}, 1 as run_size from history_events where (date, id) > ($1::timestamp, $2) order by history_events.date, id limit $3`,
      [center.date, id, count],
    );
    const older = await this.sql.query<HistoryRow>(
      `select ${COLUMNS}, 1 as run_size from history_events where (date, id) < ($1::timestamp, $2) order by history_events.date desc, id desc limit $3`,
      [center.date, id, count],
    );
    return { before: newer.reverse(), center, after: older };
  }

  /** Sets or removes one context key of an event; false when the event does not exist (or, removing, had no such key). */
  async setContext(id: number, key: string, value: string | null): Promise<boolean> {
    const rows =
      value === null
        ? await this.sql.query(`update history_events set context = context - $2 where id = $1 and context ? $2 returning id`, [id, key])
        : await this.sql.query(`update history_events set context = context || jsonb_build_object($2::text, $3::text) where id = $1 returning id`, [id, key, value]);
    return rows.length > 0;
  }

  /** Events per `logger:message_key` between two GMT instants (inclusive): whole hours from the hourly counts, the edges from the log. */
  async counts(from: string, to: string): Promise<Counts> {
    // The first whole hour at or after the start, and the hour the end falls in (not whole unless it ends at :59:59).
    const firstWholeHour = (t: string) => `date_trunc('hour', ${t}::timestamp + interval '59 minutes 59 seconds')`;
    const endHour = (t: string) => `date_trunc('hour', ${t}::timestamp + interval '1 second')`;
    const rows = await this.sql.query<{ k: string; n: number }>(
      // The whole hours from the hourly counts; the partial hours at the ends as two ranges of the
      // date index each (one range with an OR between the ends reads every event in between).
      `select k, sum(n)::int8 as n from (
         select logger || ':' || message_key as k, n from history_hourly where hour >= ${firstWholeHour('$1')} and hour < ${endHour('$2')}
         union all
         select logger || ':' || coalesce(message_key, ''), 1 from history_events where date >= $1::timestamp and date < ${firstWholeHour('$1')} and date <= $2::timestamp
         union all
         select logger || ':' || coalesce(message_key, ''), 1 from history_events where date >= ${endHour('$2')} and date <= $2::timestamp and date >= ${firstWholeHour('$1')}
       ) x group by k`,
      [from, to],
    );
    const byMessage = new Map(rows.map((r) => [r.k, Number(r.n)]));
    return { byMessage, total: [...byMessage.values()].reduce((a, b) => a + b, 0) };
  }

  async totalEvents(): Promise<number> {
    const [r] = await this.sql.query<{ n: number }>('select coalesce(sum(n), 0)::int8 as n from history_kinds');
    return Number(r.n);
  }

  /** Events per hour in a time zone (local hour or weekday, by `part`) between two GMT instants, from the hourly counts. */
  async countsBy(part: 'hour' | 'dow' | 'day', zone: string, from: string, to: string): Promise<{ key: string; n: number }[]> {
    const expr = part === 'day' ? `to_char(local, 'YYYY-MM-DD')` : `extract(${part} from local)::int::text`;
    return this.sql.query<{ key: string; n: number }>(
      `select ${expr} as key, sum(n)::int8 as n
       from (select (hour at time zone 'UTC') at time zone $1 as local, n from history_hourly where hour >= date_trunc('hour', $2::timestamp) and hour <= $3::timestamp) h
       group by 1 order by min(local)`,
      [zone, from, to],
    );
  }

  /** Rows of one kind of event in a range, newest first (the stats' details). */
  async rowsOf(messages: { logger: string; key: string }[], from: string, to: string, limit: number): Promise<HistoryRow[]> {
    const f: HistoryFilter = { readable: null, grouped: false, messages, ranges: [[from, to]] };
    return this.list(f, { limit, offset: 0 });
  }

  /** Months (`YYYY-MM`, GMT) that have events, newest first. */
  /** How many distinct occasions were logged from `since` (UTC, `YYYY-MM-DD HH:MM:SS`) on. */
  async occasionsSince(since: string): Promise<number> {
    const [r] = await this.sql.query<{ n: number }>(`select count(distinct occasions_id)::int as n from history_events where date >= $1::timestamp`, [since]);
    return r.n;
  }

  /** The months (GMT) holding events of the readable loggers (null: all), newest first. */
  async months(readable: string[] | null): Promise<string[]> {
    const rows = await this.sql.query<{ m: string }>(
      `select distinct to_char(hour, 'YYYY-MM') as m from history_hourly where $1::text[] is null or logger = any($1::text[]) order by 1 desc`,
      [readable],
    );
    return rows.map((r) => r.m);
  }

  /** Users whose login, email, nicename or display name contains `q` (search-user). */
  async searchUsers(q: string, limit: number): Promise<{ id: number; login: string; email: string; display_name: string }[]> {
    return this.sql.query(
      `select id, login, email, display_name from users
       where login ilike $1 or email ilike $1 or display_name ilike $1 order by login limit $2`,
      [like(q), limit],
    );
  }

  /** Retention: deletes events older than the GMT instant, a batch at a time (short transactions); answers how many. */
  async prune(before: string, batch = 10_000): Promise<number> {
    let total = 0;
    for (;;) {
      const rows = await this.sql.query(
        `delete from history_events where id in (select id from history_events where date < $1::timestamp order by date limit $2) returning id`,
        [before, batch],
      );
      total += rows.length;
      if (rows.length < batch) return total;
    }
  }
}
