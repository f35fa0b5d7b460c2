import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, TEST_BASE, type TestApp } from '../support/app.ts';
import { withEcho } from './echo-namespace.ts';

let app: TestApp;
beforeAll(async () => {
  app = await testApp({ mappings: withEcho, env: { LINTEL_BODY_LIMIT: '2048' } });
});
afterAll(() => app.close());

const req = (method: string, url: string, opts: { headers?: Record<string, string>; payload?: string | object } = {}) =>
  app.server.inject({ method: method as 'GET', url, headers: opts.headers, payload: opts.payload });
const get = (url: string) => req('GET', url);

describe('coercion', () => {
  it('turns numeric strings into integers, true/false/1/0 into booleans, CSV and repeated keys into arrays', async () => {
    const r = await get('/wp-json/echo/v1/items?per_page=5&flag=0&ids=1,2%203&since=2024-01-15%2014:30:00&kind=b');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ per_page: 5, flag: false, ids: [1, 2, 3], since: '2024-01-15 14:30:00', kind: 'b' });
    expect((await get('/wp-json/echo/v1/items?ids[]=4&ids[]=5')).json().ids).toEqual([4, 5]);
    expect((await get('/wp-json/echo/v1/items?ids=4&ids=5')).json().ids).toEqual([4, 5]);
    expect((await get('/wp-json/echo/v1/items?flag=TRUE')).json().flag).toBe(true);
  });

  it('applies defaults and takes the last value of a repeated scalar', async () => {
    expect((await get('/wp-json/echo/v1/items')).json()).toEqual({ per_page: 10 });
    expect((await get('/wp-json/echo/v1/items?per_page=3&per_page=4')).json().per_page).toBe(4);
  });
});

describe('validation errors', () => {
  it('reports a wrong type with rest_invalid_type inside rest_invalid_param', async () => {
    const r = await get('/wp-json/echo/v1/items?flag=yes');
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): flag',
      data: {
        status: 400,
        params: { flag: 'flag is not of type boolean.' },
        details: { flag: { code: 'rest_invalid_type', message: 'flag is not of type boolean.', data: { param: 'flag' } } },
      },
    });
  });

  it('reports bounds, enums, array items and dates with the legacy messages', async () => {
    const bounds = (await get('/wp-json/echo/v1/items?per_page=500')).json();
    expect(bounds.data.params.per_page).toBe('per_page must be between 1 (inclusive) and 100 (inclusive)');
    expect(bounds.data.details.per_page.code).toBe('rest_out_of_bounds');
    expect((await get('/wp-json/echo/v1/items?kind=z')).json().data.params.kind).toBe('kind is not one of a, b, and c.');
    expect((await get('/wp-json/echo/v1/items?ids=1,x')).json().data.params.ids).toBe('ids[1] is not of type integer.');
    const date = (await get('/wp-json/echo/v1/items?since=2024-01-15')).json();
    expect(date.data.details.since).toEqual({ code: 'rest_invalid_date', message: 'Invalid date.', data: null });
  });

  it('lists every invalid parameter at once', async () => {
    const r = (await get('/wp-json/echo/v1/items?flag=yes&kind=z')).json();
    expect(r.message).toBe('Invalid parameter(s): flag, kind');
    expect(Object.keys(r.data.params)).toEqual(['flag', 'kind']);
  });

  it('reports missing parameters before invalid ones, and both before permission', async () => {
    const anon = await req('POST', '/wp-json/echo/v1/items', { payload: { count: 'x' } });
    expect(anon.statusCode).toBe(400);
    expect(anon.json()).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): title', data: { status: 400, params: ['title'] } });
    const invalid = await req('POST', '/wp-json/echo/v1/items', { payload: { title: 'T', count: 'x' } });
    expect(invalid.json().code).toBe('rest_invalid_param');
    const valid = await req('POST', '/wp-json/echo/v1/items', { payload: { title: 'T' } });
    expect(valid.statusCode).toBe(401);
    expect(valid.json()).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
    const subscriber = await req('POST', '/wp-json/echo/v1/items', { payload: { title: 'T' }, headers: { authorization: await app.auth('subscriber') } });
    expect(subscriber.statusCode).toBe(403);
  });

  it('reports a bad JSON body after routing, and an unknown route first', async () => {
    const bad = await req('POST', '/wp-json/echo/v1/items', { payload: '{"title":', headers: { 'content-type': 'application/json' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: 'rest_invalid_json', message: 'Invalid JSON body passed.', data: { status: 400, json_error_code: 4, json_error_message: 'Syntax error' } });
    // PHP's json_decode refuses an unpaired surrogate escape, which JSON.parse takes.
    const surrogate = await req('POST', '/wp-json/echo/v1/items', { payload: '{"title":"\\ud800"}', headers: { 'content-type': 'application/json' } });
    expect(surrogate.json().data).toEqual({ status: 400, json_error_code: 10, json_error_message: 'Single unpaired UTF-16 surrogate in unicode escape' });
    const noRoute = await req('POST', '/wp-json/echo/v1/nothing', { payload: '{', headers: { 'content-type': 'application/json' } });
    expect(noRoute.json().code).toBe('rest_no_route');
  });

  it('answers a body over the limit with 413, never a stack trace', async () => {
    const r = await req('POST', '/wp-json/echo/v1/items', { payload: { title: 'x'.repeat(4096) } });
    expect(r.statusCode).toBe(413);
    expect(r.json().code).toBe('rest_request_too_large');
    expect(r.body).not.toContain('at ');
  });
});

