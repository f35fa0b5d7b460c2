/**
 * The redirect list reads its page as one JSON text: each redirect must come out as `byId` reads it
 * column by column (a last access to the millisecond, the JSON columns, nulls), in the list's order,
 * with the count of every match beside a page past the end. A page is kept until a write to a
 * redirection table is announced (a hit included).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStore } from '../../../test/support/store.ts';
import type { OpenStore } from '../store.ts';

let store: OpenStore;
beforeAll(async () => {
  store = await testStore();
  await store.sql.query('delete from redirection_items');
  await store.redirection.redirects.importRows([
    { id: 7, url: '/a', matchUrl: '/a', matchData: { source: { flag_case: false }, options: { log_exclude: true } }, regex: false, position: 2, hits: 41, lastAccess: new Date('2026-11-21T12:06:41.125Z'), groupId: 1, enabled: true, actionType: 'url', actionCode: 301, actionData: { url: '/b/ü?x=1&y="2"' }, title: 'Émile\'s "page"', matchType: 'url' },
    { id: 9, url: '^/r/(.*)', matchUrl: 'regex', matchData: null, regex: true, position: 0, hits: 0, lastAccess: null, groupId: 1, enabled: false, actionType: 'error', actionCode: 410, actionData: null, title: null, matchType: 'url' },
    { id: 8, url: '/c', matchUrl: '/c', matchData: null, regex: false, position: 1, hits: 3, lastAccess: new Date('2026-01-02T03:04:05Z'), groupId: 1, enabled: true, actionType: 'url', actionCode: 302, actionData: { url: '/d' }, title: '', matchType: 'url' },
  ]);
});
afterAll(() => store.close());

describe('redirect list', () => {
  it('hands out each redirect as byId reads it, in the list order', async () => {
    const listed = await store.redirection.redirects.list({}, 'position', 'asc', { page: 0, perPage: 25 });
    expect(listed.total).toBe(3);
    expect(listed.items).toEqual([await store.redirection.redirects.byId(9), await store.redirection.redirects.byId(8), await store.redirection.redirects.byId(7)]);
    expect(listed.items[2].lastAccess).toEqual(new Date('2026-11-21T12:06:41.125Z'));
  });

  it('a page read again after a write to a redirection table shows the write', async () => {
    const page = { page: 0, perPage: 25 };
    const before = await store.redirection.redirects.list({}, 'id', 'desc', page);
    const statements = store.statements();
    expect(await store.redirection.redirects.list({}, 'id', 'desc', page)).toEqual(before);
    expect(store.statements()).toBe(statements); // kept: no statement ran
    await store.redirection.redirects.recordHit(8, new Date('2026-11-22T00:00:00Z'));
    // At once, before the change feed announces the writes.
    expect((await store.redirection.redirects.list({}, 'id', 'desc', page)).items.find((r) => r.id === 8)?.hits).toBe(4);
    await store.redirection.redirects.insert({ ...before.items[0], url: '/new', matchUrl: '/new' });
    expect((await store.redirection.redirects.list({}, 'id', 'desc', page)).total).toBe(4);
    await store.sql.query('delete from redirection_items where url = $1', ['/new']);
    await store.sql.query(`update redirection_items set hits = 3, last_access = '2026-01-02T03:04:05Z' where id = 8`);
  });

  it('a page read while a transaction writes holds what was committed, and the next read after the commit shows the write', async () => {
    const page = { page: 0, perPage: 25 };
    const read = () => store.redirection.redirects.list({}, 'id', 'desc', page);
    // Until the raw writes above are announced and the page is kept (read again without a statement).
    const kept = async () => {
      const statements = store.statements();
      await read();
      return store.statements() === statements;
    };
    await expect.poll(kept).toBe(true);
    const before = await read();
    expect(before.total).toBe(3);
    await store.transaction(async (tx) => {
      await tx.redirection.redirects.insert({ ...before.items[0], url: '/in-tx', matchUrl: '/in-tx' });
      expect((await tx.redirection.redirects.list({}, 'id', 'desc', page)).total).toBe(4);
      // Outside the transaction, its write is not committed yet.
      expect(await read()).toEqual(before);
    });
    expect((await read()).items[0].url).toBe('/in-tx');
    await store.sql.query('delete from redirection_items where url = $1', ['/in-tx']);
  });

  it('a page bounded by a last access (it moves with the clock) is read again, not kept', async () => {
    const older = { access: new Date('2026-06-01T00:00:00Z') };
    expect((await store.redirection.redirects.list(older, 'id', 'asc', { page: 0, perPage: 25 })).items.map((r) => r.id)).toEqual([8, 9]);
    const statements = store.statements();
    await store.redirection.redirects.list(older, 'id', 'asc', { page: 0, perPage: 25 });
    expect(store.statements()).toBe(statements + 1);
  });

  it('a page past the end is empty, with the count of every match', async () => {
    expect(await store.redirection.redirects.list({ enabled: true }, 'id', 'desc', { page: 3, perPage: 5 })).toEqual({ items: [], total: 2 });
  });
});
