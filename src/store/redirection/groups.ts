/** Redirect groups (`redirection_groups`), each with the count of its redirects. */
import type { Direction, GroupFilter, GroupOrder, GroupRow, Listed, Page, Selection } from './rows.ts';
import { reserveId } from '../ids.ts';
import { like, Where } from '../where.ts';
import { dir, legacyOrder, selectionWhere } from './where.ts';
import type { Sql } from '../sql.ts';

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

function groupWhere(f: GroupFilter, w = new Where()): Where {
  if (f.enabled !== undefined) w.add((p) => `g.enabled = ${p}`, f.enabled);
  if (f.moduleId !== undefined) w.add((p) => `g.module_id = ${p}`, f.moduleId);
  if (f.name !== undefined) w.add((p) => `g.name ilike ${p}`, like(f.name));
  return w;
}

export class RedirectGroupRepo {
  private readonly sql: Sql;
  constructor(sql: Sql) {
    this.sql = sql;
  }

  async list(filter: GroupFilter, order: GroupOrder, direction: Direction, page: Page): Promise<Listed<GroupRow>> {
    const w = groupWhere(filter);
    const [{ total }] = await this.sql.query<{ total: number }>(`select count(*)::int as total from redirection_groups g ${w}`, w.params);
    const orderBy = order === 'id' ? `g.id ${dir(direction)}` : `${legacyOrder('g.name')} ${dir(direction)}, g.id`;
    const rows = await this.sql.query<GroupRecord>(
      `${GROUP_SELECT} ${w} order by ${orderBy} limit ${w.next(page.perPage)} offset ${w.next(page.page * page.perPage)}`,
      w.params,
    );
    return { items: rows.map(toGroup), total };
  }

  /** All groups (of one module, or all), by module then position: the settings dropdown and the exports. */
  async all(moduleId?: number): Promise<GroupRow[]> {
    const w = new Where();
    if (moduleId !== undefined) w.add((p) => `g.module_id = ${p}`, moduleId);
    return (await this.sql.query<GroupRecord>(`${GROUP_SELECT} ${w} order by g.module_id, g.position, g.id`, w.params)).map(toGroup);
  }

  async byId(id: number): Promise<GroupRow | null> {
    const rows = await this.sql.query<GroupRecord>(`${GROUP_SELECT} where g.id = $1`, [id]);
    return rows[0] ? toGroup(rows[0]) : null;
  }

  /** A new enabled group, placed after the module's other groups. */
  async create(name: string, moduleId: number, enabled = true): Promise<GroupRow> {
    const [{ id }] = await this.sql.query<{ id: number }>(
      `insert into redirection_groups (name, module_id, enabled, position)
       values ($1, $2, $3, (select count(*) from redirection_groups where module_id = $2)) returning id`,
      [name, moduleId, enabled],
    );
    return (await this.byId(id))!;
  }

  async update(id: number, patch: { name?: string; moduleId?: number }): Promise<GroupRow | null> {
    await this.sql.query(
      'update redirection_groups set name = coalesce($2, name), module_id = coalesce($3, module_id) where id = $1',
      [id, patch.name ?? null, patch.moduleId ?? null],
    );
    return this.byId(id);
  }

  /** Deletes groups with their redirects; returns how many groups went. */
  async delete(sel: Selection<GroupFilter>): Promise<number> {
    const w = selectionWhere(sel, groupWhere, 'g.id');
    const rows = await this.sql.query(`delete from redirection_groups g ${w} returning g.id`, w.params);
    return rows.length;
  }

  /** Enables or disables groups and every redirect in them. */
  async setEnabled(sel: Selection<GroupFilter>, enabled: boolean): Promise<number> {
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

  /** Groups with their legacy IDs (import): inserted, or updated in place; the ID sequence moves past them. */
  async importRows(groups: Omit<GroupRow, 'redirects'>[]): Promise<void> {
    if (!groups.length) return;
    await this.sql.query(
      `insert into redirection_groups (id, name, module_id, enabled, position)
       select * from unnest($1::int8[], $2::text[], $3::int[], $4::bool[], $5::int[])
       on conflict (id) do update set name = excluded.name, module_id = excluded.module_id, enabled = excluded.enabled, position = excluded.position`,
      [groups.map((g) => g.id), groups.map((g) => g.name), groups.map((g) => g.moduleId), groups.map((g) => g.enabled), groups.map((g) => g.position)],
    );
    await reserveId(this.sql, 'redirection_groups_id_seq', Math.max(...groups.map((g) => g.id)));
  }

  /** Every group goes, with its redirects; the install's two groups come back (as migration 020 made them). */
  async reinstall(): Promise<void> {
    await this.sql.query('delete from redirection_groups');
    await this.sql.query(`insert into redirection_groups (id, name, module_id, enabled, position) values (1, 'Redirections', 1, true, 0), (2, 'Modified Posts', 1, true, 1)`);
    await this.sql.query(`select setval('redirection_groups_id_seq', 2, true)`);
  }
}
