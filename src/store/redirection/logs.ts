/** The redirect log (`redirection_logs`) and the 404 log (`redirection_404`). */
import type { Direction, GroupedRow, Listed, LogBase, LogFilter, LogGroupBy, LogKind, LogOrder, LogRow, NewLogRow, NewNotFoundRow, NotFoundRow, Page, Selection } from './rows.ts';
import { like, Where } from '../where.ts';
import { dir, legacyOrder } from './where.ts';
import type { Sql } from '../sql.ts';

/** A row as selected: the columns named alike in the row, the others in snake case (the 404 log lacks the last three). */
interface LogRecord extends Pick<LogBase, 'id' | 'created' | 'url' | 'domain' | 'agent' | 'referrer' | 'ip'> {
  http_code: number;
  request_method: string | null;
  request_data: Record<string, unknown> | null;
  sent_to?: string | null;
  redirect_by?: string | null;
  redirection_id?: number;
}
const toLogBase = (r: LogRecord): LogBase => ({
  id: r.id,
  created: r.created,
  url: r.url,
  domain: r.domain,
  agent: r.agent,
  referrer: r.referrer,
  ip: r.ip,
  httpCode: r.http_code,
  requestMethod: r.request_method,
  requestData: r.request_data,
});
const toLog = (r: LogRecord): LogRow => ({
  ...toLogBase(r),
  sentTo: r.sent_to ?? null,
  redirectBy: r.redirect_by ?? null,
  redirectionId: r.redirection_id ?? 0,
});

const LOG_TABLE: Record<LogKind, string> = { log: 'redirection_logs', '404': 'redirection_404' };

function logWhere(kind: LogKind, f: LogFilter, w = new Where()): Where {
  if (f.ip !== undefined) w.add((p) => (f.ipExact ? `ip = ${p}` : `ip ilike ${p}`), f.ipExact ? f.ip : like(f.ip));
  if (f.urlExact !== undefined) w.add((p) => `url = ${p}`, f.urlExact);
  else if (f.url !== undefined) w.add((p) => `url ilike ${p}`, like(f.url));
  if (f.referrer !== undefined) w.add((p) => `referrer ilike ${p}`, like(f.referrer));
  if (f.agent !== undefined) w.add((p) => `agent ilike ${p}`, like(f.agent));
  if (f.domain !== undefined) w.add((p) => `domain ilike ${p}`, like(f.domain));
  if (f.method !== undefined) w.add((p) => `request_method = ${p}`, f.method);
  if (f.httpCode !== undefined) w.add((p) => `http_code = ${p}`, f.httpCode);
  if (kind === 'log') {
    if (f.target !== undefined) w.add((p) => `sent_to ilike ${p}`, like(f.target));
    if (f.redirectBy !== undefined) w.add((p) => `redirect_by = ${p}`, f.redirectBy);
  }
  return w;
}

export class RedirectionLogRepo {
  private readonly sql: Sql;
  constructor(sql: Sql) {
    this.sql = sql;
  }

  async insertLog(row: NewLogRow): Promise<number> {
    const [{ id }] = await this.sql.query<{ id: number }>(
      `insert into redirection_logs (created, url, domain, sent_to, agent, referrer, http_code, request_method, request_data, redirect_by, redirection_id, ip)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12) returning id`,
      [row.created, row.url, row.domain, row.sentTo, row.agent, row.referrer, row.httpCode, row.requestMethod,
        row.requestData === null ? null : JSON.stringify(row.requestData), row.redirectBy, row.redirectionId, row.ip],
    );
    return id;
  }

  async insert404(row: NewNotFoundRow): Promise<number> {
    const [{ id }] = await this.sql.query<{ id: number }>(
      `insert into redirection_404 (created, url, domain, agent, referrer, http_code, request_method, request_data, ip)
       values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9) returning id`,
      [row.created, row.url, row.domain, row.agent, row.referrer, row.httpCode, row.requestMethod,
        row.requestData === null ? null : JSON.stringify(row.requestData), row.ip],
    );
    return id;
  }

  /** Deletes rows created before `before` (the retention the settings' `expire_*` days set). */
  async expire(kind: LogKind, before: Date): Promise<void> {
    await this.sql.query(`delete from ${LOG_TABLE[kind]} where created < $1`, [before]);
  }

