/**
 * Redirection storage: groups, redirects, the redirect log, the 404 log and the plugin settings.
 * Filters arrive already reduced to what applies (see `namespaces/redirection/filters.ts`); this
 * file only turns them into SQL.
 */
import type {
  Direction,
  GroupFilter,
  GroupOrder,
  GroupRow,
  LogBase,
  LogFilter,
  LogGroupBy,
  LogKind,
  LogOrder,
  LogRow,
  NewLogRow,
  NewNotFoundRow,
  NewRedirect,
  NotFoundRow,
  Page,
  RedirectFilter,
  RedirectionSettings,
  RedirectOrder,
  RedirectRow,
  Selection,
} from '../namespaces/redirection/records.ts';
import type { Sql } from './sql.ts';

/** The plugin's defaults (`red_get_default_options`); a fresh install stores its own values over these (migration 020). */
export const defaultRedirectionSettings: RedirectionSettings = {
  support: false,
  token: '',
  monitor_post: 0,
  monitor_types: [],
  associated_redirect: '',
  auto_target: '',
  expire_redirect: 7,
  expire_404: 7,
  log_external: false,
  log_header: false,
  track_hits: true,
  modules: {},
  redirect_cache: 1,
  ip_logging: 0,
  ip_headers: [],
  ip_proxy: [],
  last_group_id: 0,
  rest_api: 0,
  https: false,
  headers: [],
  database: '',
  relocate: '',
  preferred_domain: '',
  aliases: [],
  permalinks: [],
  cache_key: 0,
  plugin_update: 'prompt',
  update_notice: 0,
  flag_query: 'exact',
  flag_case: false,
  flag_trailing: false,
  flag_regex: false,
};

const SETTINGS = 'redirection';

export interface Listed<T> {
  items: T[];
  total: number;
}

export interface GroupedRow {
  value: string;
  count: number;
}

