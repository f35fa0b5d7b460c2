import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UNCANCELLED } from './backend.ts';
import { forwardBackend, openOrigin } from './forward.ts';
import { restFailure } from './failure.ts';
import { backendCall } from '../../test/support/backend-call.ts';

const LEGACY = 'http://legacy.test';
const LINTEL = 'https://lintel.example';
let agent: MockAgent;

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
});
afterEach(() => agent.close());

const options = (over: { origin?: null; rewriteBodies?: boolean } = {}) => ({
  origin: over.origin === null ? null : openOrigin(LEGACY, 1_000, 4096, agent),
  lintelBase: LINTEL,
  renamings: [{ requested: 'history/v1', upstream: 'simple-history/v1' }],
  rest: { restPrefix: 'wp-json', locales: ['fr'] },
  rewriteBodies: over.rewriteBodies ?? true,
  failure: restFailure({ baseUrl: LINTEL, restPrefix: 'wp-json' }),
});
const backend = (over: { origin?: null; rewriteBodies?: boolean } = {}) => forwardBackend(options(over));

const call = backendCall;

async function text(body: unknown): Promise<string> {
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  const chunks: Buffer[] = [];
  for await (const c of body as AsyncIterable<Buffer>) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks).toString('utf8');
}

describe('the forward backend', () => {
  it('renames the namespace in the path and in rest_route on the way out', async () => {
    const pool = agent.get(LEGACY);
    pool.intercept({ path: '/wp-json/simple-history/v1/events/22', method: 'GET' }).reply(200, '{}', { headers: { 'content-type': 'application/json' } });
    pool.intercept({ path: '/?rest_route=/simple-history/v1/events&per_page=2', method: 'GET' }).reply(200, '[]', { headers: { 'content-type': 'application/json' } });
    expect((await backend()(call('/wp-json/history/v1/events/22'), UNCANCELLED)).status).toBe(200);
    expect((await backend()(call('/', 'rest_route=%2Fhistory%2Fv1%2Fevents&per_page=2'), UNCANCELLED)).status).toBe(200);
    agent.assertNoPendingInterceptors();
  });

  it("sends an address on Lintel's base in the query (oEmbed's url=) as the same address on the origin's", async () => {
    const pool = agent.get(LEGACY);
    const asked = encodeURIComponent(`${LEGACY}/event/open-day/?x=1`);
    pool.intercept({ path: `/wp-json/oembed/1.0/embed?url=${asked}&format=json`, method: 'GET' }).reply(200, '{}', { headers: { 'content-type': 'application/json' } });
    pool.intercept({ path: `/wp-json/oembed/1.0/embed?url=${encodeURIComponent('https://lintel.example.org/x')}`, method: 'GET' }).reply(200, '{}', { headers: { 'content-type': 'application/json' } });
    const sent = await backend()(call('/wp-json/oembed/1.0/embed', `url=${encodeURIComponent(`${LINTEL}/event/open-day/?x=1`)}&format=json`), UNCANCELLED);
    expect(sent.status).toBe(200);
    // Another host that merely starts like Lintel's base is left alone.
    expect((await backend()(call('/wp-json/oembed/1.0/embed', `url=${encodeURIComponent('https://lintel.example.org/x')}`), UNCANCELLED)).status).toBe(200);
    agent.assertNoPendingInterceptors();
  });

  it("rewrites the origin's URLs and legacy names in JSON bodies and in Link and Location headers", async () => {
    const body = {
      namespace: 'simple-history/v1',
      rest_url: `${LEGACY}/wp-json/simple-history/v1/events?page=2`,
      next_rest_url: `${LEGACY}/?rest_route=%2Fsimple-history%2Fv1%2Fevents&page=3`,
      routes: { '/simple-history/v1/events': { namespace: 'simple-history/v1', _links: { self: [{ href: `${LEGACY}/wp-json/simple-history/v1/events` }] } } },
      message: 'mentions simple-history/v1 in passing',
      message_html: `Updated <a href="${LEGACY}/wp-admin/post.php?post=22">x</a> (not <a href="${LEGACY}.other/">y</a>)`,
      other: `${LEGACY}-not-the-origin/wp-json/`,
    };
    agent.get(LEGACY).intercept({ path: '/wp-json/simple-history/v1', method: 'GET' }).reply(200, JSON.stringify(body), {
      headers: { 'content-type': 'application/json; charset=UTF-8', link: `<${LEGACY}/wp-json/simple-history/v1/events?page=2>; rel="next"`, location: `${LEGACY}/wp-json/simple-history/v1/events/9` },
    });
    const a = await backend()(call('/wp-json/history/v1'), UNCANCELLED);
    expect(JSON.parse(await text(a.body))).toEqual({
      namespace: 'history/v1',
      rest_url: `${LINTEL}/wp-json/history/v1/events?page=2`,
      next_rest_url: `${LINTEL}/?rest_route=${encodeURIComponent('/history/v1/events')}&page=3`,
      routes: { '/history/v1/events': { namespace: 'history/v1', _links: { self: [{ href: `${LINTEL}/wp-json/history/v1/events` }] } } },
      message: 'mentions simple-history/v1 in passing',
      message_html: `Updated <a href="${LINTEL}/wp-admin/post.php?post=22">x</a> (not <a href="${LEGACY}.other/">y</a>)`,
      other: `${LEGACY}-not-the-origin/wp-json/`,
    });
    expect(a.headers.link).toBe(`<${LINTEL}/wp-json/history/v1/events?page=2>; rel="next"`);
    expect(a.headers.location).toBe(`${LINTEL}/wp-json/history/v1/events/9`);
  });

  it('streams other bodies as they are and drops hop-by-hop response headers', async () => {
    agent.get(LEGACY).intercept({ path: '/wp-json/simple-history/v1/email-report/preview/html', method: 'GET' }).reply(200, `<a href="${LEGACY}/x">x</a>`, {
      headers: { 'content-type': 'text/html', 'keep-alive': 'timeout=5', 'x-kept': '1' },
    });
    const a = await backend()(call('/wp-json/history/v1/email-report/preview/html'), UNCANCELLED);
    expect(await text(a.body)).toBe(`<a href="${LEGACY}/x">x</a>`);
    expect(a.headers['keep-alive']).toBeUndefined();
    expect(a.headers['x-kept']).toBe('1');
  });

  it('answers 502 rest_upstream_unavailable when the origin cannot be reached or is not configured', async () => {
    agent.get(LEGACY).intercept({ path: '/wp-json/simple-history/v1/events', method: 'GET' }).replyWithError(new Error('connect ECONNREFUSED'));
    for (const b of [backend(), backend({ origin: null })]) {
      const a = await b(call('/wp-json/history/v1/events'), UNCANCELLED);
      expect(a.status).toBe(502);
      expect(JSON.parse(await text(a.body))).toMatchObject({ code: 'rest_upstream_unavailable', data: { status: 502 } });
    }
  });
});

