/**
 * The response cache of anonymous reads: a repeated read is answered from memory with a strong
 * ETag (304 on If-None-Match), a write through Lintel is seen by the writer's next read, a write by
 * anyone else (another replica, the command line) as soon as the change feed announces it, and only
 * writes to what the answer reads drop it. Credentials and method overrides are never cached.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from './support/app.ts';
import { storeLane, throwawayDatabase } from './support/store.ts';
import { openStore } from '../src/store/store.ts';
import { storeConfig } from './support/store.ts';
import { eventually, feedCaughtUp } from './support/eventually.ts';

const ARCHIVE = '/wp-json/calendar/events/v1/events?start_date=2020-01-01&per_page=50';
const event = (title: string) => ({ title, start_date: '2027-05-01 20:00:00', end_date: '2027-05-01 22:00:00', status: 'publish' });

let app: TestApp;
let admin: string;
beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:00:00Z' } });
  admin = await app.auth('administrator');
  await feedCaughtUp(app.store); // the new user's announcement, before the first read is kept
});
afterAll(() => app.close());

const get = (a: TestApp, url = ARCHIVE, headers: Record<string, string> = {}) => a.server.inject({ url, headers });
const titles = (body: string) => (JSON.parse(body) as { events: { title: string }[] }).events.map((e) => e.title);

describe('response cache', () => {
  it('answers a repeated anonymous read from memory, with the same body and a strong ETag; 304 on If-None-Match', async () => {
    const first = await get(app);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-lintel-cache']).toBe('miss');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const second = await get(app);
    expect(second.headers['x-lintel-cache']).toBe('hit');
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(etag);
    expect(second.headers['x-wp-total']).toBe(first.headers['x-wp-total']);
    const revalidated = await get(app, ARCHIVE, { 'if-none-match': etag });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    const head = await app.server.inject({ method: 'HEAD', url: ARCHIVE });
    expect(head.statusCode).toBe(200);
    expect(head.headers['x-lintel-cache']).toBe('hit');
    expect(head.body).toBe('');
  });

  it('shows a write through Lintel on the writer\'s very next read', async () => {
    await get(app);
    const created = await app.server.inject({ method: 'POST', url: '/wp-json/calendar/events/v1/events', headers: { authorization: admin, 'content-type': 'application/json' }, payload: event('Written Here') });
    expect(created.statusCode).toBe(201);
    const after = await get(app);
    expect(after.headers['x-lintel-cache']).toBe('miss');
    expect(titles(after.body)).toContain('Written Here');
  });

  it('drops an answer when a write elsewhere to what it reads is announced, and keeps it for writes to other topics', async () => {
    await get(app);
    await feedCaughtUp(app.store);
    expect((await get(app)).headers['x-lintel-cache']).toBe('hit');
    await app.store.sql.query(`insert into redirection_groups (name, module_id) values ('elsewhere', 1)`);
    await feedCaughtUp(app.store);
    expect((await get(app)).headers['x-lintel-cache']).toBe('hit');
    await app.store.sql.query(`update calendar_events set title = 'Renamed Elsewhere' where id = (select max(id) from calendar_events)`);
    await eventually(async () => titles((await get(app)).body).includes('Renamed Elsewhere'));
  });

  it('recomputes an answer from the site options as they are once a change to them is announced, never from a stale copy', async () => {
    const index = () => get(app, '/wp-json/');
    await index();
    expect((await index()).headers['x-lintel-cache']).toBe('hit');
    await app.store.sql.query(`insert into options (name, value) values ('site', '{"name": "Renamed Elsewhere"}')
      on conflict (name) do update set value = options.value || excluded.value`);
    let recomputed: Awaited<ReturnType<typeof index>> | undefined;
    await eventually(async () => (recomputed = await index()).headers['x-lintel-cache'] !== 'hit');
    expect((JSON.parse(recomputed!.body) as { name: string }).name).toBe('Renamed Elsewhere');
  });

  it('never caches requests with credentials or a method override, nor errors', async () => {
    const authed = await get(app, ARCHIVE, { authorization: admin });
    expect(authed.statusCode).toBe(200);
    expect(authed.headers['x-lintel-cache']).toBeUndefined();
    expect((await get(app, `${ARCHIVE}&_method=GET`)).headers['x-lintel-cache']).toBeUndefined();
    const missing = '/wp-json/calendar/events/v1/events/999999';
    await get(app, missing);
    const again = await get(app, missing);
    expect(again.statusCode).toBe(404);
    expect(again.headers['x-lintel-cache']).toBe('miss');
  });

  it('is off with LINTEL_CACHE_TTL_S=0', async () => {
    const off = await testApp({ env: { LINTEL_CACHE_TTL_S: '0' } });
    try {
      await get(off);
      const r = await get(off);
      expect(r.headers['x-lintel-cache']).toBeUndefined();
      expect(r.headers.etag).toBeUndefined();
    } finally {
      await off.close();
    }
  });

  it.skipIf(storeLane !== 'postgres')('sees another replica\'s write on the same PostgreSQL database', async () => {
    const db = await throwawayDatabase();
    const a = await testApp({ store: await openStore(storeConfig({ databaseUrl: db.url, dataDir: '', poolSize: 2 })) });
    const b = await testApp({ store: await openStore(storeConfig({ databaseUrl: db.url, dataDir: '', poolSize: 2 })) });
    try {
      await get(a);
      expect((await get(a)).headers['x-lintel-cache']).toBe('hit');
      const created = await b.server.inject({ method: 'POST', url: '/wp-json/calendar/events/v1/events', headers: { authorization: await b.auth('administrator'), 'content-type': 'application/json' }, payload: event('Written On B') });
      expect(created.statusCode).toBe(201);
      await eventually(async () => titles((await get(a)).body).includes('Written On B'));
    } finally {
      await a.close();
      await b.close();
      await db.drop();
    }
  });
});