/** A parameterized WHERE clause under construction. */
class Where {
  readonly parts: string[] = [];
  constructor(readonly params: unknown[] = []) {}
  add(sqlWithPlaceholder: (p: string) => string, value: unknown): this {
    this.params.push(value);
    this.parts.push(sqlWithPlaceholder(`$${this.params.length}`));
    return this;
  }
  raw(sql: string): this {
    this.parts.push(sql);
    return this;
  }
  toString(): string {
    return this.parts.length ? `where ${this.parts.join(' and ')}` : '';
  }
  next(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}

const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const dir = (d: Direction) => (d === 'asc' ? 'asc' : 'desc');

// ---- row mapping --------------------------------------------------------------------------------

interface ItemRecord {
  id: number;
  url: string;
  match_url: string;
  match_data: RedirectRow['matchData'];
  regex: boolean;
  position: number;
  hits: number;
  last_access: Date | null;
  group_id: number;
  enabled: boolean;
  action_type: RedirectRow['actionType'];
  action_code: number;
  action_data: RedirectRow['actionData'];
  title: string | null;
  match_type: RedirectRow['matchType'];
}

const toRedirect = (r: ItemRecord): RedirectRow => ({
  id: r.id,
  url: r.url,
  matchUrl: r.match_url,
  matchData: r.match_data,
  regex: r.regex,
  position: r.position,
  hits: r.hits,
  lastAccess: r.last_access,
  groupId: r.group_id,
  enabled: r.enabled,
  actionType: r.action_type,
  actionCode: r.action_code,
  actionData: r.action_data,
  title: r.title,
  matchType: r.match_type,
});

const ITEM_COLUMNS =
  'url, match_url, match_data, regex, position, hits, last_access, group_id, enabled, action_type, action_code, action_data, title, match_type';
/** The SQL types of `itemValues`, in order: many rows go in one statement as one array per column. */
const ITEM_TYPES = ['text', 'text', 'jsonb', 'boolean', 'integer', 'integer', 'timestamptz', 'int8', 'boolean', 'text', 'integer', 'jsonb', 'text', 'text'];
const unnestParams = (first: number) => ITEM_TYPES.map((t, i) => `$${first + i}::${t}[]`).join(', ');
const itemValues = (r: NewRedirect): unknown[] => [
  r.url,
  r.matchUrl,
  r.matchData === null ? null : JSON.stringify(r.matchData),
  r.regex,
  r.position,
  r.hits,
  r.lastAccess,
  r.groupId,
  r.enabled,
  r.actionType,
  r.actionCode,
  r.actionData === null ? null : JSON.stringify(r.actionData),
  r.title,
  r.matchType,
];

interface GroupRecord {
  id: number;
  name: string;
  module_id: number;
  enabled: boolean;
  position: number;
  redirects: number;
}
const toGroup = (r: GroupRecord): GroupRow => ({
  id: r.id,
  name: r.name,
  moduleId: r.module_id,
  enabled: r.enabled,
  position: r.position,
  redirects: r.redirects,
});
const GROUP_SELECT = `select g.id, g.name, g.module_id, g.enabled, g.position,
  (select count(*) from redirection_items i where i.group_id = g.id)::int as redirects from redirection_groups g`;

interface LogRecord {
  id: number;
  created: Date;
  url: string;
  domain: string | null;
  agent: string | null;
  referrer: string | null;
  ip: string | null;
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

// ---- filters --------------------------------------------------------------------------------------

function redirectWhere(f: RedirectFilter, w = new Where()): Where {
  if (f.enabled !== undefined) w.add((p) => `enabled = ${p}`, f.enabled);
  if (f.regex !== undefined) w.add((p) => `regex = ${p}`, f.regex);
  if (f.matchType !== undefined) w.add((p) => `match_type = ${p}`, f.matchType);
  if (f.actionType !== undefined) w.add((p) => `action_type = ${p}`, f.actionType);
  if (f.actionCode !== undefined) w.add((p) => `action_code = ${p}`, f.actionCode);
  if (f.access === 'never') w.raw('last_access is null');
  else if (f.access) w.add((p) => `(last_access is null or last_access < ${p})`, f.access);
  if (f.url !== undefined) w.add((p) => `url ilike ${p}`, like(f.url));
  if (f.target !== undefined) w.add((p) => `action_data::text ilike ${p}`, like(f.target));
  if (f.title !== undefined) w.add((p) => `title ilike ${p}`, like(f.title));
  if (f.groupId !== undefined) w.add((p) => `group_id = ${p}`, f.groupId);
  if (f.id !== undefined) w.add((p) => `id = ${p}`, f.id);
  return w;
}

function groupWhere(f: GroupFilter, w = new Where()): Where {
  if (f.enabled !== undefined) w.add((p) => `g.enabled = ${p}`, f.enabled);
  if (f.moduleId !== undefined) w.add((p) => `g.module_id = ${p}`, f.moduleId);
  if (f.name !== undefined) w.add((p) => `g.name ilike ${p}`, like(f.name));
  return w;
}

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

function selectionWhere<F>(sel: Selection<F>, byFilter: (f: F, w: Where) => Where, idColumn = 'id'): Where {
  const w = new Where();
  if ('ids' in sel) return w.add((p) => `${idColumn} = any(${p}::int8[])`, sel.ids);
  return byFilter(sel.filter, w);
}

/** ORDER BY of the redirect list; never-hit rows sort as the legacy 1970 date. */
function redirectOrder(order: RedirectOrder, d: 'asc' | 'desc'): string {
  switch (order) {
    // The legacy collation compares letters and digits first, case-insensitively (`^/blog` before `/gone`).
    case 'url': return `regexp_replace(lower(url), '[^[:alnum:]]', '', 'g') ${d}, url ${d}, id ${d}`;
    case 'last_access': return `coalesce(last_access, 'epoch'::timestamptz) ${d}, id ${d}`;
    case 'hits': return `hits ${d}, id ${d}`;
    case 'position': return `position ${d}, id ${d}`;
    case 'id': return `id ${d}`;
  }
}

export class RedirectionRepo {
  constructor(private readonly sql: Sql) {}

  // ---- settings ----

  async settings(): Promise<RedirectionSettings> {
    const rows = await this.sql.query<{ value: Partial<RedirectionSettings> }>('select value from options where name = $1', [SETTINGS]);
    return { ...defaultRedirectionSettings, ...(rows[0]?.value ?? {}) };
  }

  /** Merges `patch` into the stored settings; returns the result. */
  async saveSettings(patch: Partial<RedirectionSettings>): Promise<RedirectionSettings> {
    const next = { ...(await this.settings()), ...patch };
    await this.sql.query(
      'insert into options (name, value) values ($1, $2::jsonb) on conflict (name) do update set value = excluded.value',
      [SETTINGS, JSON.stringify(next)],
    );
    return next;
  }