describe('a forwarded call names no other route of the origin', () => {
  const seen = () => {
    const got: { path: string; body: string; headers: Record<string, string> }[] = [];
    agent
      .get(LEGACY)
      .intercept({ path: () => true, method: () => true })
      .reply(200, (opts) => {
        got.push({ path: String(opts.path), body: String(opts.body ?? ''), headers: opts.headers as Record<string, string> });
        return '{}';
      })
      .persist();
    return got;
  };

  it('drops every spelling of rest_route PHP would read from the query, and keeps only the one Lintel routed by', async () => {
    const got = seen();
    const spellings = ['rest_route', 'rest.route', 'rest%20route', '%20rest_route', 'rest%5Broute', 'rest_route%5B%5D', 'rest_route%00x'];
    for (const s of spellings) await backend()(call('/wp-json/history/v1/events', `${s}=/wp/v2/users&per_page=2`), UNCANCELLED);
    await backend()(call('/', 'rest_route=/history/v1/events&page=2'), UNCANCELLED);
    // PHP reads `rest[route` as a second `rest_route` (the last one wins): Lintel routes by neither, and sends neither.
    await backend()(call('/', 'rest_route=/history/v1/events&rest%5Broute=/wp/v2/users&page=2'), UNCANCELLED);
    expect(got.map((g) => g.path)).toEqual([...spellings.map(() => '/wp-json/simple-history/v1/events?per_page=2'), '/?rest_route=/simple-history/v1/events&page=2', '/?page=2']);
  });

  it('drops rest_route from form and JSON bodies and refuses a multipart body naming it', async () => {
    const got = seen();
    const post = (type: string, body: string) => backend()(call('/wp-json/history/v1/events', '', { method: 'POST', headers: { 'content-type': type }, body: Buffer.from(body) }), UNCANCELLED);
    await post('application/x-www-form-urlencoded', 'a=1&rest_route=%2Fwp%2Fv2%2Fusers&rest.route=/x');
    await post('application/json', JSON.stringify({ a: 1, rest_route: '/wp/v2/users' }));
    const refused = await post('multipart/form-data; boundary=b', '--b\r\nContent-Disposition: form-data; name="rest_route"\r\n\r\n/wp/v2/users\r\n--b--\r\n');
    expect(got.map((g) => g.body)).toEqual(['a=1', '{"a":1}']);
    expect(refused.status).toBe(400);
    expect(JSON.parse(await text(refused.body))).toMatchObject({ code: 'rest_forwarded_route' });
  });

  it('never forwards a path that climbs out of its namespace, however often its dots are encoded', async () => {
    const got = seen();
    for (const p of ['/wp-json/history/v1/..%2F..%2Fwp/v2/users', '/wp-json/history/v1/%252e%252e/%252e%252e/wp/v2/users', '/wp-json/history/v1/%5C..%5Cwp']) {
      expect((await backend()(call(p), UNCANCELLED)).status).toBe(404);
    }
    expect(got).toEqual([]);
  });

  it("sets the client's identity headers itself, dropping the client's own unless a proxy is trusted", async () => {
    const got = seen();
    const claims = { 'x-forwarded-for': '10.9.9.9', 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'gopher', 'x-real-ip': '10.9.9.9', forwarded: 'for=10.9.9.9' };
    await backend()(call('/wp-json/history/v1/events', '', { headers: claims }), UNCANCELLED);
    await forwardBackend({ ...options(), trustProxy: true })(call('/wp-json/history/v1/events', '', { headers: claims }), UNCANCELLED);
    expect(got[0].headers).toMatchObject({ 'x-forwarded-for': '127.0.0.1', 'x-forwarded-host': 'lintel.example', 'x-forwarded-proto': 'https', 'x-real-ip': '127.0.0.1' });
    expect(got[0].headers.forwarded).toBeUndefined();
    expect(got[1].headers).toMatchObject({ 'x-forwarded-for': '10.9.9.9, 127.0.0.1', forwarded: 'for=10.9.9.9' });
  });
});
