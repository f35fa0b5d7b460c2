/**
 * The legacy tables' collation (MySQL's utf8mb4_unicode_520_ci) in the redirection lists: the
 * orders below are what the legacy database answered for the same names (`ORDER BY name ASC|DESC`),
 * ties (case, accents, `ß`/`ss`, trailing spaces) in ID order whatever the direction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../src/store/store.ts';
import { testStore } from '../support/store.ts';

const NAMES = ['Redirections', 'Modified Posts', '`\\;', '_x', '-x', '^/blog', '/gone', 'a', 'A', 'á', 'a ', 'a\t', 'b', 'B2', 'b10', 'ß', 'ss', 'St', 'Ωmega', 'émile', 'Zed', '', '9', '10', "it's", 'ÆON', 'aeon', 'Ab'];
// IDs (1-based positions in NAMES) as the legacy database ordered them.
const ASC = [22, 3, 6, 4, 5, 7, 24, 23, 12, 8, 9, 10, 11, 28, 26, 27, 13, 15, 14, 20, 25, 2, 1, 16, 17, 18, 21, 19];
const DESC = [19, 21, 18, 16, 17, 1, 2, 25, 20, 14, 15, 13, 26, 27, 28, 8, 9, 10, 11, 12, 23, 24, 7, 5, 4, 6, 3, 22];

let store: OpenStore;
beforeAll(async () => {
  store = await testStore();
  await store.sql.query('delete from redirection_groups');
  for (const [i, name] of NAMES.entries()) await store.sql.query('insert into redirection_groups (id, name, module_id) values ($1, $2, 1)', [i + 1, name]);
});
afterAll(() => store.close());

describe('group list by name', () => {
  it.each([
    ['asc', ASC],
    ['desc', DESC],
  ] as const)('%s: punctuation, digits, letters; case and accents equal', async (direction, ids) => {
    const listed = await store.redirection.groups.list({}, 'name', direction, { page: 0, perPage: 100 });
    expect(listed.items.map((g) => g.id)).toEqual(ids);
  });

  it('pages cut the same order', async () => {
    const second = await store.redirection.groups.list({}, 'name', 'desc', { page: 1, perPage: 5 });
    expect(second.items.map((g) => g.id)).toEqual(DESC.slice(5, 10));
  });
});

describe('ties in the other lists (as the legacy site answered its seeded log and redirects)', () => {
  beforeAll(async () => {
    await store.sql.query('delete from redirection_logs');
    for (const [id, url] of [[1, '/old-page'], [2, '/old-page'], [3, '/blog/hello-world'], [4, '/promo'], [5, '/summer']] as const) {
      await store.sql.query(`insert into redirection_logs (id, url, ip) values ($1, $2, '')`, [id, url]);
    }
    await store.sql.query('delete from redirection_items');
    for (const [id, at] of [[1, '2026-11-21T12:06:41.100Z'], [2, '2026-11-21T12:06:41.900Z'], [4, '2026-11-21T12:06:41.500Z'], [5, '2026-11-21T12:06:42Z'], [3, null]] as const) {
      await store.sql.query(`insert into redirection_items (id, url, match_url, group_id, action_type, last_access) values ($1, '/x', '/x', 1, 'url', $2)`, [id, at]);
    }
  });
  const page = { page: 0, perPage: 100 };

  it('a log by URL: equal URLs in ID order, descending too', async () => {
    expect((await store.redirection.logs.list('log', {}, 'url', 'desc', page)).items.map((r) => r.id)).toEqual([5, 4, 1, 2, 3]);
  });

  it('a log by IP: the indexed column is read backwards for a descending list', async () => {
    expect((await store.redirection.logs.list('log', {}, 'ip', 'desc', page)).items.map((r) => r.id)).toEqual([5, 4, 3, 2, 1]);
    expect((await store.redirection.logs.list('log', {}, 'ip', 'asc', page)).items.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('redirects by last access: hits within one second are ties', async () => {
    expect((await store.redirection.redirects.list({}, 'last_access', 'desc', page)).items.map((r) => r.id)).toEqual([5, 1, 2, 4, 3]);
  });
});