  /** Removes every redirect, group and log row and the settings, then restores the install's two groups. */
  async wipe(): Promise<void> {
    await this.sql.query('delete from redirection_logs');
    await this.sql.query('delete from redirection_404');
    await this.sql.query('delete from redirection_items');
    await this.sql.query('delete from redirection_groups');
    await this.sql.query(`insert into redirection_groups (id, name, module_id, enabled, position) values (1, 'Redirections', 1, true, 0), (2, 'Modified Posts', 1, true, 1)`);
    await this.sql.query(`select setval('redirection_groups_id_seq', 2, true)`);
    await this.sql.query(`update options set value = jsonb_build_object('token', md5(random()::text), 'flag_case', true, 'flag_trailing', true, 'last_group_id', 1, 'database', '4.2') where name = $1`, [SETTINGS]);
  }

  // ---- groups ----

  async listGroups(filter: GroupFilter, order: GroupOrder, direction: Direction, page: Page): Promise<Listed<GroupRow>> {
    const w = groupWhere(filter);
    const [{ total }] = await this.sql.query<{ total: number }>(`select count(*)::int as total from redirection_groups g ${w}`, w.params);
    const orderBy = order === 'id' ? `g.id ${dir(direction)}` : `g.name ${dir(direction)}, g.id ${dir(direction)}`;
    const rows = await this.sql.query<GroupRecord>(
      `${GROUP_SELECT} ${w} order by ${orderBy} limit ${w.next(page.perPage)} offset ${w.next(page.page * page.perPage)}`,
      w.params,
    );
    return { items: rows.map(toGroup), total };
  }

  /** All groups (of one module, or all), by module then position: the settings dropdown and the exports. */
  async allGroups(moduleId?: number): Promise<GroupRow[]> {
    const w = new Where();
    if (moduleId !== undefined) w.add((p) => `g.module_id = ${p}`, moduleId);
    return (await this.sql.query<GroupRecord>(`${GROUP_SELECT} ${w} order by g.module_id, g.position, g.id`, w.params)).map(toGroup);
  }

  async groupById(id: number): Promise<GroupRow | null> {
    const rows = await this.sql.query<GroupRecord>(`${GROUP_SELECT} where g.id = $1`, [id]);
    return rows[0] ? toGroup(rows[0]) : null;
  }

  /** A new enabled group, placed after the module's other groups. */
  async createGroup(name: string, moduleId: number, enabled = true): Promise<GroupRow> {
    const [{ id }] = await this.sql.query<{ id: number }>(
      `insert into redirection_groups (name, module_id, enabled, position)
       values ($1, $2, $3, (select count(*) from redirection_groups where module_id = $2)) returning id`,
      [name, moduleId, enabled],
    );
    return (await this.groupById(id))!;
  }

  async updateGroup(id: number, patch: { name?: string; moduleId?: number }): Promise<GroupRow | null> {
    await this.sql.query(
      'update redirection_groups set name = coalesce($2, name), module_id = coalesce($3, module_id) where id = $1',
      [id, patch.name ?? null, patch.moduleId ?? null],
    );
    return this.groupById(id);
  }

  /** Deletes groups with their redirects; returns how many groups went. */
  async deleteGroups(sel: Selection<GroupFilter>): Promise<number> {
    const w = selectionWhere(sel, groupWhere, 'g.id');
    const rows = await this.sql.query(`delete from redirection_groups g ${w} returning g.id`, w.params);
    return rows.length;
  }

  /** Enables or disables groups and every redirect in them. */
  async setGroupsEnabled(sel: Selection<GroupFilter>, enabled: boolean): Promise<number> {
    const w = selectionWhere(sel, groupWhere, 'g.id');
    const rows = await this.sql.query<{ id: number }>(
      `update redirection_groups g set enabled = ${w.next(enabled)} ${w} returning g.id`,
      w.params,
    );
    if (rows.length) {
      await this.sql.query('update redirection_items set enabled = $1 where group_id = any($2::int8[])', [enabled, rows.map((r) => r.id)]);
    }
    return rows.length;
  }

  // ---- redirects ----

