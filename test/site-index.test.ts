import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, TEST_BASE, type TestApp } from './support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const get = (url: string, headers: Record<string, string> = {}) => app.server.inject({ method: 'GET', url, headers });

describe('site index', () => {
  it('describes the site and every route', async () => {
    const res = await get('/wp-json/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).slice(0, 12)).toEqual([
      'name', 'description', 'url', 'home', 'gmt_offset', 'timezone_string', 'page_for_posts', 'page_on_front', 'show_on_front', 'namespaces', 'authentication', 'routes',
    ]);
    expect(body.url).toBe(TEST_BASE);
    expect(body.authentication).toEqual({ 'application-passwords': { endpoints: { authorization: `${TEST_BASE}/wp-admin/authorize-application.php` } } });
    expect(body.routes['/']).toEqual({
      namespace: '',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: { context: { default: 'view', required: false } } }],
      _links: { self: [{ href: `${TEST_BASE}/wp-json/` }] },
    });
  });

  it('is served under a locale, by rest_route, with any case and without the trailing slash', async () => {
    const fr = (await get('/fr/wp-json/')).json();
    expect(fr.home).toBe(`${TEST_BASE}/fr`);
    expect(fr.authentication['application-passwords'].endpoints.authorization).toBe(`${TEST_BASE}/wp-admin/authorize-application.php`);
    expect((await get('/?rest_route=/')).statusCode).toBe(200);
    expect((await get('/wp-json')).statusCode).toBe(200);
    expect((await get('/xx/wp-json/')).statusCode).toBe(404);
  });

  it('links a namespace index up to the site index whatever _fields keeps, as the legacy site adds the link after filtering', async () => {
    const up = { up: [{ href: `${TEST_BASE}/wp-json/` }] };
    const whole = (await get('/wp-json/redirection/v1')).json();
    expect(whole.namespace).toBe('redirection/v1');
    expect(whole._links).toEqual(up);
    expect((await get('/wp-json/redirection/v1?_fields=namespace')).json()).toEqual({ namespace: 'redirection/v1', _links: up });
    for (const fields of ['nope', 'namespaces', '_links']) expect((await get(`/wp-json/redirection/v1?_fields=${fields}`)).json(), fields).toEqual({ _links: up });
  });

  it('answers an unknown route with rest_no_route', async () => {
    const res = await get('/wp-json/nothing/here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
  });
});

describe('application passwords over HTTP Basic', () => {
  it('authenticates, with or without the spaces, and refuses a wrong password with 401', async () => {
    const header = await app.auth('editor');
    const ok = await get('/wp-json/', { authorization: header });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['cache-control']).toContain('no-store');
    const [login, password] = Buffer.from(header.slice(6), 'base64').toString().split(':');
    const compact = `Basic ${Buffer.from(`${login}:${password.replace(/ /g, '')}`).toString('base64')}`;
    expect((await get('/wp-json/', { authorization: compact })).statusCode).toBe(200);
    const bad = await get('/wp-json/', { authorization: `Basic ${Buffer.from(`${login}:aaaabbbbccccddddeeeeffff`).toString('base64')}` });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().code).toBe('incorrect_password');
    const unknown = await get('/wp-json/', { authorization: `Basic ${Buffer.from('ghost:x').toString('base64')}` });
    expect(unknown.json().code).toBe('invalid_username');
  });
});

describe('request ids', () => {
  it('keeps a well-formed X-Request-Id and replaces anything else', async () => {
    expect((await get('/wp-json/', { 'x-request-id': 'abc-123' })).headers['x-request-id']).toBe('abc-123');
    const replaced = (await get('/wp-json/', { 'x-request-id': 'evil\tline two' })).headers['x-request-id'];
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
  });
});
