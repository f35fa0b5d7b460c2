/** forms-views: admin reads, form-scoped expiring tokens from token/refresh (Referer checks), rate limits, permissions, index. */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/lib/roles.ts';
import { pinnedClock } from '../../src/clock.ts';
import { seedFormsDemo } from '../../src/namespaces/forms/demo.ts';
import { TEST_BASE, testApp, type TestApp } from '../support/app.ts';

const NOW = '2026-11-21T12:00:00Z';
const NS = '/wp-json/forms-views';
let app: TestApp;
let admin: string;
let contact: number;
let feedback: number;

const call = (method: string, url: string, headers: Record<string, string> = {}, body?: unknown) =>
  app.server.inject({
    method: method as 'GET',
    url: NS + url,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    payload: body !== undefined ? JSON.stringify(body) : undefined,
    remoteAddress: headers['x-test-ip'] ?? '127.0.0.1',
  });

const refresh = (body: unknown, referer?: string, ip = '10.0.0.1') =>
  call('POST', '/token/refresh', { ...(referer ? { referer } : {}), 'x-test-ip': ip }, body);

beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: NOW } });
  await seedFormsDemo(app.store, pinnedClock(NOW));
  admin = await app.auth('administrator');
  [contact, feedback] = (await app.store.forms.forms()).map((f) => f.id);
});
afterAll(() => app.close());

describe('administrator reads', () => {
  it('forms: every form keyed by ID; fields without layout fields; submissions newest first, paged', async () => {
    const forms = (await call('GET', '/forms', { authorization: admin })).json();
    expect(forms).toEqual({ [contact]: { formID: contact, formTitle: 'Contact Me' }, [feedback]: { formID: feedback, formTitle: 'Event feedback' } });
    const fields = (await call('GET', `/forms/${feedback}/fields`, { authorization: admin })).json();
    expect(fields.map((f: { label: string; type: string }) => [f.label, f.type])).toEqual([['Which event?', 'textbox'], ['Rating', 'listselect'], ['Comments', 'textarea']]);
    const subs = (await call('GET', `/forms/${contact}/submissions`, { authorization: admin })).json();
    const nameId = (await call('GET', `/forms/${contact}/fields`, { authorization: admin })).json()[0].id;
    const topicsId = (await call('GET', `/forms/${contact}/fields`, { authorization: admin })).json()[2].id;
    expect(subs.map((s: Record<string, string>) => s[nameId])).toEqual(['Alan Kay', 'Grace Hopper', 'Ada Byron']);
    expect(subs[1][topicsId]).toBe('venues, press');
    const page2 = (await call('GET', `/forms/${contact}/submissions?perPage=2&page=2`, { authorization: admin })).json();
    expect(page2.map((s: Record<string, string>) => s[nameId])).toEqual(['Ada Byron']);
  });

  it('validates perPage and page', async () => {
    for (const q of ['perPage=0', 'perPage=101', 'page=0', 'perPage=x']) {
      const res = await call('GET', `/forms/${contact}/submissions?${q}`, { authorization: admin });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code).toBe('rest_invalid_param');
    }
  });
});

