/**
 * Shadow mode in front of the recorded legacy origin: calendar/events/v1 answered by Lintel and
 * compared with the origin's recorded answers in the background; mismatches stored with both
 * answers, reported per route by the admin route; writes never reach the origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from './support/app.ts';
import { startLegacyOrigin, type LegacyOrigin } from './support/legacy-origin.ts';
import { mappingsDir } from './support/mappings.ts';

const METRICS_TOKEN = 'shadow-metrics-token-0123456789';
let origin: LegacyOrigin;
let app: TestApp;
let mappings: ReturnType<typeof mappingsDir>;

beforeAll(async () => {
  origin = await startLegacyOrigin();
  mappings = mappingsDir({
    'calendar/events/v1': { mode: 'shadow', primary: 'lintel', sample: 1, upstream: 'tribe/events/v1', aliases: ['tribe/events/v1'] },
    'history/v1': { mode: 'shadow', primary: 'legacy', sample: 1, upstream: 'simple-history/v1' },
  });
  app = await testApp({ env: { LINTEL_LEGACY_ORIGIN: origin.url, LINTEL_MAPPINGS_DIR: mappings.dir, LINTEL_SHADOW_NOISE_SAMPLE: '0', LINTEL_METRICS_TOKEN: METRICS_TOKEN } });
});
afterAll(async () => {
  await app.close();
  await origin.close();
  mappings.remove();
});

describe('shadow mode', () => {
  it("answers with the primary's answer, compares the other side's in the background and stores the mismatch", async () => {
    const res = await app.server.inject({ method: 'GET', url: '/wp-json/calendar/events/v1/categories' });
    // Lintel's own answer: its store has no categories, the origin's recorded site has several.
    expect(res.json()).toMatchObject({ categories: [] });
    await app.services.backends.shadowIdle();
    // Asked under the legacy site's own name.
    expect(origin.received.filter((r) => r.url === '/wp-json/tribe/events/v1/categories')).toHaveLength(1);

    const report = await app.store.shadow.report();
    expect(report.routes).toContainEqual({ namespace: 'calendar/events/v1', route: 'GET /calendar/events/v1/categories', compared: 1, matched: 0, rate: 0 });
    const [stored] = await app.store.shadow.mismatches('calendar/events/v1', 'GET /calendar/events/v1/categories');
    expect(stored).toMatchObject({ method: 'GET', url: '/wp-json/calendar/events/v1/categories', primarySide: 'lintel' });
    expect(stored.primary.body).toBe(res.body);
    expect(JSON.parse(stored.shadow.body).categories.length).toBeGreaterThan(0); // the origin's recorded categories
    expect(stored.differences.length).toBeGreaterThan(0);
    expect(report.differences.some((d) => d.route === 'GET /calendar/events/v1/categories' && d.path === stored.differences[0].path)).toBe(true);
  });

  it('leaves out the differences DEVIATIONS.md lists for the route (calendar-doc: $.paths and $.components of /doc)', async () => {
    await app.server.inject({ method: 'GET', url: '/wp-json/tribe/events/v1/doc' });
    await app.services.backends.shadowIdle();
    const [stored] = await app.store.shadow.mismatches('calendar/events/v1', 'GET /calendar/events/v1/doc');
    // What is left is the recorded origin's own address in `servers` (a live origin's is rewritten to Lintel's).
    expect(stored.differences.map((d) => d.path)).toEqual(['$.servers[0].url']);
  });

  it('with the legacy site primary, answers from the origin and compares with Lintel', async () => {
    const res = await app.server.inject({ method: 'GET', url: '/wp-json/history/v1/events/22', headers: { authorization: `Basic ${Buffer.from('admin:x').toString('base64')}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: 22 });
    await app.services.backends.shadowIdle();
    const report = await app.store.shadow.report();
    expect(report.routes.find((r) => r.route === 'GET /history/v1/events/{n}')).toMatchObject({ namespace: 'history/v1', compared: 1 });
  });

  it('sends batch writes of a namespace shadowed with the legacy primary to the legacy site, not to Lintel', async () => {
    origin.received.length = 0;
    const res = await app.server.inject({
      method: 'POST',
      url: '/wp-json/batch/v1',
      headers: { 'content-type': 'application/json' },
      payload: { requests: [{ method: 'POST', path: '/history/v1/events', body: { message: 'Shadowed batch write' } }] },
    });
    expect(res.statusCode).toBe(207);
    expect(origin.received.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /wp-json/simple-history/v1/events']);
    expect(await app.store.sql.query(`select 1 from history_events where context->>'message' = 'Shadowed batch write'`)).toEqual([]);
  });

  it('counts comparisons and forwarded calls in /metrics', async () => {
    const metrics = (await app.server.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    expect(metrics).toMatch(/^lintel_shadow_comparisons_total\{namespace="calendar\/events\/v1",result="mismatch"\} [1-9]/m);
    expect(metrics).toMatch(/^lintel_upstream_calls_total\{kind="forward",outcome="2xx"\} [1-9]/m);
  });

  it('never sends a write to the other side', async () => {
    const admin = await app.auth('administrator');
    origin.received.length = 0;
    await app.server.inject({ method: 'POST', url: '/wp-json/calendar/events/v1/categories', headers: { authorization: admin, 'content-type': 'application/json' }, payload: { name: 'Shadowed' } });
    await app.services.backends.shadowIdle();
    expect(origin.received).toHaveLength(0);
  });

  it('reports to administrators only, at lintel/v1/shadow', async () => {
    expect((await app.server.inject({ method: 'GET', url: '/wp-json/lintel/v1/shadow' })).statusCode).toBe(401);
    const admin = await app.auth('administrator');
    const res = await app.server.inject({ method: 'GET', url: '/wp-json/lintel/v1/shadow', headers: { authorization: admin } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(JSON.parse(JSON.stringify(await app.store.shadow.report())));
    const mismatches = await app.server.inject({
      method: 'GET',
      url: `/wp-json/lintel/v1/shadow/mismatches?namespace=calendar/events/v1&route=${encodeURIComponent('GET /calendar/events/v1/categories')}`,
      headers: { authorization: admin },
    });
    expect((mismatches.json() as unknown[]).length).toBe(1);
  });
});
