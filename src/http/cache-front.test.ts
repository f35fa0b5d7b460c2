/**
 * The cache front answers response-cache hits on the socket, ahead of Fastify: a client must not
 * tell its answers from the pipeline's (which `inject` exercises, bypassing the socket), and
 * requests that may not use the cache, writes included, must still reach the pipeline.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/support/app.ts';

const TOKEN = 'metrics-token-for-cache-front-tests';
const ARCHIVE = '/wp-json/calendar/events/v1/events?start_date=2020-01-01';
// Headers that differ between any two answers.
const PER_ANSWER = new Set(['date', 'x-request-id', 'connection', 'keep-alive', 'transfer-encoding']);

let app: TestApp;
let base: string;
beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:00:00Z', LINTEL_DEMO_DATA: 'true', LINTEL_METRICS_TOKEN: TOKEN } });
  await app.server.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
});
afterAll(() => app.close());

const comparable = (headers: Iterable<[string, string]>) => Object.fromEntries([...headers].filter(([k]) => !PER_ANSWER.has(k)).sort(([a], [b]) => a.localeCompare(b)));

describe('cache front', () => {
  it('answers a hit on the socket exactly as the pipeline answers it: GET, HEAD and a 304', async () => {
    for (const url of [ARCHIVE, '/wp-json/', '/fr/wp-json/calendar/events/v1/venues']) {
      const miss = await fetch(base + url);
      expect(miss.headers.get('x-lintel-cache')).toBe('miss');
      const etag = miss.headers.get('etag')!;
      for (const [method, headers] of [['GET', {}], ['HEAD', {}], ['GET', { 'if-none-match': etag }]] as const) {
        const viaPipeline = await app.server.inject({ method, url, headers });
        const viaSocket = await fetch(base + url, { method, headers });
        expect(viaSocket.headers.get('x-lintel-cache')).toBe('hit');
        expect(viaSocket.status).toBe(viaPipeline.statusCode);
        expect(comparable(viaSocket.headers)).toEqual(comparable(Object.entries(viaPipeline.headers).map(([k, v]) => [k, String(v)])));
        expect(await viaSocket.text()).toBe(viaPipeline.body);
      }
    }
  });

  it('keeps a client\'s request id, and gives one otherwise', async () => {
    await fetch(base + ARCHIVE);
    const given = await fetch(base + ARCHIVE, { headers: { 'x-request-id': 'client-id-42' } });
    expect(given.headers.get('x-lintel-cache')).toBe('hit');
    expect(given.headers.get('x-request-id')).toBe('client-id-42');
    const made = await fetch(base + ARCHIVE, { headers: { 'x-request-id': 'not an id; <script>' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('leaves credentials and method overrides to the pipeline, and a write is seen on the next read', async () => {
    await fetch(base + ARCHIVE);
    const admin = await app.auth('administrator');
    const authed = await fetch(base + ARCHIVE, { headers: { authorization: admin } });
    expect(authed.status).toBe(200);
    expect(authed.headers.get('x-lintel-cache')).toBeNull();
    const overridden = await fetch(base + ARCHIVE, { headers: { 'x-http-method-override': 'GET' } });
    expect(overridden.headers.get('x-lintel-cache')).toBeNull();
    const created = await fetch(`${base}/wp-json/calendar/events/v1/events`, {
      method: 'POST',
      headers: { authorization: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Seen At Once', start_date: '2027-06-01 20:00:00', end_date: '2027-06-01 22:00:00' }),
    });
    expect(created.status).toBe(201);
    const after = await fetch(base + ARCHIVE);
    expect(after.headers.get('x-lintel-cache')).toBe('miss');
    expect(await after.text()).toContain('Seen At Once');
  });

  it('counts its hits in the metrics, under the route pattern', async () => {
    const scrape = async () => (await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text()).split('\n');
    const sample = (lines: string[], prefix: string) => Number(lines.find((l) => l.startsWith(prefix))?.split(' ').pop() ?? 0);
    const hits = 'lintel_response_cache_lookups_total{result="hit"}';
    const archive = 'lintel_http_requests_total{route="/calendar/events/v1/events",method="GET",status="200"}';
    await fetch(base + ARCHIVE);
    const before = await scrape();
    for (let i = 0; i < 3; i++) expect((await fetch(base + ARCHIVE)).headers.get('x-lintel-cache')).toBe('hit');
    const after = await scrape();
    expect(sample(after, hits)).toBe(sample(before, hits) + 3);
    expect(sample(after, archive)).toBe(sample(before, archive) + 3);
  });
});