describe('token/refresh and token holders', () => {
  it('issues a 900 s token scoped to the form whose table the referring page shows', async () => {
    const res = await refresh({ formID: contact }, `${TEST_BASE}/contact/submissions/`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ expiresIn: 900, formID: contact, publicKey: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    const auth = { 'x-ninjaformsviews-auth': body.token };
    expect((await call('GET', '/forms', auth)).json()).toEqual([{ formID: contact, formTitle: 'Contact Me' }]);
    expect((await call('GET', `/forms/${contact}/fields`, auth)).statusCode).toBe(200);
    expect((await call('GET', `/forms/${contact}/submissions`, auth)).json()).toHaveLength(3);
    // Another form is out of the token's scope.
    expect((await call('GET', `/forms/${feedback}/submissions`, auth)).json()).toMatchObject({ code: 'rest_forbidden', data: { status: 401 } });
    // The legacy formIds list with one ID works too.
    expect((await refresh({ formIds: [feedback] }, `${TEST_BASE}/feedback`)).json().formID).toBe(feedback);
  });

  it('refuses in the legacy order: too many ids, invalid id, unknown form, no Referer, not a table page, another form\'s page', async () => {
    const cases: [unknown, string | undefined, number, string][] = [
      [{ formIds: [contact, feedback] }, `${TEST_BASE}/feedback/`, 400, 'too_many_form_ids'],
      [{}, `${TEST_BASE}/feedback/`, 400, 'invalid_form_id'],
      [{ formID: 0 }, `${TEST_BASE}/feedback/`, 400, 'invalid_form_id'],
      [{ formID: 999 }, `${TEST_BASE}/feedback/`, 404, 'form_not_found'],
      [{ formID: contact }, undefined, 403, 'invalid_request'],
      [{ formID: contact }, `${TEST_BASE}/about/`, 403, 'post_id_not_found'],
      [{ formID: contact }, 'https://elsewhere.example/contact/submissions/', 403, 'post_id_not_found'],
      [{ formID: contact }, `${TEST_BASE}/feedback/`, 403, 'unauthorized_form_access'],
    ];
    for (const [body, referer, status, code] of cases) {
      const res = await refresh(body, referer, '10.0.0.2');
      expect([res.statusCode, res.json().code], code).toEqual([status, code]);
    }
  });

  it('refuses forged, expired and undecodable tokens', async () => {
    const secret = (await app.store.sql.query<{ value: string }>("select value from site_secrets where name = 'forms_views_token'"))[0].value;
    const make = (payload: object, key = secret) => {
      const p = JSON.stringify(payload);
      return Buffer.from(`${createHmac('sha256', key).update('k'.repeat(32) + p).digest('hex')}:${'k'.repeat(32)}:${p}`).toString('base64');
    };
    const exp = Date.parse(NOW) / 1000 + 600;
    expect((await call('GET', `/forms/${contact}/fields`, { 'x-ninjaformsviews-auth': make({ formIds: [contact], exp }) })).statusCode).toBe(200);
    expect((await call('GET', `/forms/${contact}/fields`, { 'x-ninjaformsviews-auth': make({ formIds: [contact], exp }, 'other') })).json().code).toBe('rest_forbidden');
    expect((await call('GET', `/forms/${contact}/fields`, { 'x-ninjaformsviews-auth': make({ formIds: [contact], exp: exp - 3600 }) })).json().code).toBe('rest_forbidden');
    const junk = await call('GET', '/forms', { 'x-ninjaformsviews-auth': 'not-a-token' });
    expect([junk.statusCode, junk.json().code]).toEqual([403, 'invalid_token']);
  });

  it('rate limits: 60 reads per minute per address and route for token holders, none for administrators; 50 refreshes per 5 minutes', async () => {
    const { token } = (await refresh({ formID: contact }, `${TEST_BASE}/contact/submissions/`, '10.0.0.3')).json();
    const headers = { 'x-ninjaformsviews-auth': token, 'x-test-ip': '10.0.0.4' };
    for (let i = 0; i < 60; i++) expect((await call('GET', `/forms/${contact}/fields`, headers)).statusCode).toBe(200);
    const over = await call('GET', `/forms/${contact}/fields`, headers);
    expect([over.statusCode, over.json().code]).toEqual([429, 'rate_limit_exceeded']);
    // Another route has its own count; administrators are not counted.
    expect((await call('GET', '/forms', headers)).statusCode).toBe(200);
    for (let i = 0; i < 61; i++) expect((await call('GET', `/forms/${contact}/fields`, { authorization: admin, 'x-test-ip': '10.0.0.4' })).statusCode).toBe(200);
    for (let i = 0; i < 50; i++) await refresh({ formID: 999 }, undefined, '10.0.0.5');
    expect((await refresh({ formID: contact }, `${TEST_BASE}/contact/submissions/`, '10.0.0.5')).statusCode).toBe(429);
  });
});

describe('permissions, index, OPTIONS', () => {
  it.each([[null, 401], ['subscriber', 403], ['editor', 403], ['administrator', 200]] as const)('without a token, %s gets %i on the reads', async (role, status) => {
    const auth: Record<string, string> = role ? { authorization: await app.auth(role as Role), 'x-test-ip': `10.1.0.${status}` } : { 'x-test-ip': '10.1.0.1' };
    for (const url of ['/forms', `/forms/${contact}/fields`, `/forms/${contact}/submissions`]) {
      const res = await call('GET', url, auth);
      expect(res.statusCode, url).toBe(status);
    }
  });

  it('lists its routes with their arguments in the index and OPTIONS', async () => {
    const ns = (await call('GET', '')).json();
    expect(Object.keys(ns.routes)).toEqual(['/forms-views', '/forms-views/forms', '/forms-views/forms/(?P<id>\\d+)/fields', '/forms-views/forms/(?P<id>\\d+)/submissions', '/forms-views/token/refresh']);
    expect(ns.routes['/forms-views/forms/(?P<id>\\d+)/submissions'].endpoints[0].args).toMatchObject({
      id: { type: 'integer', required: true }, perPage: { type: 'integer', minimum: 1, maximum: 100, required: false }, page: { type: 'integer', default: 1, minimum: 1 },
    });
    const opts = await call('OPTIONS', '/token/refresh');
    expect(opts.headers.allow).toBe('POST');
  });
});
