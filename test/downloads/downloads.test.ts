/** downloads: password locks (several passwords, usage limits), captcha through a configured verifier, search; expiring links served and counted. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/lib/roles.ts';
import { pinnedClock } from '../../src/clock.ts';
import { matchPassword } from '../../src/namespaces/downloads/routes.ts';
import { DEMO_PACKAGES, seedDownloadsDemo } from '../../src/namespaces/downloads/demo.ts';
import { TEST_BASE, testApp, type TestApp } from '../support/app.ts';

const NOW = '2026-11-21T12:00:00Z';
const NS = '/wp-json/downloads';
let app: TestApp;
let verifier: Server;
const verifications: URLSearchParams[] = [];
let ids: Record<string, number>;

const form = (url: string, fields: Record<string, string>, a: TestApp = app) =>
  a.server.inject({ method: 'POST', url: NS + url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });

async function readBody(req: IncomingMessage): Promise<string> {
  let s = '';
  for await (const c of req) s += c;
  return s;
}

beforeAll(async () => {
  // A siteverify-compatible captcha verifier on loopback: the token "human" passes.
  verifier = createServer(async (req, res) => {
    const params = new URLSearchParams(await readBody(req));
    verifications.push(params);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ success: params.get('response') === 'human' && params.get('secret') === 's3cret' }));
  });
  await new Promise<void>((r) => verifier.listen(0, '127.0.0.1', r));
  const port = (verifier.address() as AddressInfo).port;
  app = await testApp({ env: { LINTEL_CLOCK: NOW, LINTEL_CAPTCHA_VERIFY_URL: `http://127.0.0.1:${port}/siteverify`, LINTEL_CAPTCHA_SECRET: 's3cret', LINTEL_UPSTREAM_ALLOW: '127.0.0.1' } });
  await seedDownloadsDemo(app.store, pinnedClock(NOW));
  ids = Object.fromEntries((await app.store.sql.query<{ id: number; slug: string }>('select id, slug from download_packages')).map((r) => [r.slug, r.id]));
});
afterAll(async () => {
  await app.close();
  await new Promise((r) => verifier.close(r));
});

const fetchLink = (link: string) => {
  const u = new URL(link);
  return app.server.inject({ url: u.pathname + u.search });
};

describe('validate-password', () => {
  it('either password unlocks, counts its own use, and answers an expiring link that serves the file 3 times', async () => {
    const res = await form('/validate-password', { __wpdm_ID: String(ids['press-kit']), password: 'media-pass' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.downloadurl).toMatch(new RegExp(`^${TEST_BASE}/download/press-kit/\\?wpdmdl=${ids['press-kit']}&_wpdmkey=[A-Za-z0-9]{32}$`));
    for (let i = 0; i < 3; i++) {
      const file = await fetchLink(body.downloadurl);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-disposition']).toContain('filename="press-kit.txt"');
      expect(file.body).toBe(DEMO_PACKAGES[1].fileData.toString());
    }
    expect((await fetchLink(body.downloadurl)).statusCode).toBe(403);
    expect((await form('/validate-password', { __wpdm_ID: String(ids['press-kit']), password: 'press-2026' })).json().success).toBe(true);
    const usage = (await app.store.downloads.get(ids['press-kit']))!.passwordUsage;
    expect(usage).toEqual({ 'media-pass': 1, 'press-2026': 1 });
  });

  it('a password stops at its usage limit while the other keeps working', async () => {
    const id = ids['press-kit'];
    for (let i = 0; i < 4; i++) expect((await form('/validate-password', { __wpdm_ID: String(id), password: 'media-pass' })).json().success).toBe(true);
    expect((await form('/validate-password', { __wpdm_ID: String(id), password: 'media-pass' })).json()).toEqual({ success: false, message: 'Password usages limit exceeded' });
    expect((await form('/validate-password', { __wpdm_ID: String(id), password: 'press-2026' })).json().success).toBe(true);
  });

  it('answers the legacy failures in the body with status 200', async () => {
    const r = (f: Record<string, string>) => form('/validate-password', f);
    expect((await r({ __wpdm_ID: String(ids['press-kit']) })).json()).toEqual({ msg: 'Invalid request!', success: false });
    expect((await r({ password: 'x' })).json()).toEqual({ msg: 'Invalid request!', success: false });
    expect((await r({ __wpdm_ID: String(ids['season-programme']), password: 'x' })).json()).toEqual({ success: false, message: 'Invalid request!' });
    expect((await r({ __wpdm_ID: '999999', password: 'x' })).json()).toEqual({ success: false, message: 'Invalid request!' });
    const wrong = await r({ __wpdm_ID: String(ids['press-kit']), password: 'Media-pass' });
    expect(wrong.statusCode).toBe(200);
    expect(wrong.json()).toMatchObject({ success: false, message: expect.stringContaining('Wrong Password!') });
    // Strict comparison: no type juggling ("0" is not a match for anything).
    expect((await app.server.inject({ method: 'POST', url: `${NS}/validate-password`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ __wpdm_ID: ids['press-kit'], password: true }) })).json()).toEqual({ msg: 'Invalid request!', success: false });
  });

  it('throttles wrong passwords per client and package, then per package over all clients (429 with Retry-After)', async () => {
    // An app of its own: the package ends up closed to everyone for the window.
    const own = await testApp({ env: { LINTEL_CLOCK: NOW, LINTEL_DOWNLOAD_PACKAGE_ATTEMPTS: '20' } });
    try {
      await seedDownloadsDemo(own.store, pinnedClock(NOW));
      const [{ id }] = await own.store.sql.query<{ id: number }>(`select id from download_packages where slug = 'concert-recordings'`);
      const guess = (remoteAddress: string, password: string) =>
        own.server.inject({ method: 'POST', url: `${NS}/validate-password`, remoteAddress, payload: { __wpdm_ID: id, password } });
      for (let i = 0; i < 5; i++) expect((await guess('10.0.0.1', `guess-${i}`)).json().message).toContain('Wrong Password!');
      const refused = await guess('10.0.0.1', 'encore');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toMatchObject({ success: false });
      // Another client still gets in with the right password.
      expect((await guess('10.0.0.2', 'encore')).json().success).toBe(true);
      // 20 wrong passwords spread over many addresses close the package to everyone for the window.
      for (let i = 0; i < 15; i++) expect((await guess(`10.1.0.${i}`, `spread-${i}`)).statusCode).toBe(200);
      expect((await guess('10.0.0.3', 'encore')).statusCode).toBe(429);
    } finally {
      await own.close();
    }
  });

  it('matchPassword finds exact matches only', () => {
    expect(matchPassword(['a', 'bb'], 'bb')).toBe('bb');
    expect(matchPassword(['a', 'bb'], 'b')).toBeNull();
    expect(matchPassword([], '')).toBeNull();
  });
});

describe('validate-captcha', () => {
  it('a verified captcha answers a download link; the verifier gets the secret, the token and the client address', async () => {
    const res = await form('/validate-captcha', { __wpdm_ID: String(ids['season-programme']), reCaptchaVerify: 'human', force: '1' });
    const { downloadurl } = res.json();
    expect(downloadurl).toContain('/download/season-programme/?wpdmdl=');
    expect(verifications.at(-1)!.get('secret')).toBe('s3cret');
    expect(verifications.at(-1)!.get('remoteip')).toBeTruthy();
    expect((await fetchLink(downloadurl)).body).toContain('Season programme');
  });

  it('fails for a refused token, a missing token, an unknown package, or a password-locked one (a captcha is no password)', async () => {
    for (const f of [
      { __wpdm_ID: String(ids['season-programme']), reCaptchaVerify: 'robot' } as Record<string, string>,
      { __wpdm_ID: String(ids['season-programme']) },
      { __wpdm_ID: '999999', reCaptchaVerify: 'human' },
      { __wpdm_ID: String(ids['press-kit']), reCaptchaVerify: 'human' },
    ]) {
      const res = await form('/validate-captcha', f);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ error: 'Captcha Verification Failed!' });
    }
  });

  it('refuses every captcha when no verifier is configured', async () => {
    const bare = await testApp({ store: app.store });
    expect((await form('/validate-captcha', { __wpdm_ID: String(ids['season-programme']), reCaptchaVerify: 'human' }, bare)).json()).toEqual({ error: 'Captcha Verification Failed!' });
    await bare.server.close();
  });
});

describe('download links', () => {
  it('refuse a wrong key, another package\'s key, and an expired key', async () => {
    const { downloadurl } = (await form('/validate-password', { __wpdm_ID: String(ids['concert-recordings']), password: 'encore' })).json();
    const u = new URL(downloadurl);
    expect((await app.server.inject({ url: `/download/press-kit/?wpdmdl=${ids['press-kit']}&_wpdmkey=${u.searchParams.get('_wpdmkey')}` })).statusCode).toBe(403);
    expect((await app.server.inject({ url: `${u.pathname}?wpdmdl=${ids['concert-recordings']}&_wpdmkey=${'x'.repeat(32)}` })).statusCode).toBe(403);
    // The app's clock is pinned to NOW: the key expired a second before it.
    await app.store.sql.query('update download_keys set expires_at = $2 where key = $1', [u.searchParams.get('_wpdmkey'), new Date(Date.parse(NOW) - 1000)]);
    const expired = await fetchLink(downloadurl);
    expect(expired.statusCode).toBe(403);
    expect(expired.body).toContain('expired or was used up');
  });
});

describe('search', () => {
  it('finds packages by keyword with the legacy body, premium only on request; no keyword answers null', async () => {
    const res = await app.server.inject({ url: `${NS}/search?search=season` });
    expect(res.json()).toEqual({
      total: 3,
      packages: [...DEMO_PACKAGES].reverse().map((p) => ({ ID: ids[p.slug], post_title: p.title, post_content: p.content })),
      q: { post_type: 'download_package', s: 'season', posts_per_page: 10 },
    });
    expect((await app.server.inject({ url: `${NS}/search?search=journalists` })).json().packages).toEqual([{ ID: ids['press-kit'], post_title: 'Press kit', post_content: DEMO_PACKAGES[1].content }]);
    const premium = (await app.server.inject({ url: `${NS}/search?search=season&premium=1` })).json();
    expect(premium.packages.map((p: { ID: number }) => p.ID)).toEqual([ids['concert-recordings']]);
    expect(premium.q.meta_query).toBeDefined();
    const none = await app.server.inject({ url: `${NS}/search` });
    expect([none.statusCode, none.body]).toEqual([200, 'null']);
    expect((await app.server.inject({ url: `${NS}/search?search=100%25` })).json().total).toBe(0);
  });
});

describe('permissions, index, OPTIONS', () => {
  it.each([null, 'subscriber', 'editor', 'administrator'] as const)('%s may use every route (they are public)', async (role) => {
    const headers: Record<string, string> = role ? { authorization: await app.auth(role as Role) } : {};
    expect((await app.server.inject({ url: `${NS}/search?search=kit`, headers })).json().total).toBe(1);
    expect((await app.server.inject({ method: 'POST', url: `${NS}/validate-password`, headers })).json()).toEqual({ msg: 'Invalid request!', success: false });
    expect((await app.server.inject({ method: 'POST', url: `${NS}/validate-captcha`, headers })).json()).toEqual({ error: 'Captcha Verification Failed!' });
  });

  it('lists its three routes with no arguments', async () => {
    const ns = (await app.server.inject({ url: NS })).json();
    expect(Object.keys(ns.routes)).toEqual(['/downloads', '/downloads/validate-captcha', '/downloads/validate-password', '/downloads/search']);
    expect(ns.routes['/downloads/search'].endpoints[0].args).toEqual([]);
    expect((await app.server.inject({ method: 'OPTIONS', url: `${NS}/validate-password` })).headers.allow).toBe('POST');
  });
});