  async list(kind: 'log', filter: LogFilter, order: LogOrder, direction: Direction, page: Page): Promise<Listed<LogRow>>;
  async list(kind: '404', filter: LogFilter, order: LogOrder, direction: Direction, page: Page): Promise<Listed<NotFoundRow>>;
  async list(kind: LogKind, filter: LogFilter, order: LogOrder, direction: Direction, page: Page): Promise<Listed<LogRow | NotFoundRow>> {
    const w = logWhere(kind, filter);
    const table = LOG_TABLE[kind];
    const [{ total }] = await this.sql.query<{ total: number }>(`select count(*)::int as total from ${table} ${w}`, w.params);
    const d = dir(direction);
    // The IP column has an index, which the legacy site reads backwards for a descending list; the URL has none.
    const orderBy = order === 'id' ? `id ${d}` : order === 'ip' ? `${legacyOrder('ip')} ${d}, id ${d}` : `${legacyOrder(order)} ${d}, id`;
    const rows = await this.sql.query<LogRecord>(
      `select * from ${table} ${w} order by ${orderBy} limit ${w.next(page.perPage)} offset ${w.next(page.page * page.perPage)}`,
      w.params,
    );
    return { items: rows.map(kind === 'log' ? toLog : toLogBase), total };
  }

  /** Rows counted by one column, most (or fewest) first, then by value. */
  async grouped(kind: LogKind, by: LogGroupBy, filter: LogFilter, direction: Direction, page: Page): Promise<Listed<GroupedRow>> {
    const w = logWhere(kind, filter);
    const table = LOG_TABLE[kind];
    const [{ total }] = await this.sql.query<{ total: number }>(`select count(distinct ${by})::int as total from ${table} ${w}`, w.params);
    const rows = await this.sql.query<{ value: string | null; count: number }>(
      `select ${by} as value, count(*)::int as count from ${table} ${w} group by ${by}
       order by count ${dir(direction)}, ${legacyOrder(by)}, ${by} limit ${w.next(page.perPage)} offset ${w.next(page.page * page.perPage)}`,
      w.params,
    );
    return { items: rows.map((r) => ({ value: r.value ?? '', count: r.count })), total };
  }

  /** Deletes log rows by ID, by the value of a grouped column, or by filter; returns how many. */
  async delete(kind: LogKind, target: Selection<LogFilter> | { column: LogGroupBy; values: string[] }): Promise<number> {
    const table = LOG_TABLE[kind];
    const w = new Where();
    if ('column' in target) w.add((p) => `${target.column} = any(${p}::text[])`, target.values);
    else if ('ids' in target) w.add((p) => `id = any(${p}::int8[])`, target.ids);
    else logWhere(kind, target.filter, w);
    return (await this.sql.query(`delete from ${table} ${w} returning id`, w.params)).length;
  }

  /** Every row of a log, newest first (the log exports). */
  async all(kind: 'log'): Promise<LogRow[]>;
  async all(kind: '404'): Promise<NotFoundRow[]>;
  async all(kind: LogKind): Promise<(LogRow | NotFoundRow)[]> {
    const rows = await this.sql.query<LogRecord>(`select * from ${LOG_TABLE[kind]} order by id desc`);
    return rows.map(kind === 'log' ? toLog : toLogBase);
  }

  /** Rows of the legacy site with their IDs; importing one again replaces it. The ID sequence moves past them. */
  async importRows(kind: LogKind, rows: (LogRow | NotFoundRow)[]): Promise<void> {
    if (!rows.length) return;
    const table = LOG_TABLE[kind];
    const cols = ['id', 'created', 'url', 'domain', 'agent', 'referrer', 'http_code', 'request_method', 'request_data', 'ip', ...(kind === 'log' ? ['sent_to', 'redirect_by', 'redirection_id'] : [])];
    const values = rows.map((r) => {
      const base = [r.id, r.created.toISOString(), r.url, r.domain, r.agent, r.referrer, r.httpCode, r.requestMethod, r.requestData, r.ip];
      return kind === 'log' ? [...base, (r as LogRow).sentTo, (r as LogRow).redirectBy, (r as LogRow).redirectionId] : base;
    });
    await this.sql.query(
      `insert into ${table} (${cols.join(', ')}) select ${cols.join(', ')} from jsonb_populate_recordset(null::${table}, $1::jsonb)
       on conflict (id) do update set ${cols.slice(1).map((c) => `${c} = excluded.${c}`).join(', ')}`,
      [JSON.stringify(values.map((v) => Object.fromEntries(cols.map((c, i) => [c, v[i]]))))],
    );
    await this.sql.query(`select setval('${table}_id_seq', greatest($1, (select last_value from ${table}_id_seq)))`, [Math.max(...rows.map((r) => r.id))]);
  }

  /** Rows of a log by ID. */
  async byIds(kind: LogKind, ids: readonly number[]): Promise<(LogRow | NotFoundRow)[]> {
    const rows = await this.sql.query<LogRecord>(`select * from ${LOG_TABLE[kind]} where id = any($1::int8[])`, [ids]);
    return rows.map(kind === 'log' ? toLog : toLogBase);
  }

  /** Every ID of a log. */
  async ids(kind: LogKind): Promise<number[]> {
    return (await this.sql.query<{ id: number }>(`select id from ${LOG_TABLE[kind]} order by id`)).map((r) => r.id);
  }

  /** Both logs emptied. */
  async clear(): Promise<void> {
    await this.sql.query('delete from redirection_logs');
    await this.sql.query('delete from redirection_404');
  }
}
