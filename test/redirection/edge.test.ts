import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeFor } from '../../src/namespaces/redirection/edge/registry.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { capture, insertRecordedState } from './support.ts';

let app: TestApp;
beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:09:56Z', LINTEL_BASE_URL: 'http://127.0.0.1:8088' } });
  // Held at the recorded instant, which a cached redirect's Expires counts from (every part shares this clock object).
  const recorded = new Date('2026-11-21T12:09:56Z');
  Object.assign(app.services.clock, { now: () => recorded });
  await app.store.options.setSite({ name: 'Oracle Site', description: 'Reference oracle' });
  await insertRecordedState(app.store);
});
afterAll(() => app.close());

const seqs = [435, 436, 437, 438, 439, 440, 441, 442, 443, 444];

describe('site requests against the recorded redirects (435-444)', () => {
  it.each(seqs)('capture %i: status, Location, X-Redirect-By, the cache and discovery headers', async (seq) => {
    const c = capture(seq);
    const res = await app.server.inject({ method: 'GET', url: c.request.url, headers: { 'user-agent': c.request.headers['User-Agent']!, host: '127.0.0.1:8088' } });
    expect(res.statusCode).toBe(c.response.status);
    expect(res.headers.location).toBe(c.response.headers.Location);
    expect(res.headers['x-redirect-by']).toBe(c.response.headers['X-Redirect-By']);
    expect([res.headers['cache-control'], res.headers.expires]).toEqual([c.response.headers['Cache-Control'], c.response.headers.Expires]);
    // The calendar's discovery headers come with the pages WordPress renders (404 and error pages), not with redirects.
    for (const h of ['X-TEC-API-VERSION', 'X-TEC-API-ROOT', 'X-TEC-API-ORIGIN']) expect(res.headers[h.toLowerCase()], h).toBe(c.response.headers[h]);
  });

  it('counts hits and writes the log and 404 rows the recorded site wrote (445-447)', async () => {
    await edgeFor(app.services).flush();
    const hits = await app.store.sql.query<{ id: number; hits: number; seen: boolean }>('select id, hits, last_access is not null as seen from redirection_items order by id');
    // Hits in 447 less those in the state before (413): old-page 3 requests, blog, partner and archive 1; the 410 page none.
    const recorded = new Map((capture(447).response.body_json as { items: Array<{ id: number; hits: number }> }).items.map((r) => [r.id, r.hits]));
    for (const [id, was] of [[1, 0], [2, 1], [3, 0], [6, 0], [8, 0]] as const) {
      const now = hits.find((h) => h.id === id)!;
      expect(now.hits - was).toBe(recorded.get(id)! - was);
      expect(now.hits - was).toBe(id === 3 ? 0 : id === 1 ? 3 : 1);
      expect(now.seen).toBe(id !== 3);
    }
    const logs = await app.store.sql.query<Record<string, unknown>>('select url, sent_to, http_code, redirection_id, domain, agent, referrer, ip, request_method from redirection_logs order by id');
    const want = (capture(445).response.body_json as { items: Array<Record<string, unknown>> }).items.filter((l) => l.agent === 'Mozilla/5.0 (oracle-capture)').reverse();
    expect(logs).toEqual(want.map((l) => ({ url: l.url, sent_to: l.sent_to, http_code: l.http_code, redirection_id: l.redirection_id, domain: l.domain, agent: l.agent, referrer: l.referrer, ip: l.ip, request_method: l.request_method })));
    const missing = await app.store.sql.query<{ url: string; http_code: number }>('select url, http_code from redirection_404 order by id');
    const want404 = (capture(446).response.body_json as { items: Array<{ url: string; agent: string; http_code: number }> }).items.filter((l) => l.agent === 'Mozilla/5.0 (oracle-capture)').reverse();
    expect(missing).toEqual(want404.map((l) => ({ url: l.url, http_code: l.http_code })));
  });

  it('writes no 404 rows when expire_404 is -1, and picks up rule changes after invalidate', async () => {
    await app.store.options.set('redirection', { expire_404: -1 });
    const edge = edgeFor(app.services);
    edge.invalidate();
    await edge.flush();
    const [{ n: before }] = await app.store.sql.query<{ n: number }>('select count(*)::int as n from redirection_404');
    await app.server.inject({ method: 'GET', url: '/nowhere' });
    await app.store.sql.query(`update redirection_items set enabled = true where id = 4`);
    edge.invalidate();
    const res = await app.server.inject({ method: 'GET', url: '/promo' });
    expect([res.statusCode, res.headers.location]).toEqual([302, '/events/']);
    await edge.flush();
    const [{ n: after }] = await app.store.sql.query<{ n: number }>('select count(*)::int as n from redirection_404');
    expect(after).toBe(before);
  });

  it('reads a source flag the stored settings lack as the plugin default, as the API does (flag_case false)', async () => {
    await app.store.options.set('redirection', { expire_404: -1 });
    expect((await app.store.redirection.settings.get()).flag_case).toBe(false);
    const edge = edgeFor(app.services);
    edge.invalidate();
    const exact = await app.server.inject({ method: 'GET', url: '/old-page' });
    expect([exact.statusCode, exact.headers.location]).toEqual([301, '/new-page/']);
    expect((await app.server.inject({ method: 'GET', url: '/OLD-PAGE' })).statusCode).toBe(404);
    await edge.flush();
  });
});

// After the hit counts above: these requests add hits of their own.
describe('the cache headers of a redirect', () => {
  it.each([
    [24, 'max-age=86400', 'Sun, 22 Nov 2026 12:09:56 GMT'],
    [-1, 'no-cache, must-revalidate, max-age=0, no-store, private', 'Wed, 11 Jan 1984 05:00:00 GMT'],
    [0, undefined, undefined],
  ])('caches a 301 for redirect_cache %i hours as the plugin does, and no other redirect', async (hours, cacheControl, expires) => {
    await app.store.options.set('redirection', { redirect_cache: hours });
    edgeFor(app.services).invalidate();
    const res = await app.server.inject({ method: 'GET', url: '/old-page', headers: { host: '127.0.0.1:8088' } });
    expect([res.statusCode, res.headers['cache-control'], res.headers.expires]).toEqual([301, cacheControl, expires]);
    const temporary = await app.server.inject({ method: 'GET', url: capture(443).request.url, headers: { host: '127.0.0.1:8088' } });
    expect([temporary.statusCode, temporary.headers['cache-control']]).toEqual([302, undefined]);
    await app.store.options.set('redirection', { redirect_cache: 1 });
    edgeFor(app.services).invalidate();
  });
});

// After the hit counts above: these requests add hits of their own.
describe('the Location of a regex rule holding the decoded request', () => {
  // What the legacy site sent for the rule `^/blog/(.*)$` → `/news/$1`: wp_redirect's wp_sanitize_redirect.
  it.each([
    ['/blog/a%0D%0Ab%22x%3Cy%3E', '/news/abxy'],
    ['/blog/%C3%A9%20x%7e%E2%82%AC', '/news/%C3%A9%20x~%E2%82%AC'],
    ["/blog/%F0%9F%98%80'(q)", '/news/%F0%9F%98%80(q)'],
  ])('%s is redirected to %s, without line breaks or characters a header may not hold', async (url, location) => {
    const res = await app.server.inject({ method: 'GET', url });
    expect([res.statusCode, res.headers.location]).toEqual([301, location]);
  });
});
