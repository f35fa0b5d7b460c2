/** `GET /metrics`: Prometheus text, per route pattern (never the raw URL), behind a bearer token. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from './support/app.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
let app: TestApp;
let closed: TestApp;
beforeAll(async () => {
  app = await testApp({ env: { LINTEL_METRICS_TOKEN: TOKEN } });
  closed = await testApp();
});
afterAll(async () => {
  await app.close();
  await closed.close();
});

const scrape = async () => {
  const r = await app.server.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(r.statusCode).toBe(200);
  expect(r.headers['content-type']).toContain('text/plain');
  return r.body;
};
const sample = (text: string, name: string, labels: string) =>
  Number(text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`))?.split(' ').pop() ?? NaN);

describe('GET /metrics', () => {
  it('does not exist without a configured token', async () => {
    const r = await closed.server.inject({ url: '/metrics' });
    expect(r.statusCode).toBe(404);
    expect(r.body).not.toContain('lintel_http_requests_total');
  });

  it('refuses a missing or wrong token', async () => {
    for (const authorization of [undefined, 'Bearer nope', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`]) {
      const r = await app.server.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(r.statusCode).toBe(401);
      expect(r.headers['www-authenticate']).toContain('Bearer');
      expect(r.body).not.toContain('lintel_');
    }
  });

  it('counts requests and their latency by route pattern, method and status', async () => {
    const before = await scrape();
    const single = 'route="/calendar/events/v1/events/{id}",method="GET",status="404"';
    const was = sample(before, 'lintel_http_requests_total', single) || 0;
    for (const id of [999991, 999992, 999993]) expect((await app.server.inject({ url: `/wp-json/calendar/events/v1/events/${id}` })).statusCode).toBe(404);
    await app.server.inject({ url: '/wp-json/no/such/route' });
    const after = await scrape();
    expect(sample(after, 'lintel_http_requests_total', single)).toBe(was + 3);
    expect(sample(after, 'lintel_http_request_duration_seconds_count', single)).toBe(was + 3);
    expect(after).toContain('lintel_http_requests_total{route="(no route)",method="GET",status="404"}');
    // One series per pattern, not per URL.
    expect(after).not.toMatch(/route="[^"]*99999/);
    expect(after).toMatch(/lintel_store_pool_connections\{state="total"\} [1-9]/);
    // Statements run against the store: the unknown event IDs were looked up in it.
    const statements = (text: string) => Number(/^lintel_store_queries_total (\d+)$/m.exec(text)?.[1]);
    expect(statements(after)).toBeGreaterThan(statements(before));
    // prom-client's default metrics under their standard names.
    expect(after).toContain('process_cpu_user_seconds_total');
    expect(after).toContain('nodejs_eventloop_lag_seconds');
    expect(after).not.toContain('lintel_process_');
    expect(after).not.toContain('lintel_nodejs_');
  });
});
