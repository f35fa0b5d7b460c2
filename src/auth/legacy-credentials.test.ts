import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/support/app.ts';
import { testStore } from '../../test/support/store.ts';
import { systemClock } from '../clock.ts';
import { authenticate } from './basic.ts';
import { legacyCredentials } from './legacy-credentials.ts';
import { LoginThrottle } from './rate-limit.ts';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

/**
 * A legacy site's `wp/v2/users/me` as WordPress answers it: the user behind an accepted application
 * password (by login or e-mail), else 401 `incorrect_password`. `passwords` can change (a revocation
 * on the legacy side); `down` makes it answer 503.
 */
async function fakeOrigin() {
  const users = [{ id: 7, username: 'ed', email: 'ed@legacy.test', name: 'Ed', roles: ['editor'] }];
  const passwords = new Map([['ed', 'abcd EFGH ijkl MNOP qrst UVWX']]);
  const state = { passwords, down: false, asked: [] as string[] };
  const server = createServer((req, res) => {
    state.asked.push(`${req.url} ${req.headers.authorization ?? ''}`);
    if (state.down) return res.writeHead(503).end();
    const [login, password] = Buffer.from(String(req.headers.authorization).replace(/^Basic /, ''), 'base64').toString().split(/:(.*)/s);
    const user = users.find((u) => u.username === login || u.email === login);
    const ok = req.url === '/wp-json/wp/v2/users/me?context=edit' && user && passwords.get(user.username) === password;
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
    res.end(JSON.stringify(ok ? user : { code: 'incorrect_password', message: 'wrong', data: { status: 401 } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, state, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const LEGACY_PASSWORD = 'abcd EFGH ijkl MNOP qrst UVWX';

describe('legacy application passwords over HTTP (lazy migration)', () => {
  let origin: Awaited<ReturnType<typeof fakeOrigin>>;
  let app: TestApp;
  beforeAll(async () => {
    origin = await fakeOrigin();
    app = await testApp({ env: { LINTEL_LEGACY_ORIGIN: origin.url, LINTEL_LOGIN_ATTEMPTS: '2', LINTEL_AUTH_CACHE_S: '0' } });
  });
  afterAll(async () => {
    await app.close();
    await origin.close();
  });
  afterEach(() => {
    origin.state.asked.length = 0;
    origin.state.down = false;
  });
  const draftEvents = (authorization: string, ip = '10.0.0.1') =>
    app.server.inject({ url: '/wp-json/calendar/events/v1/events?status=draft', headers: { authorization }, remoteAddress: ip });

  it('asks the origin once, then serves the credential locally as the matching user with its role', async () => {
    const first = await draftEvents(basic('ed', LEGACY_PASSWORD));
    expect(first.statusCode).toBe(200);
    expect(origin.state.asked).toEqual([`/wp-json/wp/v2/users/me?context=edit ${basic('ed', LEGACY_PASSWORD)}`]);
    // Not imported: created with the legacy ID and role.
    expect(await app.store.users.byLogin('ed')).toMatchObject({ id: 7, email: 'ed@legacy.test', role: 'editor' });
    const [adopted] = await app.store.users.appPasswords(7);
    expect(adopted.hash).not.toContain('abcd');
    expect(adopted.legacyCheckedAt).toBeInstanceOf(Date);

    expect((await draftEvents(basic('ed@legacy.test', LEGACY_PASSWORD))).statusCode).toBe(200);
    expect(origin.state.asked).toHaveLength(1);
  });

  it('refuses a credential revoked on Lintel without asking the origin again', async () => {
    const other = 'zzzz EFGH ijkl MNOP qrst UVWX';
    origin.state.passwords.set('ed', other);
    expect((await draftEvents(basic('ed', other))).statusCode).toBe(200);
    const adopted = (await app.store.users.appPasswords(7))[0];
    const latest = (await app.store.users.appPasswords(7)).at(-1)!;
    expect(await app.store.users.revokeAppPassword(7, latest.uuid)).toBe(true);
    origin.state.asked.length = 0;
    const refused = await draftEvents(basic('ed', other), '10.0.0.9');
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('incorrect_password');
    expect(origin.state.asked).toEqual([]);
    expect(await app.store.users.appPasswords(7)).toEqual([expect.objectContaining({ uuid: adopted.uuid })]);
    origin.state.passwords.set('ed', LEGACY_PASSWORD);
  });

  it('counts a failure only when both sides refuse it, and logs only those', async () => {
    const before = await app.store.history.totalEvents();
    origin.state.down = true;
    for (let i = 0; i < 3; i++) expect((await draftEvents(basic('ann', 'nope nope'), '10.0.0.2')).json().code).toBe('rest_upstream_unavailable');
    expect(await app.store.history.totalEvents()).toBe(before);
    origin.state.down = false;
    expect((await draftEvents(basic('ann', 'nope nope'), '10.0.0.2')).json().code).toBe('invalid_username');
    expect((await draftEvents(basic('ann', 'nope nope'), '10.0.0.2')).json().code).toBe('invalid_username');
    expect((await draftEvents(basic('ann', 'nope nope'), '10.0.0.2')).statusCode).toBe(429);
    expect(await app.store.history.totalEvents()).toBe(before + 2);
  });
});

describe('revocation on the legacy side', () => {
  it('is honoured once the adopted credential is older than LINTEL_LEGACY_REVERIFY_S; an unanswering origin keeps it', async () => {
    const origin = await fakeOrigin();
    const app = await testApp({ env: { LINTEL_LEGACY_ORIGIN: origin.url, LINTEL_LEGACY_REVERIFY_S: '0', LINTEL_AUTH_CACHE_S: '0' } });
    try {
      const header = basic('ed', LEGACY_PASSWORD);
      const read = () => app.server.inject({ url: '/wp-json/calendar/events/v1/events?status=draft', headers: { authorization: header } });
      expect((await read()).statusCode).toBe(200);
      origin.state.down = true;
      expect((await read()).statusCode).toBe(200);
      origin.state.down = false;
      origin.state.passwords.delete('ed');
      expect((await read()).statusCode).toBe(401);
      expect(await app.store.users.appPasswords(7)).toEqual([]);
      expect(origin.state.asked).toHaveLength(3);
    } finally {
      await app.close();
      await origin.close();
    }
  });
});

describe('shadow comparisons', () => {
  it('check credentials without counting a login or writing to the audit log', async () => {
    const store = await testStore();
    const origin = await fakeOrigin();
    try {
      const throttle = new LoginThrottle({ attempts: 1, clientAttempts: 1, windowS: 600 });
      const deps = { store, clock: systemClock, throttle, legacy: legacyCredentials(origin.url, { timeoutMs: 2000, reverifyMs: 3_600_000 }) };
      for (let i = 0; i < 3; i++) await expect(authenticate(deps, basic('ed', 'wrong'), '10.0.0.3', { quiet: true })).rejects.toMatchObject({ code: 'invalid_username' });
      expect(await store.history.totalEvents()).toBe(0);
      expect(await authenticate(deps, basic('ed', LEGACY_PASSWORD), '10.0.0.3')).toMatchObject({ login: 'ed', role: 'editor' });
    } finally {
      await store.close();
      await origin.close();
    }
  });
});
