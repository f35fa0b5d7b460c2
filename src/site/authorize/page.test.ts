import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, TEST_BASE, type TestApp } from '../../../test/support/app.ts';
import { hashLoginPassword } from '../../auth/login-passwords.ts';

const PAGE = '/wp-admin/authorize-application.php';
const APP_ID = '3f1e4c2a-9b7d-4e5f-8a6b-1c2d3e4f5a6b';
const PASSWORD = 'correct horse battery';
const CHUNKED = /^([a-zA-Z0-9]{4} ){5}[a-zA-Z0-9]{4}$/;

let app: TestApp;
beforeAll(async () => {
  app = await testApp({ env: { LINTEL_LOGIN_ATTEMPTS: '3' } });
  // Basic auth is only honoured once some application password exists on the site.
  await app.auth('administrator');
});
afterAll(() => app.close());

const pageUrl = (params: Record<string, string>) => `${PAGE}?${new URLSearchParams(params)}`;
const field = (html: string, name: string) => html.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1];
const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

async function user(login: string) {
  return app.store.users.create({ login, email: `${login}@example.test`, displayName: login, role: 'author', passwordHash: await hashLoginPassword(PASSWORD) });
}

/** A browser on the page: keeps the CSRF cookie and the hidden fields of the last form. */
async function visit(url: string) {
  const res = await app.server.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  const cookie = String(res.headers['set-cookie']).split(';')[0];
  const csrf = field(res.body, 'csrf')!;
  const post = (fields: Record<string, string>, opts: { cookie?: string } = {}) =>
    app.server.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: opts.cookie ?? cookie },
      payload: new URLSearchParams({ csrf, ...fields }).toString(),
    });
  const login = (log: string, pwd = PASSWORD) => post({ action: 'login', log, pwd });
  return { res, cookie, csrf, post, login };
}

/** Logs in and returns the approval screen's session token. */
async function loggedIn(url: string, login: string) {
  const b = await visit(url);
  const res = await b.login(login);
  expect(res.statusCode).toBe(200);
  const session = field(res.body, 'session');
  expect(session).toBeDefined();
  return { ...b, res, session: session!, decide: (action: string, name?: string) => b.post({ action, session: session!, ...(name === undefined ? {} : { app_name: name }) }) };
}