  async listRedirects(filter: RedirectFilter, order: RedirectOrder, direction: Direction, page: Page): Promise<Listed<RedirectRow>> {
    const w = redirectWhere(filter);
    const [{ total }] = await this.sql.query<{ total: number }>(`select count(*)::int as total from redirection_items ${w}`, w.params);
    const rows = await this.sql.query<ItemRecord>(
      `select * from redirection_items ${w} order by ${redirectOrder(order, dir(direction))}
       limit ${w.next(page.perPage)} offset ${w.next(page.page * page.perPage)}`,
      w.params,
    );
    return { items: rows.map(toRedirect), total };
  }

  async redirectById(id: number): Promise<RedirectRow | null> {
    const rows = await this.sql.query<ItemRecord>('select * from redirection_items where id = $1', [id]);
    return rows[0] ? toRedirect(rows[0]) : null;
  }

  /** Which of these IDs exist (bulk actions check them first). */
  async existingRedirectIds(ids: number[]): Promise<Set<number>> {
    const rows = await this.sql.query<{ id: number }>('select id from redirection_items where id = any($1::int8[])', [ids]);
    return new Set(rows.map((r) => r.id));
  }

  async countInGroup(groupId: number): Promise<number> {
    const [{ n }] = await this.sql.query<{ n: number }>('select count(*)::int as n from redirection_items where group_id = $1', [groupId]);
    return n;
  }

  async insertRedirect(r: NewRedirect): Promise<RedirectRow> {
    const rows = await this.sql.query<ItemRecord>(
      `insert into redirection_items (${ITEM_COLUMNS}) values ($1, $2, $3::jsonb, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13, $14) returning *`,
      itemValues(r),
    );
    return toRedirect(rows[0]);
  }

  /**
   * Bulk insert (import batches, bench loads), in the caller's transaction: one statement whatever
   * the number of rows, each column sent as one array (14 parameters, not 14 per row). IDs are
   * drawn in the order given (unnest yields the arrays in order).
   */
  async insertRedirects(rows: NewRedirect[]): Promise<void> {
    if (rows.length === 0) return;
    const columns = rows.map(itemValues);
    await this.sql.query(
      `insert into redirection_items (${ITEM_COLUMNS}) select * from unnest(${unnestParams(1)})`,
      Array.from({ length: ITEM_TYPES.length }, (_, c) => columns.map((v) => v[c])),
    );
  }

  /** How many redirects each group holds (groups without any are absent). */
  async countsByGroup(): Promise<Map<number, number>> {
    const rows = await this.sql.query<{ group_id: number; n: number }>('select group_id, count(*)::int as n from redirection_items group by group_id');
    return new Map(rows.map((r) => [r.group_id, r.n]));
  }

  /** The redirects with these sources (match type and URL), one per source: the newest. One statement for a whole import. */
  async redirectsBySource(sources: Array<{ matchType: string; url: string }>): Promise<RedirectRow[]> {
    if (sources.length === 0) return [];
    const rows = await this.sql.query<ItemRecord>(
      `select distinct on (i.match_type, i.url) i.* from redirection_items i
       where (i.match_type, i.url) in (select * from unnest($1::text[], $2::text[]))
       order by i.match_type, i.url, i.id desc`,
      [sources.map((r) => r.matchType), sources.map((r) => r.url)],
    );
    return rows.map(toRedirect);
  }

  /** `updateRedirect` for many redirects in one statement (an import's overwrites); IDs must be distinct. */
  async updateRedirects(rows: Array<{ id: number } & Omit<NewRedirect, 'hits' | 'lastAccess'>>): Promise<void> {
    if (rows.length === 0) return;
    const records = rows.map((r) => ({
      id: r.id, url: r.url, match_url: r.matchUrl, match_data: r.matchData, regex: r.regex, position: r.position, group_id: r.groupId,
      enabled: r.enabled, action_type: r.actionType, action_code: r.actionCode, action_data: r.actionData, title: r.title, match_type: r.matchType,
    }));
    await this.sql.query(
      `update redirection_items i set url = x.url, match_url = x.match_url, match_data = x.match_data, regex = x.regex, position = x.position,
         group_id = x.group_id, enabled = x.enabled, action_type = x.action_type, action_code = x.action_code, action_data = x.action_data,
         title = x.title, match_type = x.match_type
       from jsonb_to_recordset($1::jsonb) as x(id int8, url text, match_url text, match_data jsonb, regex boolean, position integer, group_id int8,
         enabled boolean, action_type text, action_code integer, action_data jsonb, title text, match_type text)
       where i.id = x.id`,
      [JSON.stringify(records)],
    );
  }

