import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

const backend = (over: { origin?: null; rewriteBodies?: boolean } = {}) =>
  forwardBackend({
    origin: over.origin === null ? null : openOrigin(LEGACY, 1_000, agent),
    lintelBase: LINTEL,
    renamings: [{ requested: 'history/v1', upstream: 'simple-history/v1' }],
    rewriteBodies: over.rewriteBodies ?? true,
    failure: restFailure({ baseUrl: LINTEL, restPrefix: 'wp-json' }),
  });

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
    expect((await backend()(call('/wp-json/history/v1/events/22'))).status).toBe(200);
    expect((await backend()(call('/', 'rest_route=%2Fhistory%2Fv1%2Fevents&per_page=2'))).status).toBe(200);
    agent.assertNoPendingInterceptors();
  });

  it("sends an address on Lintel's base in the query (oEmbed's url=) as the same address on the origin's", async () => {
    const pool = agent.get(LEGACY);
    const asked = encodeURIComponent(`${LEGACY}/event/open-day/?x=1`);
    pool.intercept({ path: `/wp-json/oembed/1.0/embed?url=${asked}&format=json`, method: 'GET' }).reply(200, '{}', { headers: { 'content-type': 'application/json' } });
    pool.intercept({ path: `/wp-json/oembed/1.0/embed?url=${encodeURIComponent('https://lintel.example.org/x')}`, method: 'GET' }).reply(200, '{}', { headers: { 'content-type': 'application/json' } });
    const sent = await backend()(call('/wp-json/oembed/1.0/embed', `url=${encodeURIComponent(`${LINTEL}/event/open-day/?x=1`)}&format=json`));
    expect(sent.status).toBe(200);
    // Another host that merely starts like Lintel's base is left alone.
    expect((await backend()(call('/wp-json/oembed/1.0/embed', `url=${encodeURIComponent('https://lintel.example.org/x')}`))).status).toBe(200);
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
    const a = await backend()(call('/wp-json/history/v1'));
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
    const a = await backend()(call('/wp-json/history/v1/email-report/preview/html'));
    expect(await text(a.body)).toBe(`<a href="${LEGACY}/x">x</a>`);
    expect(a.headers['keep-alive']).toBeUndefined();
    expect(a.headers['x-kept']).toBe('1');
  });

  it('answers 502 rest_upstream_unavailable when the origin cannot be reached or is not configured', async () => {
    agent.get(LEGACY).intercept({ path: '/wp-json/simple-history/v1/events', method: 'GET' }).replyWithError(new Error('connect ECONNREFUSED'));
    for (const b of [backend(), backend({ origin: null })]) {
      const a = await b(call('/wp-json/history/v1/events'));
      expect(a.status).toBe(502);
      expect(JSON.parse(await text(a.body))).toMatchObject({ code: 'rest_upstream_unavailable', data: { status: 502 } });
    }
  });
});
