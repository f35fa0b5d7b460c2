/**
 * Forwarded namespaces in front of the recorded legacy origin: every way of naming the route
 * reaches the origin under its legacy name, the origin's answer comes back with Lintel's addresses
 * and names, credentials are the origin's to check, failures are JSON errors, and the site index,
 * batch and the site outside the REST prefix know about the origin.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testApp, TEST_BASE, type TestApp } from './support/app.ts';
import { startLegacyOrigin, type LegacyOrigin } from './support/legacy-origin.ts';
import { FORWARD_HISTORY, mappingsDir } from './support/mappings.ts';

let origin: LegacyOrigin;
let app: TestApp;
let mappings: ReturnType<typeof mappingsDir>;
const ADMIN = `Basic ${Buffer.from('admin:origin only secret').toString('base64')}`;

beforeAll(async () => {
  origin = await startLegacyOrigin();
  mappings = mappingsDir(FORWARD_HISTORY, { forwardUnmatched: true });
  app = await testApp({ env: { LINTEL_LEGACY_ORIGIN: origin.url, LINTEL_MAPPINGS_DIR: mappings.dir, LINTEL_FORWARD_TIMEOUT_MS: '1500' } });
  // Lintel has application passwords of its own: unknown credentials would be its 401 on a route it serves.
  await app.auth('administrator');
});
afterAll(async () => {
  await app.close();
  await origin.close();
  mappings.remove();
});
beforeEach(() => {
  origin.reset();
  origin.received.length = 0;
  origin.delayMs = 0;
});

const get = (url: string, headers: Record<string, string> = {}) => app.server.inject({ method: 'GET', url, headers: { authorization: ADMIN, ...headers } });

describe('forwarding a namespace to the legacy origin', () => {
  it('never forwards a path that climbs out of the namespace (dot segments, also percent-encoded, directly or in a batch)', async () => {
    // Over a real socket: an injected request, like fetch, would resolve the dot segments before Lintel saw them.
    const address = await app.server.listen({ port: 0, host: '127.0.0.1' });
    const raw = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(`${address}${path}`.replace(/^(http:\/\/[^/]+).*$/, '$1'), { path }, (res) => {
          let body = '';
          res.on('data', (d) => (body += d)).on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject).end();
      });
    for (const path of ['/wp-json/history/v1/%2e%2e/%2e%2e/%2e%2e/wp-admin/', '/wp-json/history/v1/../../../wp-admin/', '/wp-json/history/v1/%2E./x', '/wp-json/history/v1/..%5Cx']) {
      const res = await raw(path);
      expect(res.status, path).toBe(404);
      expect(JSON.parse(res.body).code).toBe('rest_no_route');
    }
    const batch = await app.server.inject({
      method: 'POST',
      url: '/wp-json/batch/v1',
      headers: { 'content-type': 'application/json' },
      payload: { requests: [{ method: 'POST', path: '/history/v1/../../../xmlrpc.php' }, { path: '/history/v1/%2e%2e/%2e%2e/%2e%2e/wp-login.php' }] },
    });
    expect(batch.statusCode).toBe(207);
    expect(batch.json().responses.map((r: { status: number }) => r.status)).toEqual([404, 404]);
    expect(origin.received.map((r) => r.url)).toEqual([]);
  });

  it('never lets rest_route name another route of the origin, in the query, a form body or a batch item', async () => {
    // The query's rest_route names the route under the prefix too (as WordPress reads it): Lintel serves no
    // /wp/v2/users, so it answers itself (the credential, unknown here, is refused before any route).
    const named = await get('/wp-json/history/v1/events?rest_route=/wp/v2/users&per_page=5');
    expect([named.statusCode, named.json().code]).toEqual([401, 'incorrect_password']);
    await get('/wp-json/history/v1/events?per_page=5');
    // A POST form's rest_route names the route before the query string (parse_request reads $_POST first): no forwarded route either.
    const posted = await app.server.inject({
      method: 'POST',
      url: '/wp-json/history/v1/events',
      headers: { authorization: ADMIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'message=x&rest_route=%2Fwp%2Fv2%2Fusers',
    });
    expect([posted.statusCode, posted.json().code]).toEqual([401, 'incorrect_password']);
    const batch = await app.server.inject({
      method: 'POST',
      url: '/wp-json/batch/v1',
      headers: { 'content-type': 'application/json' },
      payload: { requests: [{ method: 'POST', path: '/history/v1/events?rest_route=/wp/v2/users' }, { method: 'POST', path: '/history/v1/events', body: { rest_route: '/wp/v2/users', message: 'x' } }] },
    });
    expect(batch.statusCode).toBe(207);
    // Lintel's own check of the legacy credential (users/me) is no forwarded request.
    const forwarded = origin.received.filter((r) => !r.url.startsWith('/wp-json/wp/v2/users/me'));
    expect(forwarded.map((r) => `${r.method} ${r.url} ${r.body}`)).toEqual([
      'GET /wp-json/simple-history/v1/events?per_page=5 ',
      'POST /wp-json/simple-history/v1/events ',
      'POST /wp-json/simple-history/v1/events {"message":"x"}',
    ]);
  });

  it('refuses a rest_route that is no string itself, as the legacy site does, without asking the origin', async () => {
    const res = await get('/wp-json/history/v1/events?rest_route[]=/history/v1');
    expect([res.statusCode, res.json().code]).toEqual([400, 'rest_path_invalid_type']);
    expect(origin.received.filter((r) => !r.url.startsWith('/wp-json/wp/v2/users/me'))).toEqual([]);
  });

  it('sends the route under its legacy name, with the credentials, and answers with the recorded status, headers and body', async () => {
    const res = await get('/wp-json/history/v1/events?per_page=5&page=2');
    expect(res.statusCode).toBe(200);
    expect(origin.received[0]).toMatchObject({ method: 'GET', url: '/wp-json/simple-history/v1/events?per_page=5&page=2' });
    expect(origin.received[0].headers.authorization).toBe(ADMIN);
    expect(res.headers['x-wp-total']).toBe('16');
    expect(res.headers['x-simplehistory-maxid']).toBeDefined();
    expect((res.json() as { id: number }[]).map((e) => e.id)).toHaveLength(5);
  });

  it('reaches the same route under an alias, a locale prefix and ?rest_route=', async () => {
    await get('/wp-json/simple-history/v1/events/22');
    await get('/fr/wp-json/history/v1/events/22');
    await get('/?rest_route=/history/v1/events/22');
    expect(origin.received.map((r) => r.url)).toEqual([
      '/wp-json/simple-history/v1/events/22',
      '/fr/wp-json/simple-history/v1/events/22',
      '/?rest_route=/simple-history/v1/events/22',
    ]);
    expect(origin.received.every((r) => r.headers.authorization === ADMIN)).toBe(true);
  });

  it('forwards OPTIONS and HEAD as they are (the route descriptor is the origin\'s)', async () => {
    await app.server.inject({ method: 'OPTIONS', url: '/wp-json/history/v1/events', headers: { authorization: ADMIN } });
    const head = await app.server.inject({ method: 'HEAD', url: '/wp-json/history/v1/events/22', headers: { authorization: ADMIN } });
    expect(origin.received.map((r) => `${r.method} ${r.url}`)).toEqual(['OPTIONS /wp-json/simple-history/v1/events', 'HEAD /wp-json/simple-history/v1/events/22']);
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it("sets X-Forwarded-For/-Proto/-Host and X-Real-IP itself (the client's own are dropped) and a request id, and drops hop-by-hop headers", async () => {
    await get('/wp-json/history/v1/events/22', { connection: 'keep-alive, x-secret-hop', 'x-secret-hop': '1', te: 'trailers', 'x-forwarded-for': '203.0.113.9', 'x-real-ip': '203.0.113.9', host: 'lintel.test' });
    const h = origin.received[0].headers;
    expect(h['x-forwarded-for']).toBe('127.0.0.1');
    expect(h['x-real-ip']).toBe('127.0.0.1');
    expect(h['x-forwarded-proto']).toBe('http');
    expect(h['x-forwarded-host']).toBe('lintel.test');
    expect(h['x-secret-hop']).toBeUndefined();
    expect(h.te).toBeUndefined();
    expect(h['x-request-id']).toBeDefined();
    expect(h.host).toBe(new URL(origin.url).host);
  });

  it('sends the body and method of a write as they came', async () => {
    const res = await app.server.inject({
      method: 'POST',
      url: '/wp-json/history/v1/events',
      headers: { authorization: ADMIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ message: 'Capture: minimal entry' }),
    });
    expect(origin.received[0]).toMatchObject({ method: 'POST', url: '/wp-json/simple-history/v1/events', body: JSON.stringify({ message: 'Capture: minimal entry' }) });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'Event logged successfully', data: { status: 201 } });
  });

  it("rewrites the origin's addresses and namespace names to Lintel's, in the body and in Link headers", async () => {
    const index = await app.server.inject({ method: 'GET', url: '/wp-json/history/v1' });
    const body = index.json() as { namespace: string; routes: Record<string, { namespace: string; _links?: { self: { href: string }[] } }> };
    expect(body.namespace).toBe('history/v1');
    expect(Object.keys(body.routes)).toContain('/history/v1/events');
    expect(Object.keys(body.routes).some((k) => k.includes('simple-history'))).toBe(false);
    expect(body.routes['/history/v1/events'].namespace).toBe('history/v1');
    expect(body.routes['/history/v1']._links?.self[0].href).toBe(`${TEST_BASE}/wp-json/history/v1`);
    expect(index.body).not.toContain(origin.url.replace('http://', ''));
    const list = await get('/wp-json/history/v1/events');
    expect(list.headers.link).toBe(`<${TEST_BASE}/wp-json/history/v1/events?page=2>; rel="next"`);
  });

  it("passes the origin's own errors through unchanged, and leaves credentials to the origin", async () => {
    const anonymous = await app.server.inject({ method: 'GET', url: '/wp-json/history/v1/events' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'rest_forbidden_context' });
    const missing = await app.server.inject({ method: 'POST', url: '/wp-json/history/v1/events/61/react', headers: { authorization: ADMIN } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'rest_no_route' });
    // The same unknown credentials on a route Lintel serves are Lintel's 401.
    expect((await get('/wp-json/calendar/events/v1/events')).statusCode).toBe(401);
  });

  it('answers 504 rest_upstream_timeout when the origin is slow, without waiting for it', async () => {
    origin.delayMs = 4_000;
    const res = await get('/wp-json/history/v1/events/22');
    expect(res.statusCode).toBe(504);
    expect(res.json()).toMatchObject({ code: 'rest_upstream_timeout', data: { status: 504 } });
  });
});

describe('the site index, batch and the site around forwarded namespaces', () => {
  it("lists the forwarded namespaces and their routes, renamed, from the origin's index", async () => {
    const index = (await app.server.inject({ method: 'GET', url: '/wp-json/' })).json() as { namespaces: string[]; routes: Record<string, { namespace: string; _links?: { self: { href: string }[] } }> };
    expect(index.namespaces).toEqual(expect.arrayContaining(['calendar/events/v1', 'history/v1', 'simple-history/v1']));
    expect(index.routes['/history/v1/events/(?P<id>[\\d]+)/stick']).toMatchObject({ namespace: 'history/v1' });
    expect(index.routes['/history/v1/stats/summary']._links?.self[0].href).toBe(`${TEST_BASE}/wp-json/history/v1/stats/summary`);
    expect(index.routes['/calendar/events/v1/events']).toBeDefined();
    // Cached: the second index does not ask the origin again.
    const asked = origin.received.length;
    await app.server.inject({ method: 'GET', url: '/wp-json/' });
    expect(origin.received.length).toBe(asked);
  });

  it('sends batch items of a forwarded namespace to the origin one by one, and refuses them in require-all-validate', async () => {
    const admin = await app.auth('administrator');
    const requests = [{ method: 'POST', path: '/history/v1/events', body: { message: 'Capture: minimal entry' } }];
    const normal = await app.server.inject({ method: 'POST', url: '/wp-json/batch/v1', headers: { authorization: admin, 'content-type': 'application/json' }, payload: { requests } });
    expect(normal.statusCode).toBe(207);
    expect(normal.json()).toMatchObject({ responses: [{ status: 201, body: { message: 'Event logged successfully' } }] });
    expect(origin.received.at(-1)).toMatchObject({ method: 'POST', url: '/wp-json/simple-history/v1/events' });
    expect(origin.received.at(-1)?.headers.authorization).toBe(admin);

    origin.received.length = 0;
    const strict = await app.server.inject({
      method: 'POST',
      url: '/wp-json/batch/v1',
      headers: { authorization: admin, 'content-type': 'application/json' },
      payload: { validation: 'require-all-validate', requests },
    });
    expect(strict.json()).toMatchObject({ failed: 'validation', responses: [{ status: 400, body: { code: 'rest_batch_forwarded' } }] });
    expect(origin.received).toHaveLength(0);
  });

  it('forwards site requests nothing else answers, and every site answer carries the discovery Link', async () => {
    const page = await app.server.inject({ method: 'GET', url: '/some-legacy-page/' });
    expect(origin.received.at(-1)?.url).toBe('/some-legacy-page/');
    expect(page.statusCode).toBe(404); // the recorded origin has no such page: its answer is passed on
    expect(page.headers.link).toBe(`<${TEST_BASE}/wp-json/>; rel="https://api.w.org/"`);
    // A redirect of the edge still answers before the origin is asked.
    const admin = await app.auth('administrator');
    const created = await app.server.inject({
      method: 'POST',
      url: '/wp-json/redirection/v1/redirect',
      headers: { authorization: admin, 'content-type': 'application/json' },
      payload: { url: '/old-page', match_type: 'url', action_type: 'url', action_code: 301, action_data: { url: '/new-page/' }, group_id: 1 },
    });
    expect(created.statusCode).toBe(200);
    const asked = origin.received.length;
    const moved = await app.server.inject({ method: 'GET', url: '/old-page' });
    expect(moved.statusCode).toBe(301);
    expect(origin.received.length).toBe(asked);
    const health = await app.server.inject({ method: 'GET', url: '/healthz' });
    expect(health.headers.link).toBe(`<${TEST_BASE}/wp-json/>; rel="https://api.w.org/"`);
  });
});

describe('without a reachable origin', () => {
  it('answers 502 rest_upstream_unavailable when the origin is down, and when none is configured', async () => {
    const down = await startLegacyOrigin();
    await down.close();
    const m = mappingsDir(FORWARD_HISTORY);
    const unreachable = await testApp({ env: { LINTEL_LEGACY_ORIGIN: down.url, LINTEL_MAPPINGS_DIR: m.dir } });
    const unset = await testApp({ env: { LINTEL_MAPPINGS_DIR: m.dir } });
    try {
      for (const a of [unreachable, unset]) {
        const res = await a.server.inject({ method: 'GET', url: '/wp-json/history/v1/events' });
        expect(res.statusCode).toBe(502);
        expect(res.json()).toMatchObject({ code: 'rest_upstream_unavailable', data: { status: 502 } });
        // The index still names every namespace of the contract.
        const index = (await a.server.inject({ method: 'GET', url: '/wp-json/' })).json() as { namespaces: string[] };
        expect(index.namespaces).toContain('history/v1');
      }
    } finally {
      await unreachable.close();
      await unset.close();
      m.remove();
    }
  });
});
