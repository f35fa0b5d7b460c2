/**
 * batch/v1 against routes declared here (a small `notes/v1` namespace that writes options), so the
 * rules are tested without the calendar; the expected shapes come from the batch captures.
 */
import { z } from 'zod';
import { json } from '../../src/contract/reply.ts';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arg } from '../../src/contract/args.ts';
import { RestError } from '../../src/contract/errors.ts';
import { needs, publicAccess } from '../../src/contract/permission.ts';
import { endpoint, route, type RouteDecl } from '../../src/contract/route.ts';
import { translators } from '../../src/namespaces/index.ts';
import { testApp, TEST_BASE, type TestApp } from '../support/app.ts';

const capture = (name: string) => JSON.parse(readFileSync(new URL(`../../fixtures/captures/${name}`, import.meta.url), 'utf8'));

function notesRoutes(ns: string): RouteDecl[] {
  return [
    route(
      ns,
      `/${ns}/notes`,
      endpoint({
        methods: ['GET'],
        args: {},
        response: json(z.array(z.unknown())),
        permission: publicAccess,
        handler: () => ({ body: [] }),
      }),
      endpoint({
        methods: ['POST', 'PUT'],
        args: { name: arg.string({ required: true }), value: arg.string({ default: '' }), fail: arg.boolean({ default: false }) },
        response: json(z.object({ name: z.string(), value: z.string() }), 201),
        permission: needs('edit_posts'),
        allowBatch: true,
        async handler(ctx, a) {
          await ctx.store.transaction((tx) => tx.options.set(`note:${a.name}`, { value: a.value, query: ctx.query, header: ctx.headers['x-note'] ?? null }));
          if (a.fail) throw new RestError('note_refused', 'This note is refused.', 409);
          return { status: 201, body: { name: a.name, value: a.value }, headers: { Location: ctx.urls.rest(`/${ns}/notes/${a.name}`) } };
        },
      }),
    ),
    route(ns, `/${ns}/solo`, endpoint({ methods: ['POST'], args: {}, response: json(z.object({ ok: z.boolean() })), permission: publicAccess, handler: () => ({ body: { ok: true } }) })),
  ];
}

let app: TestApp;
let admin: string;
beforeAll(async () => {
  translators['notes/v1'] = () => notesRoutes('notes/v1');
  translators['refuse/v1'] = () => notesRoutes('refuse/v1');
  app = await testApp({
    env: { LINTEL_CLOCK: '2026-11-21T12:08:00Z' },
    mappings: (m) => ({
      ...m,
      namespaces: { ...m.namespaces, 'notes/v1': { mode: 'translate', aliases: [], batch: true }, 'refuse/v1': { mode: 'translate', aliases: [], batch: false } },
    }),
  });
  admin = await app.auth('administrator');
});
afterAll(async () => {
  await app.close();
  delete translators['notes/v1'];
  delete translators['refuse/v1'];
});

const batch = (payload: unknown, auth: string | null = admin) =>
  app.server.inject({
    method: 'POST',
    url: '/wp-json/batch/v1',
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
    payload: JSON.stringify(payload),
  });
const note = async (name: string) => app.store.options.get<{ value: string; query: unknown; header: unknown }>(`note:${name}`);
const notes = (...names: string[]) => names.map((name) => ({ method: 'POST', path: '/notes/v1/notes', body: { name, value: `v-${name}` } }));

