/** Redirects (`redirection_items`): management, import, and the hits the site's edge counts. */
import type { Direction, Listed, NewRedirect, Page, RedirectFilter, RedirectOrder, RedirectRow, Selection } from './rows.ts';
import { reserveId } from '../ids.ts';
import { like, Where } from '../where.ts';
import { dir, legacyOrder, selectionWhere } from './where.ts';
import type { Sql } from '../sql.ts';
import { TopicCache } from '../topic-cache.ts';
import type { ChangeFeed } from '../change-feed.ts';

/** Redirect list pages, by the page's statement and parameters, until a write to a redirection table is announced. */
export type RedirectPages = TopicCache<string, Listed<RedirectRow>>;
export const redirectPages = (feed: ChangeFeed): RedirectPages => new TopicCache(feed, ['redirection'], 500);
/** The route's largest page: longer lists (an import's every ID) are read, never kept. */
const KEPT_PAGE_SIZE = 200;

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

/** ORDER BY of the redirect list; never-hit rows sort as the legacy 1970 date. */
function redirectOrder(order: RedirectOrder, d: 'asc' | 'desc'): string {
  // Ties come in ID order whatever the direction, as MySQL hands them over in primary-key order (capture 447).
  switch (order) {
    case 'url': return `${legacyOrder('url')} ${d}, id`;
    // The legacy column keeps whole seconds: hits within one second are ties.
    case 'last_access': return `date_trunc('second', coalesce(last_access, 'epoch'::timestamptz)) ${d}, id`;
    case 'hits': return `hits ${d}, id`;
    case 'position': return `position ${d}, id`;
    case 'id': return `id ${d}`;
  }
}

export class RedirectRepo {
  private readonly sql: Sql;
  private readonly pages: RedirectPages;
  constructor(sql: Sql, pages: RedirectPages) {
    this.sql = sql;
    this.pages = pages;
  }

  async list(filter: RedirectFilter, order: RedirectOrder, direction: Direction, page: Page): Promise<Listed<RedirectRow>> {
    const w = redirectWhere(filter);
    const sort = redirectOrder(order, dir(direction));
    // The count and the page in one statement and one row, the page as one JSON text: decoding 15
    // columns a row from the store's answer cost more CPU than the statement (PGlite: 0.5 ms of a
    // 0.8 ms request for a page of 6), JSON.parse takes microseconds.
    const text = `select (select count(*)::int from redirection_items ${w}) as total,
       (select json_agg(r order by ${sort})::text from (
         select * from redirection_items ${w} order by ${sort} limit ${w.next(page.perPage)} offset ${w.next(page.page * page.perPage)}) r) as items`;
    const read = async (): Promise<Listed<RedirectRow>> => {
      const [row] = await this.sql.query<{ total: number; items: string | null }>(text, w.params);
      const items = row.items === null ? [] : (JSON.parse(row.items) as Array<Omit<ItemRecord, 'last_access'> & { last_access: string | null }>);
      return { items: items.map((r) => toRedirect({ ...r, last_access: r.last_access === null ? null : new Date(r.last_access) })), total: row.total };
    };
    // An admin screen reads the same page again and again; any redirection write (a hit included) drops it.
    // A last-access bound moves with the clock: no request would ask for that page again.
    const kept = page.perPage <= KEPT_PAGE_SIZE && !(filter.access instanceof Date);
    return kept ? this.pages.get(this.sql, `${text}\0${JSON.stringify(w.params)}`, read) : read();
  }

  async byId(id: number): Promise<RedirectRow | null> {
    const rows = await this.sql.query<ItemRecord>('select * from redirection_items where id = $1', [id]);
    return rows[0] ? toRedirect(rows[0]) : null;
  }

  /** Which of these IDs exist (bulk actions check them first). */
  async existingIds(ids: number[]): Promise<Set<number>> {
    const rows = await this.sql.query<{ id: number }>('select id from redirection_items where id = any($1::int8[])', [ids]);
    return new Set(rows.map((r) => r.id));
  }

  async countInGroup(groupId: number): Promise<number> {
    const [{ n }] = await this.sql.query<{ n: number }>('select count(*)::int as n from redirection_items where group_id = $1', [groupId]);
    return n;
  }

