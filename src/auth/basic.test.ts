import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStore } from '../../test/support/store.ts';
import { testApp, type TestApp } from '../../test/support/app.ts';
import { systemClock } from '../clock.ts';
import { createAppPassword } from './app-passwords.ts';
import { authenticate, parseBasic } from './basic.ts';
import { LoginThrottle } from './rate-limit.ts';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

describe('parseBasic', () => {
  it('splits at the first colon, so passwords may contain colons', () => {
    expect(parseBasic(basic('ann', 'a:b c'))).toEqual({ login: 'ann', password: 'a:b c' });
    expect(parseBasic(`basic ${Buffer.from('x:y').toString('base64')}`)).toEqual({ login: 'x', password: 'y' });
    expect(parseBasic('Bearer abc')).toBeNull();
    expect(parseBasic(`Basic ${Buffer.from('no-colon').toString('base64')}`)).toBeNull();
    expect(parseBasic(undefined)).toBeNull();
  });
});

describe('authenticate', () => {
  it('ignores Basic credentials while no application password exists on the site', async () => {
    const store = await testStore();
    try {
      const deps = { store, clock: systemClock, throttle: new LoginThrottle({ attempts: 5, clientAttempts: 100, windowS: 60 }) };
      await store.users.create({ login: 'ann', email: 'ann@example.test', displayName: 'Ann', role: 'editor', passwordHash: null });
      expect(await authenticate(deps, basic('ann', 'anything'), '10.0.0.1')).toBeNull();
      expect(await authenticate(deps, basic('ghost', 'anything'), '10.0.0.1')).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('accepts the email address as the login, returns the user without a password hash and records the use', async () => {
    const store = await testStore();
    try {
      const deps = { store, clock: systemClock, throttle: new LoginThrottle({ attempts: 5, clientAttempts: 100, windowS: 60 }) };
      const ann = await store.users.create({ login: 'ann', email: 'Ann@Example.test', displayName: 'Ann', role: 'editor', passwordHash: '$scrypt$x$y' });
      const { password } = await createAppPassword(store, ann.id, 'cli');
      const user = await authenticate(deps, basic('ann@example.test', password), '10.0.0.1');
      expect(user).toEqual({ id: ann.id, login: 'ann', email: 'Ann@Example.test', displayName: 'Ann', role: 'editor' });
      const [record] = await store.users.appPasswords(ann.id);
      expect(record.lastIp).toBe('10.0.0.1');
      expect(record.lastUsed).toBeInstanceOf(Date);
      await expect(authenticate(deps, basic('nobody@example.test', password), '10.0.0.1')).rejects.toMatchObject({ code: 'invalid_email', status: 401 });
    } finally {
      await store.close();
    }
  });
});

describe('Basic authentication over HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await testApp({ env: { LINTEL_LOGIN_ATTEMPTS: '3', LINTEL_LOGIN_WINDOW_S: '600' } });
  });
  afterAll(() => app.close());

  it('answers 429 with the wait after N failures for a login, even for the right password, and only for that login', async () => {
    const header = await app.auth('author');
    const get = (authorization: string) => app.server.inject({ method: 'GET', url: '/wp-json/', headers: { authorization } });
    for (let i = 0; i < 3; i++) expect((await get(basic('author', `wrong${i}`))).statusCode).toBe(401);
    const blocked = await get(header);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      code: 'too_many_login_attempts',
      message: expect.stringMatching(/^Too many failed login attempts\. Try again in \d+ seconds\.$/),
      data: { status: 429 },
    });
    expect(blocked.json().message).toMatch(/in (59\d|600) seconds/);
    expect(blocked.headers['retry-after']).toBe(blocked.json().message.match(/in (\d+) seconds/)[1]);
    // Another user from the same address is not affected.
    expect((await get(await app.auth('editor'))).statusCode).toBe(200);
  });

  it('refuses only the client that failed: the right password from another address still works', async () => {
    const header = await app.auth('contributor');
    const from = (remoteAddress: string, authorization: string) => app.server.inject({ method: 'GET', url: '/wp-json/', headers: { authorization }, remoteAddress });
    for (let i = 0; i < 3; i++) expect((await from('203.0.113.9', basic('contributor', `wrong${i}`))).statusCode).toBe(401);
    const locked = await from('203.0.113.9', header);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    const elsewhere = await from('198.51.100.4', header);
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.headers['cache-control']).toContain('no-store'); // answered as the logged-in user
  });

  it('counts the login, its e-mail address and any case of them as one user', async () => {
    const header = await app.auth('subscriber'); // login subscriber, e-mail subscriber@example.test
    const get = (authorization: string) => app.server.inject({ method: 'GET', url: '/wp-json/', headers: { authorization }, remoteAddress: '192.0.2.77' });
    expect((await get(basic('subscriber', 'wrong'))).json().code).toBe('incorrect_password');
    expect((await get(basic('Subscriber@Example.test', 'wrong'))).json().code).toBe('incorrect_password');
    expect((await get(basic('SUBSCRIBER', 'wrong'))).statusCode).toBe(401);
    const blocked = await get(header);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('too_many_login_attempts');
  });

  it('answers unknown logins with invalid_username before routing', async () => {
    await app.auth('administrator');
    const res = await app.server.inject({ method: 'GET', url: '/wp-json/no/such/route', headers: { authorization: basic('ghost', 'x') } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('invalid_username');
  });
});