describe('authorize-application page', () => {
  it('shows a login form naming the app, with an HttpOnly SameSite=Strict CSRF cookie', async () => {
    const { res, cookie, csrf } = await visit(pageUrl({ app_name: 'My <App>', app_id: APP_ID, success_url: 'https://app.example/cb' }));
    expect(res.headers['content-type']).toBe('text/html; charset=UTF-8');
    expect(res.body).toContain('<strong>My &#60;App&#62;</strong> would like to connect');
    expect(res.body).not.toContain('<App>');
    expect(res.body).toMatch(/<input type="password" id="pwd" name="pwd"/);
    expect(res.body).not.toContain('<script');
    expect(cookie).toBe(`lintel_csrf=${csrf}`);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).not.toContain('Secure');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('marks the cookie Secure when the site is served over https', async () => {
    const secure = await testApp({ env: { LINTEL_BASE_URL: 'https://lintel.test' } });
    try {
      const res = await secure.server.inject({ method: 'GET', url: PAGE });
      expect(String(res.headers['set-cookie'])).toMatch(/; Secure$/);
    } finally {
      await secure.close();
    }
  });

  it('refuses a wrong password or an unknown user with the same message, and no session', async () => {
    await user('wrongpw');
    const b = await visit(pageUrl({ app_name: 'App' }));
    for (const res of [await b.login('wrongpw', 'nope'), await b.login('ghost')]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('Unknown user name or incorrect password.');
      expect(field(res.body, 'session')).toBeUndefined();
    }
  });

  it('rate-limits repeated failed logins with a 429 and Retry-After, even for the right password', async () => {
    await user('guessed');
    const b = await visit(pageUrl({ app_name: 'App' }));
    // The login, its e-mail address and another case of it are one user, with one count.
    for (const log of ['guessed', 'guessed@example.test', 'Guessed']) expect((await b.login(log, 'wrong')).statusCode).toBe(200);
    const res = await b.login('guessed');
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body).toContain('Too many failed login attempts');
    expect(field(res.body, 'session')).toBeUndefined();
  });

  it('on approval redirects to success_url with site_url, user_login and a password that works over Basic', async () => {
    const ann = await user('ann');
    const b = await loggedIn(pageUrl({ app_name: 'Phone app', app_id: APP_ID, success_url: 'https://app.example/cb?state=xyz#top' }), 'ann@example.test');
    expect(b.res.body).toContain('<strong>ann</strong>');
    expect(field(b.res.body, 'app_name')).toBe('Phone app');
    const res = await b.decide('approve', 'Phone app');
    expect(res.statusCode).toBe(303);
    const location = String(res.headers.location);
    expect(location).toMatch(/^https:\/\/app\.example\/cb\?state=xyz&site_url=.+&user_login=ann&password=[^&#]+#top$/);
    expect(location).toContain('%20'); // the chunked password, spaces rawurlencoded
    const back = new URL(location);
    expect([...back.searchParams.keys()]).toEqual(['state', 'site_url', 'user_login', 'password']);
    expect(back.searchParams.get('site_url')).toBe(TEST_BASE);
    const password = back.searchParams.get('password')!;
    expect(password).toMatch(CHUNKED);

    const [record] = await app.store.users.appPasswords(ann.id);
    expect(record).toMatchObject({ name: 'Phone app', appId: APP_ID });
    const authed = await app.server.inject({ method: 'GET', url: '/wp-json/', headers: { authorization: basic('ann', password) } });
    expect(authed.statusCode).toBe(200);
    expect(authed.headers['cache-control']).toContain('no-store'); // answered as a logged-in user

    // The approval is single-use.
    const again = await b.decide('approve', 'Phone app 2');
    expect(again.statusCode).toBe(400);
    expect(await app.store.users.appPasswords(ann.id)).toHaveLength(1);
  });

  it('on reject redirects to reject_url, or to success_url with success=false, and creates nothing', async () => {
    const bob = await user('bob');
    const explicit = await loggedIn(pageUrl({ app_name: 'A', success_url: 'https://app.example/ok', reject_url: 'myapp://no' }), 'bob');
    const res = await explicit.decide('reject');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('myapp://no');

    const implied = await loggedIn(pageUrl({ app_name: 'A', success_url: 'https://app.example/ok?state=1' }), 'bob');
    expect((await implied.decide('reject')).headers.location).toBe('https://app.example/ok?state=1&success=false');
    expect(await app.store.users.appPasswords(bob.id)).toHaveLength(0);
  });

  it('without success_url shows the new password once, on the page', async () => {
    const cy = await user('cy');
    const b = await loggedIn(pageUrl({ app_name: 'Script' }), 'cy');
    const res = await b.decide('approve', 'Script');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const password = res.body.match(/<code id="password">([^<]+)<\/code>/)?.[1];
    expect(password).toMatch(CHUNKED);
    const authed = await app.server.inject({ method: 'GET', url: '/wp-json/', headers: { authorization: basic('cy', password!) } });
    expect(authed.statusCode).toBe(200);
    expect(await app.store.users.appPasswords(cy.id)).toHaveLength(1);
  });

  it('asks again for a name that one of the user\'s passwords already has', async () => {
    await user('dee');
    const first = await loggedIn(pageUrl({ app_name: 'Same' }), 'dee');
    expect((await first.decide('approve', 'Same')).statusCode).toBe(200);
    const second = await loggedIn(pageUrl({ app_name: 'Same' }), 'dee');
    const res = await second.decide('approve', 'same');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Each application name should be unique.');
    expect(field(res.body, 'session')).toBe(second.session); // still usable with another name
    expect((await second.decide('approve', 'Other')).statusCode).toBe(200);
  });

  it.each([
    ['javascript:alert(1)', 'may not use the javascript: scheme'],
    ['data:text/html,<b>x</b>', 'may not use the data: scheme'],
    ['java\tscript:alert(1)', 'must be a full URL'],
    ['http://app.example/cb', 'must be served over a secure connection'],
    ['https://user:pass@app.example/cb', 'may not contain a user name or password'],
    ['not a url', 'must be a full URL'],
    ['myapp:no-host', 'must be a full URL'],
  ])('refuses success_url %j with a 400 page', async (url, message) => {
    for (const key of ['success_url', 'reject_url']) {
      const res = await app.server.inject({ method: 'GET', url: pageUrl({ app_name: 'A', [key]: url }) });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('The Authorize Application request is not allowed.');
      expect(res.body).toContain(`The ${key} ${message}`);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it.each(['https://app.example/cb', 'myapp://callback', 'http://127.0.0.1:8000/cb', 'http://[::1]/cb', 'http://localhost/cb'])('accepts success_url %s', async (url) => {
    expect((await app.server.inject({ method: 'GET', url: pageUrl({ success_url: url }) })).statusCode).toBe(200);
  });

  it('refuses an app_id that is not a UUID', async () => {
    const res = await app.server.inject({ method: 'GET', url: pageUrl({ app_id: 'my-app' }) });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('The app_id must be a UUID.');
  });

  it('refuses forms posted without the CSRF cookie, or an approval for other app parameters', async () => {
    await user('eve');
    const b = await visit(pageUrl({ app_name: 'A' }));
    expect((await b.post({ action: 'login', log: 'eve', pwd: PASSWORD }, { cookie: '' })).statusCode).toBe(403);

    const li = await loggedIn(pageUrl({ app_name: 'A', success_url: 'https://app.example/cb' }), 'eve');
    // The same session replayed against another success_url.
    const other = pageUrl({ app_name: 'A', success_url: 'https://evil.example/cb' });
    const res = await app.server.inject({
      method: 'POST',
      url: other,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: li.cookie },
      payload: new URLSearchParams({ csrf: li.csrf, session: li.session, action: 'approve', app_name: 'A' }).toString(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });
});
