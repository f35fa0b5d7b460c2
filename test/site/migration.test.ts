/**
 * `GET /lintel/migration`: administrators only; per namespace its mode, the shadow match rate per
 * route and per hour, the top data differences with an example, credential refusals apart, and the
 * last import, read in headless Chromium.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShadowAnswer, ShadowComparison } from '../../src/store/shadow.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { hasChromium, launchChromium } from '../support/chromium.ts';
import { scaled } from '../support/time.ts';

let app: TestApp;
const NOW = '2026-11-25T10:30:00Z';

const answer = (status: number, body: unknown): ShadowAnswer => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const comparison = (over: Partial<ShadowComparison>): ShadowComparison => ({
  namespace: 'calendar/events/v1',
  route: 'GET /calendar/events/v1/events',
  method: 'GET',
  url: '/wp-json/calendar/events/v1/events',
  primarySide: 'legacy',
  primary: answer(200, { total: 3 }),
  shadow: answer(200, { total: 3 }),
  differences: [],
  ...over,
});

beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: NOW } });
  const at = new Date(NOW);
  const earlier = new Date(at.getTime() - 3 * 3_600_000);
  await app.store.shadow.record(comparison({}), earlier);
  await app.store.shadow.record(comparison({}), at);
  await app.store.shadow.record(
    comparison({ url: '/wp-json/calendar/events/v1/events?page=2', shadow: answer(200, { total: 4 }), differences: [{ path: '$.total', expected: 3, actual: 4 }] }),
    at,
  );
  await app.store.shadow.record(
    comparison({ route: 'GET /calendar/events/v1/events/{n}', url: '/wp-json/calendar/events/v1/events/9', shadow: answer(401, { code: 'incorrect_password' }), differences: [{ path: 'status', expected: 200, actual: 401 }] }),
    at,
  );
  await app.store.importCheckpoints.save('https://old.example.org', 'calendar.events', 4, true);
});
afterAll(() => app.close());

describe('GET /lintel/migration', () => {
  it('asks anonymous visitors to sign in and refuses users who are not administrators', async () => {
    const anonymous = await app.server.inject({ url: '/lintel/migration' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Basic /);
    expect((await app.server.inject({ url: '/lintel/migration', headers: { authorization: await app.auth('editor') } })).statusCode).toBe(403);
  });

  it('keeps credential refusals apart from data differences', async () => {
    const r = await app.server.inject({ url: '/lintel/migration', headers: { authorization: await app.auth('administrator') } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-security-policy']).toContain("default-src 'none'");
    expect(r.body).not.toContain('<script');
    // The 401 of one side is not among the data differences.
    expect(r.body).not.toMatch(/<td><code>status<\/code><\/td>/);
  });

  describe.skipIf(!hasChromium)('in Chromium', () => {
    it('shows modes, match rates per route and hour, differences with an example, refusals and the last import', async () => {
      await app.server.listen({ port: 0, host: '127.0.0.1' });
      const origin = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ extraHTTPHeaders: { authorization: await app.auth('administrator') } });
        await page.goto(`${origin}/lintel/migration`);
        expect(await page.title()).toBe('Migration · Lintel');
        const rows = (heading: string) =>
          page.locator('section', { has: page.getByRole('heading', { level: 2, name: heading }) }).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
        expect(await rows('Namespaces')).toContainEqual(['calendar/events/v1', 'translate']);
        const rates = await rows('Shadow match rate per route');
        expect(rates).toContainEqual(['calendar/events/v1', 'GET /calendar/events/v1/events', '3', '2', '66.7%', '']);
        // Two hours with comparisons in the last day: 3 hours ago (all matched) and now (one of two).
        const hours = await page.locator('tbody tr').filter({ has: page.locator('td:nth-child(5)', { hasText: '66.7%' }) }).locator('.hour[data-rate]').evaluateAll((s) => s.map((e) => e.getAttribute('data-rate')));
        expect(hours).toEqual(['1', '0.5']);
        expect(await rows('Data differences seen most often')).toEqual([
          ['GET /calendar/events/v1/events', '$.total', '1', '/wp-json/calendar/events/v1/events?page=2expected 3got 4'],
        ]);
        expect(await rows('Credential refusals')).toEqual([['calendar/events/v1', 'GET /calendar/events/v1/events/{n}', '1']]);
        expect(await rows('Last import or sync')).toEqual([['calendar.events', '4', 'yes', expect.stringMatching(/^\d{4}-/)]]);
      } finally {
        await browser.close();
      }
    }, scaled(60_000));
  });
});
