/**
 * PostgreSQL outages under load, on a cluster of the test's own: Lintel stays up and answers 503
 * while the server is down or frozen, recovers by itself when it is back, and loses no write it
 * acknowledged. Only on the PostgreSQL lane (PGlite is in-process: it cannot go away).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openStore } from '../../src/store/store.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { storeLane } from '../support/store.ts';
import { postgresBin, startCluster, type Cluster } from './pg-cluster.ts';
import { scaled } from '../support/time.ts';

const bin = postgresBin();
const skipped = storeLane !== 'postgres' ? 'only on the PostgreSQL lane' : !bin ? 'no PostgreSQL server binaries (initdb) under /usr/lib/postgresql' : null;

// Short limits, so the frozen server is noticed quickly.
const ENV = { DATABASE_POOL_SIZE: '4', DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '2000', LINTEL_READY_TIMEOUT_MS: '500' };
const NS = '/wp-json/calendar/events/v1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = scaled(20_000)): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe.skipIf(skipped)(`PostgreSQL outage${skipped ? ` (skipped: ${skipped})` : ''}`, () => {
  let cluster: Cluster;
  let app: TestApp;
  let admin: string;
  // What would have ended a Lintel process (such as a client's unhandled 'error' event).
  const crashes: unknown[] = [];
  const onCrash = (e: unknown) => crashes.push(e);

  beforeAll(async () => {
    process.on('uncaughtException', onCrash);
    cluster = await startCluster(bin!);
    const store = await openStore(loadConfig({ ...ENV, DATABASE_URL: cluster.url }));
    app = await testApp({ store, env: ENV });
    admin = await app.auth('administrator');
  });
  afterAll(async () => {
    process.off('uncaughtException', onCrash);
    // The cluster goes first: its removal must not wait on a Lintel that cannot close.
    await cluster?.remove();
    await app?.close();
  });

  /** Writers (POST events) and a reader (GET events) in loops, until `stop`; every acknowledged write's ID is kept. */
  function load(writers: number) {
    const acknowledged: number[] = [];
    const statuses = new Set<number>();
    const unavailable: unknown[] = [];
    let running = true;
    // Each step yields to the event loop, as a client's network round trip would: a read answered
    // from the response cache resolves without I/O, and a loop of those would starve the writers.
    const loop = async (step: (i: number) => Promise<void>) => {
      for (let i = 0; running; i++) {
        await step(i);
        await new Promise(setImmediate);
      }
    };
    const answered = (r: { statusCode: number; json(): unknown }) => {
      statuses.add(r.statusCode);
      if (r.statusCode === 503) unavailable.push(r.json());
      return r.statusCode === 503 ? sleep(50) : undefined;
    };
    const loops = [
      ...Array.from({ length: writers }, (_, w) =>
        loop(async (i) => {
          const r = await app.server.inject({
            method: 'POST', url: `${NS}/events`, headers: { authorization: admin, 'content-type': 'application/json' },
            payload: JSON.stringify({ title: `Outage ${w} ${i}`, start_date: '2027-04-01 10:00', end_date: '2027-04-01 11:00' }),
          });
          if (r.statusCode === 201) acknowledged.push(r.json().id);
          await answered(r);
        }),
      ),
      loop(async () => {
        await answered(await app.server.inject({ url: `${NS}/events?start_date=2027-04-01&per_page=3` }));
      }),
    ];
    return {
      acknowledged, statuses, unavailable,
      stop: async () => {
        running = false;
        await Promise.all(loops);
      },
    };
  }

  it('answers 503 while the server is down, recovers when it is back, and keeps every acknowledged write', async () => {
    const traffic = load(4);
    try {
      await until('writes before the outage', () => traffic.acknowledged.length >= 8);
      await cluster.stop();
      await until('a 503 during the outage', () => traffic.unavailable.length > 0);
      const ready = await app.server.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'store unreachable', store: 'postgres', modes: expect.any(Object) });
      const page = await app.server.inject({ url: '/event/outage-0-0/' });
      expect(page.statusCode).toBe(503);
      expect(page.headers['content-type']).toBe('text/html; charset=UTF-8');
      await sleep(500);
      await cluster.start();
      const before = traffic.acknowledged.length;
      await until('writes after the server is back', () => traffic.acknowledged.length >= before + 8);
    } finally {
      await traffic.stop();
    }
    expect([...traffic.statuses].sort()).toEqual([200, 201, 503]);
    for (const body of traffic.unavailable) {
      expect(body).toEqual({ code: 'rest_store_unavailable', message: 'The content store is unavailable. Try again shortly.', data: { status: 503 } });
    }
    const stored = await app.store.sql.query<{ id: number }>('select id from calendar_events where id = any($1::int8[])', [traffic.acknowledged]);
    expect(stored.map((r) => r.id).sort((a, b) => a - b)).toEqual([...traffic.acknowledged].sort((a, b) => a - b));
    expect((await app.server.inject({ url: '/readyz' })).statusCode).toBe(200);
    expect(crashes).toEqual([]);
  }, scaled(60_000));

  it('answers 503 instead of hanging while the server is frozen, and recovers when it resumes', async () => {
    const traffic = load(2);
    try {
      await until('writes before the freeze', () => traffic.acknowledged.length >= 4);
      cluster.freeze();
      // Requests on open connections wait for the statement limit, new connections for the connect limit.
      await until('a 503 while frozen', () => traffic.unavailable.length > 0);
      const [write, ready] = await Promise.all([
        app.server.inject({
          method: 'POST', url: `${NS}/events`, headers: { authorization: admin, 'content-type': 'application/json' },
          payload: JSON.stringify({ title: 'Frozen', start_date: '2027-04-01 10:00', end_date: '2027-04-01 11:00' }),
        }),
        app.server.inject({ url: '/readyz' }),
      ]);
      expect(write.statusCode).toBe(503);
      expect(write.json().code).toBe('rest_store_unavailable');
      expect(ready.statusCode).toBe(503);
      cluster.thaw();
      const before = traffic.acknowledged.length;
      await until('writes after the server resumes', () => traffic.acknowledged.length >= before + 4);
    } finally {
      cluster.thaw();
      await traffic.stop();
    }
    expect([...traffic.statuses].every((s) => [200, 201, 503].includes(s))).toBe(true);
    expect(crashes).toEqual([]);
  }, scaled(60_000));
});
