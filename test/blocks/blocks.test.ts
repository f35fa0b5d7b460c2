/** blocks/v3: roles, the per-site HMAC signature of custom code, the shop's products; permissions, errors, index and OPTIONS. */
import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/lib/roles.ts';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let other: TestApp;
const NS = '/wp-json/blocks/v3';
const productsFile = path.join(mkdtempSync(path.join(tmpdir(), 'lintel-shop-')), 'products.json');

const call = (a: TestApp, method: string, url: string, opts: { body?: unknown; auth?: string } = {}) =>
  a.server.inject({
    method: method as 'GET',
    url: NS + url,
    headers: { ...(opts.auth ? { authorization: opts.auth } : {}), ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    payload: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
  });

beforeAll(async () => {
  writeFileSync(productsFile, JSON.stringify([
    { id: 11, name: 'Old mug', date: '2025-01-01T00:00:00Z' },
    { id: 12, name: 'New shirt', date: '2026-06-01T00:00:00Z' },
    ...Array.from({ length: 10 }, (_, i) => ({ id: 100 + i, name: `Sticker ${i}`, date: '2020-01-01T00:00:00Z' })),
  ]));
  app = await testApp({ env: { LINTEL_SHOP_PRODUCTS: productsFile } });
  other = await testApp();
});
afterAll(async () => {
  await app.close();
  await other.close();
});

describe('blocks/v3', () => {
  it('get_roles lists every role with its display name', async () => {
    const res = await call(app, 'GET', '/get_roles', { auth: await app.auth('editor') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ administrator: 'Administrator', editor: 'Editor', author: 'Author', contributor: 'Contributor', subscriber: 'Subscriber' });
  });

  it('generate_hash is the HMAC-SHA-256 of the snippet under the site secret: a bare 64-hex string, the same every time', async () => {
    const auth = await app.auth('editor');
    const first = await call(app, 'POST', '/generate_hash', { auth, body: { custom_php: 'return is_user_logged_in();' } });
    expect(first.statusCode).toBe(200);
    const hex = first.json();
    expect(hex).toMatch(/^[0-9a-f]{64}$/);
    const secret = (await app.store.sql.query<{ value: string }>("select value from site_secrets where name = 'blocks_custom_php'"))[0].value;
    expect(hex).toBe(createHmac('sha256', secret).update('return is_user_logged_in();').digest('hex'));
    expect((await call(app, 'POST', '/generate_hash', { auth, body: { custom_php: 'return is_user_logged_in();' } })).json()).toBe(hex);
    // A missing snippet signs the empty string; another snippet gives another hex.
    expect((await call(app, 'POST', '/generate_hash', { auth })).json()).toBe(createHmac('sha256', secret).update('').digest('hex'));
    expect((await call(app, 'POST', '/generate_hash', { auth, body: { custom_php: 'return false;' } })).json()).not.toBe(hex);
    // Another site has its own secret.
    const elsewhere = await call(other, 'POST', '/generate_hash', { auth: await other.auth('editor'), body: { custom_php: 'return is_user_logged_in();' } });
    expect(elsewhere.json()).not.toBe(hex);
  });

  it('generate_hash refuses a snippet that is not a string', async () => {
    const res = await call(app, 'POST', '/generate_hash', { auth: await app.auth('editor'), body: { custom_php: ['x'] } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'rest_invalid_param', data: { params: { custom_php: expect.any(String) } } });
  });

  it('get_shop_products lists the configured products newest first, at most 10, as "name - id"', async () => {
    const res = await call(app, 'GET', '/get_shop_products', { auth: await app.auth('editor') });
    const list = res.json();
    expect(list).toHaveLength(10);
    expect(list.slice(0, 3)).toEqual([{ label: 'New shirt - 12', value: 12 }, { label: 'Old mug - 11', value: 11 }, { label: 'Sticker 9 - 109', value: 109 }]);
    expect((await call(other, 'GET', '/get_shop_products', { auth: await other.auth('editor') })).json()).toEqual([]);
  });

  it.each([
    [null, 401],
    ['subscriber', 403],
    ['contributor', 200],
    ['editor', 200],
    ['administrator', 200],
  ] as const)('permission matrix: %s gets %i on every route', async (role, status) => {
    const auth = role ? await app.auth(role as Role) : undefined;
    for (const [method, url] of [['GET', '/get_roles'], ['POST', '/generate_hash'], ['GET', '/get_shop_products']]) {
      const res = await call(app, method, url, { auth });
      expect(res.statusCode, `${method} ${url}`).toBe(status);
      if (status !== 200) expect(res.json().code).toBe('rest_forbidden');
    }
  });

  it('is in the site index, its namespace index and OPTIONS', async () => {
    const index = (await app.server.inject({ url: '/wp-json/' })).json();
    expect(index.namespaces).toContain('blocks/v3');
    expect(index.routes['/blocks/v3/generate_hash'].endpoints[0]).toMatchObject({ methods: ['POST'], args: { custom_php: { type: 'string', required: false } } });
    expect(Object.keys((await call(app, 'GET', '')).json().routes)).toEqual(['/blocks/v3', '/blocks/v3/get_roles', '/blocks/v3/generate_hash', '/blocks/v3/get_shop_products']);
    const opts = await call(app, 'OPTIONS', '/get_roles', { auth: await app.auth('editor') });
    expect(opts.json()).toMatchObject({ namespace: 'blocks/v3', methods: ['GET'] });
    expect(opts.headers.allow).toBe('GET');
  });
});