  /** Groups with their legacy IDs (import): inserted, or updated in place; the ID sequence moves past them. */
  async importGroups(groups: Omit<GroupRow, 'redirects'>[]): Promise<void> {
    if (!groups.length) return;
    await this.sql.query(
      `insert into redirection_groups (id, name, module_id, enabled, position)
       select * from unnest($1::int8[], $2::text[], $3::int[], $4::bool[], $5::int[])
       on conflict (id) do update set name = excluded.name, module_id = excluded.module_id, enabled = excluded.enabled, position = excluded.position`,
      [groups.map((g) => g.id), groups.map((g) => g.name), groups.map((g) => g.moduleId), groups.map((g) => g.enabled), groups.map((g) => g.position)],
    );
    await this.sql.query(`select setval('redirection_groups_id_seq', greatest($1::int8, (select last_value from redirection_groups_id_seq)))`, [Math.max(...groups.map((g) => g.id))]);
  }

  /** Redirects with their legacy IDs (import), hits and last access included; the ID sequence moves past them. */
  async importRedirects(rows: RedirectRow[]): Promise<void> {
    if (rows.length === 0) return;
    const columns = rows.map((r) => [r.id, ...itemValues(r)]);
    await this.sql.query(
      `insert into redirection_items (id, ${ITEM_COLUMNS}) select * from unnest($1::int8[], ${unnestParams(2)})
       on conflict (id) do update set ${ITEM_COLUMNS.split(', ').map((c) => `${c} = excluded.${c}`).join(', ')}`,
      Array.from({ length: ITEM_TYPES.length + 1 }, (_, c) => columns.map((v) => v[c])),
    );
    await this.sql.query(`select setval('redirection_items_id_seq', greatest($1::int8, (select last_value from redirection_items_id_seq)))`, [Math.max(...rows.map((r) => r.id))]);
  }

  /** Replaces every column but the ID, hits and last access. */
  async updateRedirect(id: number, r: Omit<NewRedirect, 'hits' | 'lastAccess'>): Promise<RedirectRow | null> {
    const rows = await this.sql.query<ItemRecord>(
      `update redirection_items set url = $2, match_url = $3, match_data = $4::jsonb, regex = $5, position = $6,
         group_id = $7, enabled = $8, action_type = $9, action_code = $10, action_data = $11::jsonb, title = $12, match_type = $13
       where id = $1 returning *`,
      [id, r.url, r.matchUrl, r.matchData === null ? null : JSON.stringify(r.matchData), r.regex, r.position, r.groupId, r.enabled,
        r.actionType, r.actionCode, r.actionData === null ? null : JSON.stringify(r.actionData), r.title, r.matchType],
    );
    return rows[0] ? toRedirect(rows[0]) : null;
  }

  async deleteRedirects(sel: Selection<RedirectFilter>): Promise<number> {
    const w = selectionWhere(sel, redirectWhere);
    return (await this.sql.query(`delete from redirection_items ${w} returning id`, w.params)).length;
  }

  async setRedirectsEnabled(sel: Selection<RedirectFilter>, enabled: boolean): Promise<number> {
    const w = selectionWhere(sel, redirectWhere);
    return (await this.sql.query(`update redirection_items set enabled = ${w.next(enabled)} ${w} returning id`, w.params)).length;
  }

  /** Hits back to 0 and never accessed. */
  async resetHits(sel: Selection<RedirectFilter>): Promise<number> {
    const w = selectionWhere(sel, redirectWhere);
    return (await this.sql.query(`update redirection_items set hits = 0, last_access = null ${w} returning id`, w.params)).length;
  }

  /**
   * Matching candidates: enabled redirects of enabled site-module groups whose lookup key is one of
   * `matchUrls` or that are regex redirects, in the order they are tried (position, then ID).
   */
  async matchCandidates(matchUrls: string[]): Promise<RedirectRow[]> {
    const rows = await this.sql.query<ItemRecord>(
      `select i.* from redirection_items i join redirection_groups g on g.id = i.group_id
       where i.enabled and g.enabled and g.module_id = 1 and (i.match_url = any($1::text[]) or i.match_url = 'regex')
       order by i.position, i.id limit 20000`,
      [matchUrls],
    );
    return rows.map(toRedirect);
  }

