import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/support/app.ts';
import { eventually } from '../../test/support/eventually.ts';
import { ChangeFeed } from './change-feed.ts';
import type { Sql } from './sql.ts';
import { droppingOnWrite, TopicCache } from './topic-cache.ts';

describe('TopicCache', () => {
  const outside = { inTransaction: false } as Sql;
  const counting = () => {
    let calls = 0;
    return { count: async () => ++calls, calls: () => calls };
  };
  const liveFeed = () => {
    const feed = new ChangeFeed();
    feed.connected(true);
    return feed;
  };

  it('counts again only after a write to its topics is announced, or anything may have changed', async () => {
    const feed = liveFeed();
    const cache = new TopicCache<string, number>(feed, ['calendar'], 10);
    const c = counting();
    expect(await cache.get(outside, 'k', c.count)).toBe(1);
    expect(await cache.get(outside, 'k', c.count)).toBe(1);
    feed.changed('redirection');
    expect(await cache.get(outside, 'k', c.count)).toBe(1);
    feed.changed('calendar');
    expect(await cache.get(outside, 'k', c.count)).toBe(2);
    feed.anythingChanged();
    expect(await cache.get(outside, 'k', c.count)).toBe(3);
    expect(await cache.get(outside, 'other', c.count)).toBe(4);
  });

  it('loads, in one call, only the keys it does not keep; what the load does not find stays missing', async () => {
    const feed = liveFeed();
    const cache = new TopicCache<number, { id: number; v: number }>(feed, ['calendar'], 10);
    const loads: number[][] = [];
    const load = async (ids: number[]) => {
      loads.push(ids);
      return new Map(ids.filter((id) => id !== 404).map((id) => [id, { id, v: loads.length }]));
    };
    expect([...(await cache.many(outside, [1, 2, 2, 404], load)).keys()]).toEqual([1, 2]);
    const second = await cache.many(outside, [3, 1], load);
    expect([second.get(3), second.get(1)]).toEqual([{ id: 3, v: 2 }, { id: 1, v: 1 }]);
    expect(loads).toEqual([[1, 2, 404], [3]]);
    feed.changed('calendar');
    await cache.many(outside, [1], load);
    expect(loads.at(-1)).toEqual([1]);
  });

  it('keeps nothing inside a transaction or while the feed is down', async () => {
    const feed = liveFeed();
    const cache = new TopicCache<string, number>(feed, ['calendar'], 10);
    const c = counting();
    await cache.get({ inTransaction: true } as Sql, 'k', c.count);
    await cache.get({ inTransaction: true } as Sql, 'k', c.count);
    expect(c.calls()).toBe(2);
    feed.connected(false);
    await cache.get(outside, 'k', c.count);
    await cache.get(outside, 'k', c.count);
    expect(c.calls()).toBe(4);
  });

  it('through droppingOnWrite, counts again after a committed write, not after a read', async () => {
    const feed = liveFeed();
    const cache = new TopicCache<string, number>(feed, ['options'], 10);
    const committed: (() => void)[] = [];
    const tx: Sql = { inTransaction: true, query: async () => [], transaction: (fn) => fn(tx), afterCommit: (fn) => committed.push(fn) };
    const driver: Sql = {
      inTransaction: false,
      query: async () => [],
      transaction: async (fn) => {
        const result = await fn(tx);
        for (const fn of committed.splice(0)) fn();
        return result;
      },
      afterCommit: (fn) => fn(),
    };
    const sql = droppingOnWrite(driver, cache);
    const c = counting();
    await cache.get(sql, 'k', c.count);
    await sql.query('select 1');
    expect(await cache.get(sql, 'k', c.count)).toBe(1);
    await sql.query('update options set value = 1');
    expect(await cache.get(sql, 'k', c.count)).toBe(2);
    await sql.transaction(async (inside) => {
      await inside.query('delete from options');
      expect(await cache.get(sql, 'k', c.count)).toBe(2);
    });
    expect(await cache.get(sql, 'k', c.count)).toBe(3);
  });
});

describe('event archive totals and linked records', () => {
  let app: TestApp;
  const total = async () => Number((await app.server.inject({ url: '/wp-json/calendar/events/v1/events?start_date=2027-01-01&end_date=2027-12-31' })).headers['x-tec-total']);
  beforeAll(async () => {
    // The response cache off: every read runs the archive, whose count is kept.
    app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:00:00Z', LINTEL_CACHE_TTL_S: '0' } });
  });
  afterAll(() => app.close());

  it('follow a write made outside this process (announced by the store) and one made through the API at once', async () => {
    const admin = await app.auth('administrator');
    const before = await total();
    await app.store.sql.query(`insert into calendar_events (id, slug, title, start_date, end_date, utc_start_date, utc_end_date, timezone, created, modified)
      values (900001, 'written-elsewhere', 'Written elsewhere', '2027-03-01 10:00', '2027-03-01 11:00', '2027-03-01 10:00', '2027-03-01 11:00', 'UTC', now(), now())`);
    await eventually(async () => (await total()) === before + 1);
    const created = await app.server.inject({
      method: 'POST', url: '/wp-json/calendar/events/v1/events', headers: { authorization: admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'Written here', start_date: '2027-04-01 10:00', end_date: '2027-04-01 11:00' }),
    });
    expect(created.statusCode).toBe(201);
    expect(await total()).toBe(before + 2);
  });

  it('shape kept events per locale: each archive links under its own REST root', async () => {
    const restUrls = async (prefix: string) =>
      ((await app.server.inject({ url: `${prefix}/wp-json/calendar/events/v1/events?start_date=2027-01-01&end_date=2027-12-31` })).json() as { events: { rest_url: string }[] }).events.map((e) => e.rest_url);
    const plain = await restUrls('');
    const french = await restUrls('/fr');
    expect(plain.length).toBeGreaterThan(0);
    expect(french).toEqual(plain.map((u) => u.replace('/wp-json/', '/fr/wp-json/')));
    expect(await restUrls('')).toEqual(plain);
  });

  it('show a venue renamed outside this process once the store announces it', async () => {
    const admin = await app.auth('administrator');
    const venueName = async () => {
      const r = await app.server.inject({ url: '/wp-json/calendar/events/v1/events?start_date=2027-01-01&end_date=2027-12-31&per_page=50' });
      return (r.json() as { events: { title: string; venue: { venue?: string } }[] }).events.find((e) => e.title === 'At The Hall')?.venue.venue;
    };
    const created = await app.server.inject({
      method: 'POST', url: '/wp-json/calendar/events/v1/events', headers: { authorization: admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'At The Hall', start_date: '2027-05-01 10:00', end_date: '2027-05-01 11:00', venue: { venue: 'Old Hall' } }),
    });
    expect(created.statusCode).toBe(201);
    expect(await venueName()).toBe('Old Hall');
    expect(await venueName()).toBe('Old Hall');
    await app.store.sql.query(`update calendar_venues set name = 'New Hall' where name = 'Old Hall'`);
    await eventually(async () => (await venueName()) === 'New Hall');
  });
});