describe('parameter precedence', () => {
  it('takes JSON over form over query over path', async () => {
    const editor = await app.auth('editor');
    const json = await req('POST', '/wp-json/echo/v1/items?title=query', { payload: { title: 'json' }, headers: { authorization: editor } });
    expect(json.json().title).toBe('json');
    const form = await req('POST', '/wp-json/echo/v1/items?title=query', {
      payload: 'title=form&count=3',
      headers: { authorization: editor, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.json()).toEqual({ title: 'form', count: 3 });
    expect((await get('/wp-json/echo/v1/items/5?id=7')).json().id).toBe(7);
  });
});

describe('request forms', () => {
  it('routes case-insensitively, with a trailing slash, by rest_route, under a locale and an alias', async () => {
    for (const url of ['/wp-json/ECHO/V1/items/3', '/wp-json/echo/v1/items/3/', '/?rest_route=/echo/v1/items/3', '/de/wp-json/echo/v1/items/3', '/wp-json/legacy-echo/v1/items/3']) {
      expect((await get(url)).json(), url).toEqual({ id: 3, method: 'GET' });
    }
  });

  it("takes the query's rest_route before the path, and refuses one that is not a string before authenticating", async () => {
    expect((await get('/wp-json/echo/v1/items/9?rest_route=/echo/v1/items/3')).json()).toEqual({ id: 3, method: 'GET' });
    // PHP reads `rest[route` as `rest_route`.
    expect((await get('/wp-json/echo/v1/items/9?rest[route=/echo/v1/items/3')).json()).toEqual({ id: 3, method: 'GET' });
    // `_method` is not read yet: a GET overridden to HEAD still gets the body.
    for (const url of ['/wp-json/echo/v1/items/3?rest_route[]=/echo/v1/items/3', '/?rest_route[a]=x', '/wp-json/echo/v1/items/3?rest_route[]=x&_envelope=1', '/wp-json/?rest_route[]=x&_method=HEAD']) {
      const r = await req('GET', url, { headers: { authorization: 'Basic bm9ib2R5Ong=' } });
      expect(r.statusCode, url).toBe(400);
      expect(r.headers.allow, url).toBeUndefined();
      expect(r.headers['cache-control'], url).toBe('no-cache, must-revalidate, max-age=0, no-store, private');
      expect(r.json(), url).toEqual({ code: 'rest_path_invalid_type', message: 'The REST route parameter must be a string.', data: { status: 400 }, additional_errors: [] });
    }
  });

  it("reads every spelling PHP registers as rest_route, its last value, and matches it as WordPress does", async () => {
    for (const url of ['/?%20rest_route=/echo/v1/items/3', '/?rest.route=/echo/v1/items/3', '/?rest_route=/x&rest_route=/echo/v1/items/3', '/?rest_route=/echo/v1/items/3/%5C']) {
      expect((await get(url)).json(), url).toEqual({ id: 3, method: 'GET' });
    }
    // The route is matched as it is: without its leading slash it names none; in the path, the PHP server makes a run of slashes one.
    expect((await get('/?rest_route=echo/v1/items/3')).json().code).toBe('rest_no_route');
    expect((await get('/wp-json//echo/v1/items/3')).json()).toEqual({ id: 3, method: 'GET' });
    expect((await get('/?rest_route=/0/')).json().code).toBe('rest_no_route');
    expect((await get('/wp-json/echo/v1/items/3?rest_route=//')).json().namespaces).toBeDefined();
  });

  it('answers the front page to an empty rest_route, after the canonical redirect of a GET, as WordPress does', async () => {
    for (const [url, location] of [
      ['/wp-json/echo/v1/items/3?rest_route=&a[b=1', '/wp-json/echo/v1/items/3/?rest_route=&a[b=1'],
      ['/de/wp-json/echo/v1/items?rest.route=0', '/de/wp-json/echo/v1/items/?rest.route=0'],
      ['/index.php?rest_route=', '/?rest_route='],
      // The octets of non-ASCII bytes come back in lower case, ASCII ones as sent.
      ['/wp-json/%C3%A9%7E%FF?rest_route=&q=%E9%4A', '/wp-json/%c3%a9%7E%ff/?rest_route=&q=%e9%4A'],
    ]) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(301);
      expect(r.headers.location, url).toBe(`${TEST_BASE}${location}`);
      expect(r.headers['x-redirect-by'], url).toBe('WordPress');
      // Redirection's wp_redirect filter gives every 301 its cache headers (redirect_cache, 1 hour by default).
      expect(r.headers['cache-control'], url).toBe('max-age=3600');
      expect(r.body, url).toBe('');
    }
    for (const [method, url] of [['GET', '/wp-json/echo/v1/items/3/?%20rest_route='], ['GET', '/?rest_route=0'], ['POST', '/wp-json/echo/v1/items?rest_route='], ['DELETE', '/wp-json/?rest_route=']]) {
      const r = await req(method, url);
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-type'], url).toBe('text/html; charset=UTF-8');
      expect(r.body, url).toContain('<h1>');
    }
  });

  it('reads rest_route from a POST form body before the query string, as parse_request reads $_POST first', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    // The body's route wins over the path's; a JSON body is no $_POST.
    expect((await req('POST', '/wp-json/echo/v1/kinds/b?_method=DELETE', { payload: 'rest_route=/echo/v1/items/3', headers: form })).json()).toEqual({ id: 3, method: 'DELETE' });
    expect((await req('POST', '/wp-json/echo/v1/kinds/b?_method=GET', { payload: { rest_route: '/echo/v1/items/3' } })).json()).toEqual({ kind: 'b' });
    // The same value in both is fine; two values are wp_die's 400 page.
    expect((await req('POST', '/?rest_route=/echo/v1/items/3&_method=DELETE', { payload: 'rest_route=/echo/v1/items/3', headers: form })).json().id).toBe(3);
    const mismatch = await req('POST', '/?rest_route=/echo/v1/items/3', { payload: 'rest_route=/echo/v1/items/4', headers: form });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.headers['content-type']).toBe('text/html; charset=UTF-8');
    expect(mismatch.body).toContain('A variable mismatch has been detected.');
    // wp_die's JSON handler answers a client that accepts JSON (wp_is_json_request), with wp_die's no-cache headers.
    const asJson = await req('POST', '/wp-json/echo/v1/items/3?rest_route=/echo/v1/items/3', { payload: 'rest_route=/echo/v1/items/4', headers: { ...form, accept: 'application/json, */*;q=0.1' } });
    expect([asJson.statusCode, asJson.headers['cache-control'], asJson.json()]).toEqual([
      400,
      'no-cache, must-revalidate, max-age=0, no-store, private',
      { code: 'wp_die', message: 'A variable mismatch has been detected.', data: { status: 400 }, additional_errors: [] },
    ]);
    // Any of WordPress's public query vars is checked so, on every route: a category `name` too (checked on the legacy site).
    const named = await req('POST', '/wp-json/echo/v1/items/3?name=a', { payload: 'name=b', headers: { ...form, accept: 'application/json' } });
    expect([named.statusCode, named.json().message]).toEqual([400, 'A variable mismatch has been detected.']);
    expect((await req('POST', '/wp-json/echo/v1/items/3?name=a&_method=DELETE', { payload: 'name=a', headers: form })).json().id).toBe(3);
    // The calendar's query vars too (an events list's start_date, tribe_events); not a post type without one (tribe_venue).
    for (const name of ['start_date', 'tribe_events', 'eventDisplay']) expect((await req('POST', `/wp-json/echo/v1/items/3?${name}=a`, { payload: `${name}=b`, headers: form })).statusCode, name).toBe(400);
    expect((await req('POST', '/wp-json/echo/v1/items/3?tribe_venue=a&_method=DELETE', { payload: 'tribe_venue=b', headers: form })).json().id).toBe(3);
    // An empty one makes the request the front page's.
    const page = await req('POST', '/wp-json/echo/v1/items/3', { payload: 'rest_route=', headers: form });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>');
  });

  it('refuses a JSON null for a typed argument by its type, as sanitize_params checks every sent value', async () => {
    const r = await req('POST', '/wp-json/echo/v1/items?_method=GET', { payload: { per_page: null } });
    expect(r.statusCode).toBe(400);
    expect(r.json().data.details.per_page).toEqual({ code: 'rest_invalid_type', message: 'per_page is not of type integer.', data: { param: 'per_page' } });
  });

  it('hands path parameters to the handler even when no argument declares them', async () => {
    expect((await get('/wp-json/echo/v1/kinds/b')).json()).toEqual({ kind: 'b' });
    expect((await get('/wp-json/echo/v1/kinds/c')).json().code).toBe('rest_no_route');
  });

  it('honours _method and X-HTTP-Method-Override', async () => {
    expect((await req('POST', '/wp-json/echo/v1/items/3?_method=DELETE')).json().method).toBe('DELETE');
    expect((await req('POST', '/wp-json/echo/v1/items/3', { headers: { 'x-http-method-override': 'delete' } })).json().method).toBe('DELETE');
  });

  it('wraps in an envelope with _envelope and keeps only _fields', async () => {
    const editor = await app.auth('editor');
    const env = await req('POST', '/wp-json/echo/v1/items?_envelope', { payload: { title: 'T' }, headers: { authorization: editor } });
    expect(env.statusCode).toBe(200);
    expect(env.json()).toEqual({ body: { title: 'T' }, status: 201, headers: { 'X-Echo': 'created', Allow: 'GET, POST' } });
    expect((await get('/wp-json/echo/v1/items?per_page=2&flag=1&_fields=flag')).json()).toEqual({ flag: true });
    // `$request['_fields']`: the body's comes before the query's.
    const posted = await req('POST', '/wp-json/echo/v1/items?_fields=none', { payload: { title: 'T', _fields: 'title' }, headers: { authorization: editor } });
    expect(posted.json()).toEqual({ title: 'T' });
    const form = await req('POST', '/wp-json/echo/v1/items', { payload: 'title=T&_fields=none', headers: { authorization: editor, 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.json()).toEqual([]);
    expect((await get('/wp-json/?_fields=name,authentication.application-passwords')).json()).toEqual({
      name: 'Lintel',
      authentication: { 'application-passwords': { endpoints: { authorization: `${TEST_BASE}/wp-admin/authorize-application.php` } } },
    });
  });

  it('answers HEAD with the headers and no body', async () => {
    const r = await req('HEAD', '/wp-json/echo/v1/items');
    expect(r.statusCode).toBe(200);
    expect(r.body).toBe('');
    expect(r.headers.allow).toBe('GET');
  });

  it('leaves out of Allow the methods whose check fails on the record the path names, whatever the answer', async () => {
    const editor = await app.auth('editor');
    const allow = async (id: number, authorization?: string) => (await req('GET', `/wp-json/echo/v1/owned/${id}`, { headers: authorization ? { authorization } : {} })).headers.allow;
    expect([await allow(2, editor), await allow(3, editor), await allow(2)]).toEqual(['GET, PUT', 'GET', 'GET']);
  });

  it('answers OPTIONS from the declaration, without checking permissions', async () => {
    const r = await req('OPTIONS', '/wp-json/echo/v1/items');
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.methods).toEqual(['GET', 'POST']);
    expect(body.endpoints[0].args.per_page).toEqual({ description: 'Items per page', default: 10, type: 'integer', minimum: 1, maximum: 100, required: false });
    expect(body.endpoints[1].allow_batch).toEqual({ v1: true });
    expect(body.endpoints[1].args.title).toEqual({ type: 'string', required: true });
    expect((await req('OPTIONS', '/wp-json/nowhere')).json()).toEqual([]);
  });

  it("filters an OPTIONS answer by `_fields` as `$request['_fields']` reads it: a JSON body's before the query's, never a form's", async () => {
    const json = await req('OPTIONS', '/wp-json/echo/v1/items?_fields=endpoints', { payload: { _fields: 'namespace,methods' } });
    expect(json.json()).toEqual({ namespace: 'echo/v1', methods: ['GET', 'POST'] });
    // A field the answer lacks leaves nothing of it.
    expect((await req('OPTIONS', '/wp-json/echo/v1/items', { payload: { _fields: '[object Object]' } })).json()).toEqual([]);
    const form = await req('OPTIONS', '/wp-json/echo/v1/items?_fields=methods', { payload: '_fields=namespace', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.json()).toEqual({ methods: ['GET', 'POST'] });
  });

  it('shows the declared namespace in its own index and the site index', async () => {
    const ns = (await get('/wp-json/echo/v1')).json();
    expect(ns.namespace).toBe('echo/v1');
    expect(Object.keys(ns.routes)).toEqual(['/echo/v1', '/echo/v1/items', '/echo/v1/items/(?P<id>\\d+)', '/echo/v1/owned/(?P<id>\\d+)', '/echo/v1/kinds/(?P<kind>a|b)']);
    expect(ns.routes['/echo/v1/items/(?P<id>\\d+)']._links).toBeUndefined();
    expect(ns.routes['/echo/v1/items']._links).toEqual({ self: [{ href: `${TEST_BASE}/wp-json/echo/v1/items` }] });
    expect((await get('/wp-json/echo/v1?namespace=zz')).json().code).toBe('rest_invalid_namespace');
    const index = (await get('/wp-json/')).json();
    expect(index.namespaces).toEqual(expect.arrayContaining(['echo/v1', 'legacy-echo/v1']));
  });
});
