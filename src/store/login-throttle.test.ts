/**
 * The failed-login counts shared by replicas on one PostgreSQL database (PostgreSQL lane only:
 * on PGlite the process is alone on its data and counts in memory).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeConfig, storeLane, throwawayDatabase } from '../../test/support/store.ts';
import { testApp, type TestApp } from '../../test/support/app.ts';
import { openStore, type OpenStore } from './store.ts';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

describe.skipIf(storeLane !== 'postgres')('login throttle shared through PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof throwawayDatabase>>;
  let stores: OpenStore[];
  let apps: TestApp[];
  beforeAll(async () => {
    db = await throwawayDatabase();
    stores = [await openStore(storeConfig({ databaseUrl: db.url, dataDir: '', poolSize: 4 })), await openStore(storeConfig({ databaseUrl: db.url, dataDir: '', poolSize: 4 }))];
    const env = { LINTEL_LOGIN_ATTEMPTS: '3', LINTEL_LOGIN_WINDOW_S: '600' };
    apps = [await testApp({ env, store: stores[0] }), await testApp({ env, store: stores[1] })];
  });
  afterAll(async () => {
    for (const app of apps ?? []) await app.close();
    await db?.drop();
  });

  it('counts concurrent failures from two replicas on one key exactly, starts a new window once one ended, and purges ended ones', async () => {
    const [a, b] = stores;
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).loginThrottle.fail(['k1', 'k2'], 600)));
    expect((await a.loginThrottle.counts(['k1', 'k2', 'k3'])).map(({ key, failures }) => ({ key, failures })).sort((x, y) => x.key.localeCompare(y.key))).toEqual([
      { key: 'k1', failures: 20 },
      { key: 'k2', failures: 20 },
    ]);
    await a.sql.query(`update login_throttle set window_end = now() - interval '1 second' where key = 'k1'`);
    expect(await b.loginThrottle.counts(['k1'])).toEqual([]);
    const [renewed] = await b.loginThrottle.fail(['k1'], 600);
    expect(renewed).toMatchObject({ key: 'k1', failures: 1 });
    expect(renewed.waitS).toBeGreaterThan(590);
    await a.sql.query(`update login_throttle set window_end = now() - interval '1 second' where key = 'k2'`);
    await b.loginThrottle.purge();
    expect((await a.sql.query('select key from login_throttle order by key')).map((r) => r.key)).toEqual(['k1']);
  });

  it('refuses on one app instance a login whose failures happened on the other, from that client only', async () => {
    const [a, b] = apps;
    const header = await a.auth('author');
    const from = (app: TestApp, remoteAddress: string, authorization: string) =>
      app.server.inject({ method: 'GET', url: '/wp-json/', headers: { authorization }, remoteAddress });
    expect((await from(a, '203.0.113.5', basic('author', 'wrong1'))).statusCode).toBe(401);
    expect((await from(b, '203.0.113.5', basic('author@example.test', 'wrong2'))).statusCode).toBe(401);
    expect((await from(a, '203.0.113.5', basic('author', 'wrong3'))).statusCode).toBe(401);
    for (const app of [b, a]) {
      const refused = await from(app, '203.0.113.5', header);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(590);
    }
    expect((await from(b, '198.51.100.8', header)).statusCode).toBe(200);
  });
});
