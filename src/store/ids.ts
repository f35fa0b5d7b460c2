/**
 * ID spaces: the legacy posts and terms (shared by several tables each), and the redirection
 * plugin's own. A record created here takes the next ID of its space; a record imported with its
 * legacy ID keeps it, and the space moves past it so later IDs never collide.
 */
import type { Sql } from './sql.ts';

export type IdSpace = 'post_id_seq' | 'term_id_seq' | 'redirection_groups_id_seq' | 'redirection_items_id_seq';

export async function nextId(sql: Sql, space: IdSpace): Promise<number> {
  const [row] = await sql.query<{ id: number }>(`select nextval('${space}')::int8 as id`);
  return row.id;
}

/** Reserves `id` (an imported legacy ID): the sequence continues after the largest one seen. */
export async function reserveId(sql: Sql, space: IdSpace, id: number): Promise<void> {
  await sql.query(`select setval('${space}', greatest($1::int8, (select last_value from ${space})), true)`, [id]);
}

/** Whether an ID can name a stored record: a path or `?id=` may carry any number, and one past a bigint makes the query fail. */
export const isRecordId = (id: number) => Number.isSafeInteger(id) && id > 0;