  async insert(r: NewRedirect): Promise<RedirectRow> {
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
  async insertMany(rows: NewRedirect[]): Promise<void> {
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
  async bySource(sources: Array<{ matchType: string; url: string }>): Promise<RedirectRow[]> {
    if (sources.length === 0) return [];
    const rows = await this.sql.query<ItemRecord>(
      `select distinct on (i.match_type, i.url) i.* from redirection_items i
       where (i.match_type, i.url) in (select * from unnest($1::text[], $2::text[]))
       order by i.match_type, i.url, i.id desc`,
      [sources.map((r) => r.matchType), sources.map((r) => r.url)],
    );
    return rows.map(toRedirect);
  }

  /** `update` for many redirects in one statement (an import's overwrites); IDs must be distinct. */
  async updateMany(rows: Array<{ id: number } & Omit<NewRedirect, 'hits' | 'lastAccess'>>): Promise<void> {
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

  /** Redirects with their legacy IDs (import), hits and last access included; the ID sequence moves past them. */
  async importRows(rows: RedirectRow[]): Promise<void> {
    if (rows.length === 0) return;
    const columns = rows.map((r) => [r.id, ...itemValues(r)]);
    await this.sql.query(
      `insert into redirection_items (id, ${ITEM_COLUMNS}) select * from unnest($1::int8[], ${unnestParams(2)})
       on conflict (id) do update set ${ITEM_COLUMNS.split(', ').map((c) => `${c} = excluded.${c}`).join(', ')}`,
      Array.from({ length: ITEM_TYPES.length + 1 }, (_, c) => columns.map((v) => v[c])),
    );
    await reserveId(this.sql, 'redirection_items_id_seq', Math.max(...rows.map((r) => r.id)));
  }

  /** Replaces every column but the ID, hits and last access. */
  async update(id: number, r: Omit<NewRedirect, 'hits' | 'lastAccess'>): Promise<RedirectRow | null> {
    const rows = await this.sql.query<ItemRecord>(
      `update redirection_items set url = $2, match_url = $3, match_data = $4::jsonb, regex = $5, position = $6,
         group_id = $7, enabled = $8, action_type = $9, action_code = $10, action_data = $11::jsonb, title = $12, match_type = $13
       where id = $1 returning *`,
      [id, r.url, r.matchUrl, r.matchData === null ? null : JSON.stringify(r.matchData), r.regex, r.position, r.groupId, r.enabled,
        r.actionType, r.actionCode, r.actionData === null ? null : JSON.stringify(r.actionData), r.title, r.matchType],
    );
    return rows[0] ? toRedirect(rows[0]) : null;
  }

  async delete(sel: Selection<RedirectFilter>): Promise<number> {
    const w = selectionWhere(sel, redirectWhere);
    return (await this.sql.query(`delete from redirection_items ${w} returning id`, w.params)).length;
  }

  async setEnabled(sel: Selection<RedirectFilter>, enabled: boolean): Promise<number> {
    const w = selectionWhere(sel, redirectWhere);
    return (await this.sql.query(`update redirection_items set enabled = ${w.next(enabled)} ${w} returning id`, w.params)).length;
  }

  /** Hits back to 0 and never accessed. */
  async resetHits(sel: Selection<RedirectFilter>): Promise<number> {
    const w = selectionWhere(sel, redirectWhere);
    return (await this.sql.query(`update redirection_items set hits = 0, last_access = null ${w} returning id`, w.params)).length;
  }

  /** One hit: the count and the last access. */
  async recordHit(id: number, at: Date): Promise<void> {
    await this.sql.query('update redirection_items set hits = hits + 1, last_access = $2 where id = $1', [id, at]);
  }

  /**
   * Every redirect by ID (module `all`), or the enabled redirects of the enabled groups of one module
   * by position then ID: what an export writes, and for the site module the rules the edge executes.
   */
  async ofModule(moduleId: number | 'all'): Promise<RedirectRow[]> {
    if (moduleId === 'all') return (await this.sql.query<ItemRecord>('select * from redirection_items order by id')).map(toRedirect);
    const rows = await this.sql.query<ItemRecord>(
      `select i.* from redirection_items i join redirection_groups g on g.id = i.group_id
       where i.enabled and g.enabled and g.module_id = $1 order by i.position, i.id`,
      [moduleId],
    );
    return rows.map(toRedirect);
  }
}