  /** One hit: the count and the last access. */
  async recordHit(id: number, at: Date): Promise<void> {
    await this.sql.query('update redirection_items set hits = hits + 1, last_access = $2 where id = $1', [id, at]);
  }

  /**
   * Redirects for an export: every redirect (module `all`), or the enabled redirects of the enabled
   * groups of one module, by position.
   */
  async redirectsForExport(moduleId: number | 'all'): Promise<RedirectRow[]> {
    if (moduleId === 'all') return (await this.sql.query<ItemRecord>('select * from redirection_items order by id')).map(toRedirect);
    const rows = await this.sql.query<ItemRecord>(
      `select i.* from redirection_items i join redirection_groups g on g.id = i.group_id
       where i.enabled and g.enabled and g.module_id = $1 order by i.position, i.id`,
      [moduleId],
    );
    return rows.map(toRedirect);
  }

  // ---- logs ----

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

  /** Deletes rows created before `before`; returns how many. */
  async expireLogs(kind: LogKind, before: Date): Promise<number> {
    return (await this.sql.query(`delete from ${LOG_TABLE[kind]} where created < $1 returning id`, [before])).length;
  }

  async listLogs(kind: 'log', filter: LogFilter, order: LogOrder, direction: Direction, page: Page): Promise<Listed<LogRow>>;
  async listLogs(kind: '404', filter: LogFilter, order: LogOrder, direction: Direction, page: Page): Promise<Listed<NotFoundRow>>;
  async listLogs(kind: LogKind, filter: LogFilter, order: LogOrder, direction: Direction, page: Page): Promise<Listed<LogRow | NotFoundRow>> {
    const w = logWhere(kind, filter);
    const table = LOG_TABLE[kind];
    const [{ total }] = await this.sql.query<{ total: number }>(`select count(*)::int as total from ${table} ${w}`, w.params);
    const d = dir(direction);
    const orderBy = order === 'id' ? `id ${d}` : `${order} ${d}, id ${d}`;
    const rows = await this.sql.query<LogRecord>(
      `select * from ${table} ${w} order by ${orderBy} limit ${w.next(page.perPage)} offset ${w.next(page.page * page.perPage)}`,
      w.params,
    );
    return { items: rows.map(kind === 'log' ? toLog : toLogBase), total };
  }

  /** Rows counted by one column, most (or fewest) first, then by value. */
  async groupedLogs(kind: LogKind, by: LogGroupBy, filter: LogFilter, direction: Direction, page: Page): Promise<Listed<GroupedRow>> {
    const w = logWhere(kind, filter);
    const table = LOG_TABLE[kind];
    const [{ total }] = await this.sql.query<{ total: number }>(`select count(distinct ${by})::int as total from ${table} ${w}`, w.params);
    const rows = await this.sql.query<{ value: string | null; count: number }>(
      `select ${by} as value, count(*)::int as count from ${table} ${w} group by ${by}
       order by count ${dir(direction)}, ${by} limit ${w.next(page.perPage)} offset ${w.next(page.page * page.perPage)}`,
      w.params,
    );
    return { items: rows.map((r) => ({ value: r.value ?? '', count: r.count })), total };
  }

  /** Deletes log rows by ID, by the value of a grouped column, or by filter; returns how many. */
  async deleteLogs(kind: LogKind, target: Selection<LogFilter> | { column: LogGroupBy; values: string[] }): Promise<number> {
    const table = LOG_TABLE[kind];
    const w = new Where();
    if ('column' in target) w.add((p) => `${target.column} = any(${p}::text[])`, target.values);
    else if ('ids' in target) w.add((p) => `id = any(${p}::int8[])`, target.ids);
    else logWhere(kind, target.filter, w);
    return (await this.sql.query(`delete from ${table} ${w} returning id`, w.params)).length;
  }

  /** Every row of a log, newest first (the log exports). */
  async allLogs(kind: 'log'): Promise<LogRow[]>;
  async allLogs(kind: '404'): Promise<NotFoundRow[]>;
  async allLogs(kind: LogKind): Promise<(LogRow | NotFoundRow)[]> {
    const rows = await this.sql.query<LogRecord>(`select * from ${LOG_TABLE[kind]} order by id desc`);
    return rows.map(kind === 'log' ? toLog : toLogBase);
  }
}