describe('batch/v1 route', () => {
  it('is described in the index exactly as the legacy index entry', async () => {
    const legacy = capture('042-wp-json-index.json').response.body_json.routes['/batch/v1'];
    const ours = (await app.server.inject({ method: 'GET', url: '/wp-json/' })).json().routes['/batch/v1'];
    expect(ours).toEqual({ ...legacy, _links: { self: [{ href: `${TEST_BASE}/wp-json/batch/v1` }] } });
    const options = await app.server.inject({ method: 'OPTIONS', url: '/wp-json/batch/v1' });
    expect(options.json().endpoints).toEqual(legacy.endpoints);
  });

  it('marks batchable endpoints with allow_batch, and not those of a namespace with batch: false', async () => {
    const routes = (await app.server.inject({ method: 'GET', url: '/wp-json/' })).json().routes;
    expect(routes['/notes/v1/notes'].endpoints.map((e: { allow_batch?: unknown }) => e.allow_batch)).toEqual([undefined, { v1: true }]);
    expect(routes['/refuse/v1/notes'].endpoints[1].allow_batch).toBeUndefined();
  });

  it('answers GET with rest_no_route (capture 375)', async () => {
    const res = await app.server.inject({ method: 'GET', url: '/wp-json/batch/v1', headers: { authorization: admin } });
    const c = capture('375-batch-get-method.json').response;
    expect(res.statusCode).toBe(c.status);
    expect(res.json()).toEqual(c.body_json);
  });

  it('answers an empty list with 207 and no responses (capture 374)', async () => {
    const res = await batch({ requests: [] });
    expect(res.statusCode).toBe(207);
    expect(res.json()).toEqual(capture('374-batch-empty.json').response.body_json);
    expect(res.headers.allow).toBe('POST');
  });

  it('refuses 26 requests with rest_too_many_items and takes 25 (capture 373)', async () => {
    const c = capture('373-batch-too-many.json');
    const res = await batch(c.request.body);
    expect(c.request.body.requests).toHaveLength(26);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(c.response.body_json);
    const ok = await batch({ requests: notes(...Array.from({ length: 25 }, (_, i) => `n25-${i}`)) });
    expect(ok.statusCode).toBe(207);
    expect(ok.json().responses.map((r: { status: number }) => r.status)).toEqual(Array(25).fill(201));
  });

  it('refuses a GET item in the arguments of the batch itself (capture 371)', async () => {
    const c = capture('371-batch-get-item-not-allowed.json');
    const res = await batch(c.request.body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(c.response.body_json);
  });

  it('requires requests and each item path', async () => {
    expect((await batch({})).json().code).toBe('rest_missing_callback_param');
    const res = await batch({ requests: [{ method: 'POST' }] });
    expect(res.json().data.params.requests).toBe('path is a required property of requests[0].');
  });

  it('answers an unknown route in place with headers [] (capture 372)', async () => {
    const c = capture('372-batch-unknown-route.json');
    const res = await batch(c.request.body);
    expect(res.statusCode).toBe(207);
    expect(res.json()).toEqual(c.response.body_json);
  });

  it('refuses items of endpoints without allowBatch with the Allow header, before validating them (capture 366)', async () => {
    const c = capture('366-batch-calendar-routes.json').response.body_json;
    // refuse/v1 notes has a required `name` that is not sent: the batch refusal comes first.
    const res = await batch({ requests: [{ path: '/notes/v1/solo' }, { path: '/refuse/v1/notes', body: {} }] });
    expect(res.statusCode).toBe(207);
    const [solo, refused] = res.json().responses;
    expect(solo).toEqual({ ...c.responses[0], headers: { Allow: 'POST' } });
    expect(refused).toEqual({ ...c.responses[1], headers: { Allow: 'GET, POST, PUT' } });
    expect(await note('undefined')).toBeUndefined();
  });

  it('does not run batch/v1 inside itself', async () => {
    const res = await batch({ requests: [{ path: '/batch/v1', body: { requests: [] } }] });
    expect(res.json().responses[0].body.code).toBe('rest_batch_not_allowed');
  });
});

describe('normal mode', () => {
  it('runs each item in order and on its own, as the capture shows (capture 367)', async () => {
    const c = capture('367-batch-normal-mixed-one-failing.json').response.body_json.responses;
    const res = await batch({ requests: [notes('a1')[0], { path: '/notes/v1/notes', body: { value: 'missing name' } }, notes('a3')[0]] });
    expect(res.statusCode).toBe(207);
    const [one, two, three] = res.json().responses;
    expect(one).toEqual({ body: { name: 'a1', value: 'v-a1' }, status: 201, headers: { Location: `${TEST_BASE}/wp-json/notes/v1/notes/a1`, Allow: 'GET, POST, PUT' } });
    expect(two).toEqual({ ...c[1], headers: { Allow: 'GET, POST, PUT' } });
    expect(three.status).toBe(201);
    expect((await note('a1'))?.value).toBe('v-a1');
    expect((await note('a3'))?.value).toBe('v-a3');
  });

  it('keeps earlier writes when a later item fails in its handler', async () => {
    const res = await batch({ requests: [notes('k1')[0], { path: '/notes/v1/notes', body: { name: 'k2', fail: true } }] });
    expect(res.json().responses.map((r: { status: number }) => r.status)).toEqual([201, 409]);
    expect(await note('k1')).toBeDefined();
  });

  it('runs items as the anonymous caller when the batch is anonymous (capture 370)', async () => {
    const c = capture('370-batch-unauth.json').response;
    const res = await batch({ requests: notes('anon') }, null);
    expect(res.statusCode).toBe(c.status);
    const [item] = res.json().responses;
    expect(item.status).toBe(401);
    expect(item.headers).toEqual(c.body_json.responses[0].headers);
    expect(item.body).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
    expect(await note('anon')).toBeUndefined();
  });

  it('passes the path query string as the query and the item headers to the handler; body is the form body', async () => {
    const res = await batch({ requests: [{ method: 'PUT', path: '/notes/v1/notes?name=q1&extra=1&_fields=name', body: { value: 'from body' }, headers: { 'X-Note': 'hi' } }] });
    expect(res.json().responses[0]).toMatchObject({ status: 201, body: { name: 'q1' } });
    expect(res.json().responses[0].body).not.toHaveProperty('value');
    expect(await note('q1')).toEqual({ value: 'from body', query: { name: 'q1', extra: '1', _fields: 'name' }, header: 'hi' });
  });

  it('refuses a path it cannot parse', async () => {
    const res = await batch({ requests: [{ path: '//elsewhere/x' }] });
    expect(res.json().responses[0]).toEqual({ body: { code: 'parse_path_failed', message: 'Could not parse the path.', data: { status: 400 } }, status: 400, headers: [] });
  });
});

describe('require-all-validate mode', () => {
  it('runs nothing when one item fails validation (capture 368)', async () => {
    const c = capture('368-batch-require-all-validate-one-failing.json').response;
    const res = await batch({ validation: 'require-all-validate', requests: [notes('r1')[0], { path: '/notes/v1/notes', body: { value: 'missing name' } }] });
    expect(res.statusCode).toBe(c.status);
    expect(res.json()).toEqual(c.body_json);
    expect(await note('r1')).toBeUndefined();
  });

  it('counts an unknown route and a refused endpoint as validation failures', async () => {
    const res = await batch({ validation: 'require-all-validate', requests: [notes('r2')[0], { path: '/nope/v1/x' }, { path: '/notes/v1/solo' }] });
    const body = res.json();
    expect(body.failed).toBe('validation');
    expect(body.responses[0]).toBeNull();
    expect(body.responses[1].body.code).toBe('rest_no_route');
    expect(body.responses[2]).toEqual({ body: { code: 'rest_batch_not_allowed', message: 'The requested route does not support batch requests.', data: { status: 400 } }, status: 400, headers: [] });
    expect(await note('r2')).toBeUndefined();
  });

  it('runs all items when all validate (capture 369 shape)', async () => {
    const res = await batch({ validation: 'require-all-validate', requests: notes('w1', 'w2') });
    expect(res.statusCode).toBe(207);
    const body = res.json();
    expect(body).not.toHaveProperty('failed');
    expect(body.responses.map((r: { status: number }) => r.status)).toEqual([201, 201]);
    expect((await note('w1'))?.value).toBe('v-w1');
    expect((await note('w2'))?.value).toBe('v-w2');
  });

  it('rolls back the items before a failing one, and does not run those after it', async () => {
    const requests = [...notes('t1', 't2', 't3', 't4', 't5', 't6'), { path: '/notes/v1/notes', body: { name: 't7', fail: true } }, ...notes('t8')];
    const res = await batch({ validation: 'require-all-validate', requests });
    expect(res.statusCode).toBe(207);
    const responses = res.json().responses;
    expect(responses.map((r: { status: number }) => r.status)).toEqual([201, 201, 201, 201, 201, 201, 409, 424]);
    expect(responses[6]).toEqual({ body: { code: 'note_refused', message: 'This note is refused.', data: { status: 409 } }, status: 409, headers: { Allow: 'GET, POST, PUT' } });
    expect(responses[7].body.code).toBe('rest_batch_not_run');
    for (const n of ['t1', 't6', 't7', 't8']) expect(await note(n)).toBeUndefined();
  });

  it('rolls back when an item is refused by its permission check', async () => {
    const editor = await app.auth('subscriber');
    const res = await batch({ validation: 'require-all-validate', requests: notes('p1') }, editor);
    expect(res.json().responses[0].status).toBe(403);
    expect(await note('p1')).toBeUndefined();
  });
});
