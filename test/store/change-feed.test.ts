/**
 * The change feed: committed writes announce their topic (migration 070's triggers, LISTEN on
 * `lintel_changes`), rolled-back writes announce nothing, and on PostgreSQL a replica sharing the
 * database hears the other's writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type OpenStore } from '../../src/store/store.ts';
import { storeConfig, storeLane, testStore, throwawayDatabase } from '../support/store.ts';
import { eventually, feedCaughtUp } from '../support/eventually.ts';

let store: OpenStore;
beforeAll(async () => {
  store = await testStore();
});
afterAll(() => store.close());

describe('change feed', () => {
  it('is live once the store is open', () => {
    expect(store.changes.live).toBe(true);
  });

  it('announces a committed write under its topic, and only that topic', async () => {
    const calendar = store.changes.version(['calendar']);
    const redirection = store.changes.version(['redirection']);
    const options = store.changes.version(['options']);
    await store.options.set('lintel_test_option', 1);
    await eventually(() => store.changes.version(['options']) !== options);
    await store.sql.query(`insert into calendar_terms (taxonomy, name, slug) values ('tag', 'Feed', 'feed')`);
    await eventually(() => store.changes.version(['calendar']) !== calendar);
    expect(store.changes.version(['redirection'])).toBe(redirection);
  });

  it('announces nothing for a rolled-back transaction', async () => {
    await feedCaughtUp(store);
    const before = store.changes.version(['calendar']);
    await expect(
      store.transaction(async (tx) => {
        await tx.sql.query(`insert into calendar_terms (taxonomy, name, slug) values ('tag', 'Gone', 'gone')`);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await feedCaughtUp(store);
    expect(store.changes.version(['calendar'])).toBe(before);
  });

  it.skipIf(storeLane !== 'postgres')('reaches another replica on the same PostgreSQL database', async () => {
    const db = await throwawayDatabase();
    const a = await openStore(storeConfig({ databaseUrl: db.url, dataDir: '', poolSize: 2 }));
    const b = await openStore(storeConfig({ databaseUrl: db.url, dataDir: '', poolSize: 2 }));
    try {
      const seen = b.changes.version(['redirection']);
      await a.sql.query(`insert into redirection_groups (name, module_id) values ('feed', 1)`);
      await eventually(() => b.changes.version(['redirection']) !== seen);
    } finally {
      await a.close();
      await b.close();
      await db.drop();
    }
  });
});
