/**
 * OpenAPI 3.1 for every served namespace, generated from the route table, and the documentation
 * page a browser reads (checked in headless Chromium where it is installed).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiPath } from '../../src/contract/openapi.ts';
import { testApp, TEST_BASE, type TestApp } from '../support/app.ts';
import { hasChromium, launchChromium } from '../support/chromium.ts';

type Doc = { openapi: string; servers: { url: string }[]; tags: { name: string; 'x-aliases'?: string[] }[]; paths: Record<string, Record<string, any>> };

let app: TestApp;
let doc: Doc;
let index: { namespaces: string[]; routes: Record<string, { endpoints: { methods: string[]; args: Record<string, any> }[] }> };
beforeAll(async () => {
  app = await testApp();
  const r = await app.server.inject({ url: '/openapi.json' });
  expect(r.statusCode).toBe(200);
  expect(r.headers['content-type']).toBe('application/json; charset=UTF-8');
  doc = r.json();
  index = (await app.server.inject({ url: '/wp-json/' })).json();
});
afterAll(() => app.close());

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 with the REST base as its server', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: `${TEST_BASE}/wp-json` }]);
  });

  it('has a tag for every namespace of the site index except aliases, which it names', () => {
    const tags = doc.tags.map((t) => t.name);
    const aliases = doc.tags.flatMap((t) => t['x-aliases'] ?? []);
    expect(aliases).toContain('tribe/events/v1');
    for (const ns of index.namespaces) expect(aliases.includes(ns) || tags.includes(ns), ns).toBe(true);
  });

  it('lists every route and method of the index (aliases aside) with the same arguments', () => {
    const aliases = new Set(doc.tags.flatMap((t) => t['x-aliases'] ?? []));
    let checked = 0;
    for (const [pattern, entry] of Object.entries(index.routes)) {
      if ([...aliases].some((a) => pattern.startsWith(`/${a}`))) continue;
      const item = doc.paths[openApiPath(pattern).path || '/'];
      expect(item, pattern).toBeDefined();
      for (const e of entry.endpoints) {
        for (const method of e.methods) {
          const op = item![method.toLowerCase()];
          expect(op, `${method} ${pattern}`).toBeDefined();
          const names = [
            ...op.parameters.map((p: { name: string }) => p.name),
            ...Object.keys(op.requestBody?.content['application/json'].schema.properties ?? {}),
          ];
          for (const arg of Object.keys(Array.isArray(e.args) ? {} : e.args)) expect(names, `${method} ${pattern} ${arg}`).toContain(arg);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('turns legacy path groups into path parameters with their pattern, and list bounds into schema bounds', () => {
    const single = doc.paths['/calendar/events/v1/events/{id}']!.get;
    expect(single.parameters.find((p: { in: string }) => p.in === 'path')).toMatchObject({ name: 'id', required: true, schema: { pattern: '^(?:\\d+)$' } });
    const list = doc.paths['/calendar/events/v1/events']!.get;
    const perPage = list.parameters.find((p: { name: string }) => p.name === 'per_page');
    const legacy = index.routes['/calendar/events/v1/events']!.endpoints[0]!.args.per_page;
    expect(perPage.in).toBe('query');
    const { required, ...descriptor } = legacy;
    expect(required).toBe(false);
    expect(perPage.required).toBe(false);
    expect(perPage.schema).toMatchObject(descriptor);
    const create = doc.paths['/calendar/events/v1/events']!.post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['title', 'start_date', 'end_date']));
    expect(create['x-allow-batch']).toBe(true);
  });
});

describe('GET /api-docs/', () => {
  it('renders every namespace as a section, without script, under a strict CSP', async () => {
    const r = await app.server.inject({ url: '/api-docs/' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-security-policy']).toContain("default-src 'none'");
    expect(r.body).not.toMatch(/<script/i);
    for (const tag of doc.tags) expect(r.body).toContain(`>${tag.name}</h2>`);
    expect(r.body).toContain('<code>/calendar/events/v1/events/{id}</code>');
  });

  describe.skipIf(!hasChromium)('in Chromium', () => {
    it('shows the headings and parameter tables at phone width without horizontal overflow', async () => {
      await app.server.listen({ port: 0, host: '127.0.0.1' });
      const origin = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
        await page.goto(`${origin}/api-docs/`);
        expect(await page.title()).toBe('Lintel: API reference');
        expect(await page.getByRole('heading', { level: 2, name: 'calendar/events/v1' }).isVisible()).toBe(true);
        await page.getByRole('link', { name: 'redirection/v1' }).click();
        expect(await page.getByRole('heading', { level: 2, name: 'redirection/v1' }).isVisible()).toBe(true);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      } finally {
        await browser.close();
      }
    }, 60_000);
  });
});
