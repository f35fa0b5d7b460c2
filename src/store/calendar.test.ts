/**
 * The event archive's store side: a page asked again is answered from what the store keeps (no
 * statement), until a calendar write is announced on the change feed; then the page shows the write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventQuery } from './calendar.ts';
import type { OpenStore } from './store.ts';
import { testStore } from '../../test/support/store.ts';
import { eventually, feedCaughtUp } from '../../test/support/eventually.ts';

let store: OpenStore;
beforeAll(async () => {
  store = await testStore();
});
afterAll(() => store.close());

const query: EventQuery = { statuses: ['publish'], startsOnOrAfter: '2026-01-01 00:00:00', limit: 10, offset: 0 };

async function addEvent(slug: string, start: string): Promise<number> {
  const [{ id }] = await store.sql.query<{ id: number }>(
    `insert into calendar_events (slug, title, start_date, end_date, utc_start_date, utc_end_date, timezone, created, modified)
     values ($1, $1, $2, $2, $2, $2, 'UTC', now(), now()) returning id`,
    [slug, start],
  );
  return id;
}

describe('event archive pages', () => {
  it('runs no statement for a page asked again, and shows a new event once its write is announced', async () => {
    const first = await addEvent('kept-page-first', '2026-12-01 10:00:00');
    await feedCaughtUp(store);
    expect((await store.calendar.eventArchive(query)).rows.map((e) => e.id)).toEqual([first]);

    const before = store.statements();
    const again = await store.calendar.eventArchive(query);
    expect(store.statements()).toBe(before);
    expect(again.rows.map((e) => e.id)).toEqual([first]);
    expect(again.total).toBe(1);

    const second = await addEvent('kept-page-second', '2026-11-30 10:00:00');
    await eventually(async () => (await store.calendar.eventArchive(query)).rows.length === 2);
    const after = await store.calendar.eventArchive(query);
    expect(after.rows.map((e) => e.id)).toEqual([second, first]);
    expect(after.total).toBe(2);
  });

  it('keeps each page of a query apart', async () => {
    await feedCaughtUp(store);
    const [page1, page2] = [await store.calendar.eventArchive({ ...query, limit: 1 }), await store.calendar.eventArchive({ ...query, limit: 1, offset: 1 })];
    expect(page1.rows).toHaveLength(1);
    expect(page2.rows).toHaveLength(1);
    expect(page2.rows[0].id).not.toBe(page1.rows[0].id);
  });
});
