/** Capture loading and the recorded redirection state (export 413) inserted through SQL. */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { GroupJson, RedirectJson } from '../../src/namespaces/redirection/io/shapes.ts';
import type { Store } from '../../src/store/store.ts';

const dir = path.join(import.meta.dirname, '../../fixtures/captures');

export interface Capture {
  request: { method: string; url: string; headers: Record<string, string>; body: string | null };
  response: { status: number; headers: Record<string, string>; body: string; body_json: unknown };
  captured_at: string;
}

export function capture(seq: number): Capture {
  const name = readdirSync(dir).find((f) => f.startsWith(`${String(seq).padStart(3, '0')}-`));
  if (!name) throw new Error(`no capture ${seq}`);
  return JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Capture;
}

/** The groups and redirects of the recorded site after the write captures (the JSON export 413). */
export function recordedState(): { groups: GroupJson[]; redirects: RedirectJson[] } {
  const data = (capture(413).response.body_json as { data: string }).data;
  return JSON.parse(data) as { groups: GroupJson[]; redirects: RedirectJson[] };
}

const installFlags = { flag_query: 'exact', flag_case: true, flag_trailing: true, flag_regex: false } as const;

/** Inserts the recorded state, storing only the flags that differ from the install defaults. */
export async function insertRecordedState(store: Store): Promise<void> {
  const { groups, redirects } = recordedState();
  await store.sql.query('delete from redirection_items');
  await store.sql.query('delete from redirection_groups');
  for (const g of groups) {
    await store.sql.query('insert into redirection_groups (id, name, module_id, enabled, position) values ($1, $2, $3, $4, 0)', [g.id, g.name, g.module_id, g.enabled]);
  }
  for (const r of redirects) {
    const src = r.match_data?.source ?? installFlags;
    const diff = Object.fromEntries(Object.entries(src).filter(([k, v]) => installFlags[k as keyof typeof installFlags] !== v));
    await store.sql.query(
      `insert into redirection_items (id, url, match_url, match_data, regex, position, hits, last_access, group_id, enabled, action_type, action_code, action_data, title, match_type)
       values ($1, $2, $3, $4, $5, $6, $7, null, $8, $9, $10, $11, $12, $13, $14)`,
      [r.id, r.url, r.match_url, Object.keys(diff).length ? JSON.stringify({ source: diff }) : null, r.regex, r.position, r.hits, r.group_id, r.enabled, r.action_type, r.action_code, r.action_data ? JSON.stringify(r.action_data) : null, r.title || null, r.match_type],
    );
  }
  await store.sql.query(`select setval('redirection_items_id_seq', (select max(id) from redirection_items))`);
  await store.sql.query(`select setval('redirection_groups_id_seq', (select max(id) from redirection_groups))`);
}

/** The redirects of the recorded site before the write captures (the list 220), in ID order. */
export function seededState(): { groups: GroupJson[]; redirects: RedirectJson[] } {
  const items = (capture(220).response.body_json as { items: RedirectJson[] }).items;
  return { groups: recordedState().groups, redirects: [...items].sort((a, b) => a.id - b.id) };
}

/**
 * Inserts a recorded state through the repository on a wiped store (the install's two groups, then
 * the others), so the IDs come out as recorded; only flags that differ from the install are stored.
 */
export async function insertThroughRepository(store: Store, state: { groups: GroupJson[]; redirects: RedirectJson[] }, lastAccess: Date): Promise<void> {
  const repo = store.redirection;
  await repo.wipe();
  for (const g of state.groups.filter((g) => g.id > 2)) {
    const made = await repo.groups.create(g.name, g.module_id, g.enabled);
    if (made.id !== g.id) throw new Error(`group ${g.name} got ID ${made.id}, recorded ${g.id}`);
  }
  await store.sql.query(`select setval('redirection_items_id_seq', 1, false)`);
  for (const r of state.redirects) {
    const src = r.match_data?.source ?? installFlags;
    const diff = Object.fromEntries(Object.entries(src).filter(([k, v]) => installFlags[k as keyof typeof installFlags] !== v));
    const made = await repo.redirects.insert({
      url: r.url, matchUrl: r.match_url, matchData: Object.keys(diff).length ? { source: diff } : null, regex: r.regex, position: r.position,
      hits: r.hits, lastAccess: r.last_access === '-' ? null : lastAccess, groupId: r.group_id, enabled: r.enabled,
      actionType: r.action_type as never, actionCode: r.action_code, actionData: r.action_data, title: r.title || null, matchType: r.match_type as never,
    });
    if (made.id !== r.id) throw new Error(`redirect ${r.url} got ID ${made.id}, recorded ${r.id}`);
  }
}
