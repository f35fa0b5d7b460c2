/** redirection/v1 routes: descriptors as the legacy index shows them, and rules no capture covers. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedRedirectionDemo } from '../../src/namespaces/redirection/demo.ts';
import { testApp, type TestApp } from '../support/app.ts';

const legacy = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../fixtures/captures/042-wp-json-index.json'), 'utf8'))
  .response.body_json.routes as Record<string, { endpoints: unknown[] }>;

let app: TestApp;
let admin: string;
const call = async (method: string, url: string, body?: unknown, auth: string | null = admin) => {
  const res = await app.server.inject({
    method: method as 'GET',
    url: `/wp-json/redirection/v1${url}`,
    headers: { ...(auth ? { authorization: auth } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    payload: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.statusCode, body: res.json() };
};

beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:07:00Z' } });
  admin = await app.auth('administrator');
});
afterAll(() => app.close());

describe('index descriptors', () => {
  it('every legacy management route is declared with the legacy endpoints', async () => {
    const res = await app.server.inject({ url: '/wp-json/redirection/v1' });
    const routes = res.json().routes as Record<string, { endpoints: unknown[] }>;
    const management = Object.keys(legacy).filter((k) => k.startsWith('/redirection/v1') && !/\/(export|import\/file)\//.test(k));
    expect(management.length).toBeGreaterThan(15);
    // DEVIATIONS.md redirection-batch: the write endpoints are batchable, which the legacy index does not show.
    const legacyShape = (e: unknown) => {
      const { allow_batch: _batch, ...rest } = e as { allow_batch?: unknown };
      return rest;
    };
    for (const k of management) expect({ route: k, endpoints: routes[k]?.endpoints.map(legacyShape) }).toEqual({ route: k, endpoints: legacy[k].endpoints });
    const writes = management.flatMap((k) => (routes[k].endpoints as Array<{ methods: string[]; allow_batch?: unknown }>).filter((e) => !e.methods.includes('GET')).map((e) => ({ route: k, batch: e.allow_batch })));
    expect(writes.filter((w) => !/\/plugin|\/import\/plugin/.test(w.route)).every((w) => JSON.stringify(w.batch) === '{"v1":true}')).toBe(true);
  });
});

describe('rules', () => {
  it('an editor is refused with 403', async () => {
    const r = await call('GET', '/redirect', undefined, await app.auth('editor'));
    expect(r).toEqual({ status: 403, body: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } } });
  });

  it('lists redirects with equal hits in ID order, also in descending order', async () => {
    const group = (await call('POST', '/group', { name: 'Ties', moduleId: 1 })).body.items.find((g: { name: string }) => g.name === 'Ties').id;
    const ids: number[] = [];
    for (const [url, hits] of [['/tie-a', 1], ['/tie-b', 2], ['/tie-c', 1], ['/tie-d', 1]] as const) {
      const created = (await call('POST', '/redirect', { url, action_type: 'url', action_code: 301, action_data: { url: '/to/' }, match_type: 'url', group_id: group })).body;
      const id = created.items.find((r: { url: string }) => r.url === url).id;
      await app.store.sql.query('update redirection_items set hits = $2 where id = $1', [id, hits]);
      ids.push(id);
    }
    const listed = async (direction: string) =>
      (await call('GET', `/redirect?filterBy[group]=${group}&orderby=last_count&direction=${direction}`)).body.items.map((r: { id: number }) => r.id);
    expect(await listed('desc')).toEqual([ids[1], ids[0], ids[2], ids[3]]);
    expect(await listed('asc')).toEqual([ids[0], ids[2], ids[3], ids[1]]);
  });

  it('per_page above 200 is a 400, not a clamp', async () => {
    expect((await call('GET', '/redirect?per_page=201')).status).toBe(400);
  });

  it('a filterBy key the route does not allow is refused with the legacy message', async () => {
    const r = await call('GET', '/404?filterBy%5Btarget%5D=x');
    expect(r.status).toBe(400);
    expect(r.body.data.params).toEqual({ filterBy: 'Filter type is not supported: target' });
    expect((await call('GET', '/redirect?filterBy=abc')).body.data.params).toEqual({ filterBy: 'Filter is not an array' });
    // The plugin's WP_Error carries its own status, which the detail repeats.
    expect(r.body.data.details.filterBy).toEqual({ code: 'rest_invalid_param', message: 'Filter type is not supported: target', data: { status: 400 } });
  });

  // rest_validate_value_from_schema checks the declared type before the enum.
  it('a list for orderby or direction is of the wrong type, not outside the enum', async () => {
    const r = await call('GET', '/log?orderby[]=url&direction[]=asc');
    expect(r.status).toBe(400);
    expect(r.body.data.params).toEqual({ orderby: 'orderby is not of type string.', direction: 'direction is not of type string.' });
    expect(r.body.data.details.orderby).toEqual({ code: 'rest_invalid_type', message: 'orderby is not of type string.', data: { param: 'orderby' } });
    expect((await call('GET', '/log?orderby=nope')).body.data.details.orderby.code).toBe('rest_not_in_enum');
  });

  it('a bulk item that is neither text nor a number names its index and the two types', async () => {
    const r = await call('POST', '/bulk/log/delete', { items: [{ a: 1 }] });
    expect(r.status).toBe(400);
    expect(r.body.data.details.items).toEqual({ code: 'rest_invalid_type', message: 'items[0] is not of type string,number.', data: { param: 'items[0]' } });
  });

  // sanitize_params visits the JSON body, then the form, then the query, each in the order sent.
  it('invalid parameters are named in the order the request sent them, the body before the query', async () => {
    expect((await call('GET', '/group?page[a]=1&direction[2]=asc&per_page[]=5')).body.message).toBe('Invalid parameter(s): page, direction, per_page');
    expect((await call('POST', '/bulk/log/delete?page=-1', { direction: [1] })).body.message).toBe('Invalid parameter(s): direction, page');
  });

  it('a list with several bad items names only the first, as the legacy site stops there', async () => {
    const r = await call('POST', '/bulk/404/delete', { items: [[1], [2]] });
    expect(r.body.data.params).toEqual({ items: 'items[0] is not of type string,number.' });
  });

  it('OPTIONS names in Allow the methods the caller may use, and sends no Allow header when there are none', async () => {
    const options = (auth: string | null) => app.server.inject({ method: 'OPTIONS', url: '/wp-json/redirection/v1/setting', headers: auth ? { authorization: auth } : {} });
    expect((await options(admin)).headers.allow).toBe('GET, POST, PUT, PATCH');
    const anonymous = await options(null);
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.headers).not.toHaveProperty('allow');
  });

  it('an empty filterBy is no filter', async () => {
    const r = await call('GET', '/redirect?filterBy=');
    expect(r.status).toBe(200);
    expect(r.body.total).toBe((await call('GET', '/redirect')).body.total);
  });

  it('a group needs a module of 1, 2 or 3 and a name', async () => {
    const r = await call('POST', '/group', { name: 'Zero', moduleId: 0 });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('redirect_group_invalid');
    expect((await call('POST', '/group', { name: '  ', moduleId: 1 })).body.code).toBe('redirect_group_invalid');
  });

  it('disabling a group disables its redirects; deleting it deletes them, in one request each', async () => {
    const groups = await call('POST', '/group', { name: 'Cascade', moduleId: 3, orderby: 'id' });
    const id = groups.body.items[0].id as number;
    await call('POST', '/redirect', { url: ['/c1', '/c2'], match_type: 'url', action_type: 'url', action_data: { url: '/t' }, group_id: id });
    await call('POST', '/bulk/group/disable', { items: [id] });
    const listed = await call('GET', `/redirect?filterBy%5Bgroup%5D=${id}`);
    expect(listed.body.items.map((r: { enabled: boolean }) => r.enabled)).toEqual([false, false]);
    await call('POST', '/bulk/group/delete', { items: String(id) });
    expect((await call('GET', `/redirect?filterBy%5Bgroup%5D=${id}`)).body.total).toBe(0);
  });

  it('a bulk action with an unknown ID changes nothing', async () => {
    await call('POST', '/redirect', { url: '/keep', match_type: 'url', action_type: 'url', action_data: { url: '/t' }, group_id: 1 });
    const before = await call('GET', '/redirect?filterBy%5Burl%5D=keep');
    const r = await call('POST', '/bulk/redirect/delete', { items: [before.body.items[0].id, 99999] });
    expect(r.body.code).toBe('redirect_bulk_failed');
    expect((await call('GET', '/redirect?filterBy%5Burl%5D=keep')).body.total).toBe(1);
  });

  it('global bulk actions apply to what the filter matches', async () => {
    await call('POST', '/redirect', { url: '/glob-a', match_type: 'url', action_type: 'url', action_data: { url: '/t' }, group_id: 1 });
    await call('POST', '/bulk/redirect/disable', { global: true, filterBy: { url: 'glob-' } });
    const r = await call('GET', '/redirect?filterBy%5Burl%5D=glob-');
    expect(r.body.items[0].enabled).toBe(false);
    expect((await call('GET', '/redirect?filterBy%5Burl%5D=keep')).body.items[0].enabled).toBe(true);
  });

  // sanitize_params checks a JSON null against the declared type (capture 873): the global delete never runs.
  it('a global bulk delete with a list parameter sent as JSON null is refused and deletes nothing', async () => {
    await call('POST', '/redirect', { url: '/null-keep', match_type: 'url', action_type: 'url', action_data: { url: '/t' }, group_id: 1 });
    const total = (await call('GET', '/redirect')).body.total;
    expect(total).toBeGreaterThan(0);
    const r = await call('PUT', '/bulk/redirect/delete', { direction: null, global: true });
    expect(r).toMatchObject({ status: 400, body: { code: 'rest_invalid_param', data: { params: { direction: 'direction is not of type string.' } } } });
    expect((await call('GET', '/redirect')).body.total).toBe(total);
    // A batch item's body is checked the same way (set_body_params, then sanitize_params).
    const batch = await app.server.inject({
      method: 'POST',
      url: '/wp-json/batch/v1',
      headers: { authorization: admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ requests: [{ method: 'PUT', path: '/redirection/v1/bulk/redirect/delete', body: { global: true, direction: null } }] }),
    });
    expect(batch.json().responses[0]).toMatchObject({ status: 400, body: { data: { params: { direction: 'direction is not of type string.' } } } });
    expect((await call('GET', '/redirect')).body.total).toBe(total);
  });

  it('settings are partial and sanitized; empty params change nothing', async () => {
    const before = (await call('GET', '/setting')).body.settings;
    expect((await call('POST', '/setting', {})).body.settings).toEqual(before);
    const after = (await call('POST', '/setting', { expire_404: 99, redirect_cache: 5, bogus: 1 })).body.settings;
    expect(after).toEqual({ ...before, expire_404: 60, redirect_cache: 1 });
  });

  it('settings show where the site is installed as its URL path, never a folder of the server', async () => {
    const { installed } = (await call('GET', '/setting')).body;
    expect(installed).toBe('/');
    expect(installed).not.toContain(process.cwd());
    const under = await testApp({ env: { LINTEL_BASE_URL: 'http://lintel.test/site' } });
    try {
      const res = await under.server.inject({ url: '/wp-json/redirection/v1/setting', headers: { authorization: await under.auth('administrator') } });
      expect(res.json().installed).toBe('/site/');
    } finally {
      await under.close();
    }
  });

  it('grouped log rows are deleted by their value', async () => {
    const at = new Date('2026-11-21T12:00:00Z');
    const row = { created: at, domain: null, agent: 'a', referrer: null, ip: '10.0.0.1', httpCode: 404, requestMethod: 'GET', requestData: null };
    await app.store.redirection.logs.insert404({ ...row, url: '/gone-x' });
    await app.store.redirection.logs.insert404({ ...row, url: '/gone-x' });
    const grouped = await call('GET', '/404?groupBy=url');
    expect(grouped.body.items).toContainEqual({ count: 2, url: '/gone-x', id: '/gone-x' });
    await call('POST', '/bulk/404/delete', { items: ['/gone-x'], groupBy: 'url' });
    expect((await call('GET', '/404?filterBy%5Burl-exact%5D=/gone-x')).body.total).toBe(0);
  });

  it('the plugin maintenance routes answer for a store with nothing to repair', async () => {
    expect((await call('POST', '/plugin/data', { upgrade: 'retry' })).body).toEqual({ status: 'ok', inProgress: false, complete: 100 });
    expect((await call('GET', '/import/plugin')).body).toEqual({ importers: [] });
    expect((await call('POST', '/plugin/fix', { reason: 'x' })).status).toBe(400);
  });

  // route_fix_status after a manual install: create_groups makes the install's groups when there are none (captures 880–883).
  it('plugin/fix with the database reason brings back the install groups of an empty table, and the default group', async () => {
    const fresh = await testApp();
    try {
      await fresh.store.sql.query('delete from redirection_groups');
      await fresh.store.redirection.settings.save({ last_group_id: 7 });
      const res = await fresh.server.inject({
        method: 'POST',
        url: '/wp-json/redirection/v1/plugin/fix',
        headers: { authorization: await fresh.auth('administrator'), 'content-type': 'application/json' },
        payload: JSON.stringify({ reason: 'database', current: '4.2' }),
      });
      expect(res.json()).toEqual({ success: true, database: { status: 'ok', inProgress: false } });
      expect((await fresh.store.redirection.groups.all()).map((g) => g.name)).toEqual(['Redirections', 'Modified Posts']);
      expect((await fresh.store.redirection.settings.get()).last_group_id).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  it('the demo seeder fills an untouched install once', async () => {
    const fresh = await testApp();
    await seedRedirectionDemo(fresh.store);
    await seedRedirectionDemo(fresh.store);
    expect((await fresh.store.redirection.redirects.ofModule('all')).length).toBe(6);
    expect((await fresh.store.redirection.groups.all()).map((g) => g.name)).toEqual(['Redirections', 'Modified Posts', 'Marketing', 'Legacy server']);
    await fresh.close();
  });
});
