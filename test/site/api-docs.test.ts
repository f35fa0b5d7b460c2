/**
 * OpenAPI 3.1 for every served namespace, generated from the route table, and the documentation
 * page a browser reads (checked in headless Chromium where it is installed).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiPath } from '../../src/contract/openapi.ts';
import { exampleOf } from '../../src/site/pages/api-docs.ts';
import { testApp, TEST_BASE, type TestApp } from '../support/app.ts';
import { hasChromium, launchChromium } from '../support/chromium.ts';
import { scaled } from '../support/time.ts';

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
  it('loads Swagger UI from this origin only, under a CSP that allows no other script', async () => {
    const r = await app.server.inject({ url: '/api-docs/' });
    expect(r.statusCode).toBe(200);
    const csp = r.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    const scripts = [...r.body.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts.map((m) => m[1])).toEqual([' src="/api-docs/swagger-ui-bundle.js"', ' src="/api-docs/start.js"']);
    expect(scripts.every((m) => m[2] === '')).toBe(true); // no inline script
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'start.js']) {
      const file = await app.server.inject({ url: `/api-docs/${asset}` });
      expect(file.statusCode, asset).toBe(200);
      expect(file.body.length, asset).toBeGreaterThan(100);
    }
  });

  it('renders, without script, every namespace with each operation\'s roles, answer and example', async () => {
    const r = await app.server.inject({ url: '/api-docs/' });
    const fallback = r.body.slice(r.body.indexOf('<noscript>'), r.body.indexOf('</noscript>'));
    for (const tag of doc.tags) expect(fallback).toContain(`>${tag.name}</h2>`);
    const single = fallback.slice(fallback.indexOf('<code>/calendar/events/v1/events/{id}</code>'));
    expect(single).toContain('Anyone (some records need credentials).');
    expect(single).toMatch(/Answers <strong>200<\/strong> <code>application\/json<\/code>: object/);
    expect(single).toContain('<td><code>start_date_details</code></td>');
    const example = JSON.parse(single.match(/<summary>Example<\/summary><pre><code>([^<]*)<\/code>/)![1]!.replace(/&#34;/g, '"')) as Record<string, unknown>;
    expect(example).toMatchObject({ id: 1, title: 'string', start_date_details: { year: 'string' } });
    const redirects = fallback.slice(fallback.indexOf('<code>/redirection/v1/redirect</code>'));
    expect(redirects).toContain('Needs a user with the role: administrator.');
  });

  describe.skipIf(!hasChromium)('in Chromium', () => {
    it('shows the operations with their answers, example values and required roles', async () => {
      await app.server.listen({ port: 0, host: '127.0.0.1' });
      const origin = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        // Everything the page loads is served (no CDN, nothing missing), and nothing it runs fails.
        const failures: string[] = [];
        page.on('response', (r) => r.status() >= 400 && failures.push(`${r.status()} ${r.url()}`));
        page.on('pageerror', (e) => failures.push(String(e)));
        await page.goto(`${origin}/api-docs/`);
        expect(await page.title()).toBe('Lintel: API reference');
        // Swagger UI lists each namespace as a tag; opening one shows its operations.
        const operation = (method: string, path: string) =>
          page.locator(`.opblock-${method}`, { has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
        const tag = page.locator('h3.opblock-tag[data-tag="calendar/events/v1"]');
        await tag.click();
        const single = operation('get', '/calendar/events/v1/events/{id}');
        await single.locator('.opblock-summary-control').click();
        const ok = single.locator('tr.response[data-code="200"]');
        await ok.waitFor();
        // The example value Swagger UI builds from the declared schema.
        expect(await ok.textContent()).toContain('"start_date_details"');
        expect(await single.textContent()).toContain('Public (some records may still need credentials).');
        await page.locator('h3.opblock-tag[data-tag="redirection/v1"]').click();
        const redirects = operation('get', '/redirection/v1/redirect');
        await redirects.locator('.opblock-summary-control').click();
        await expect.poll(() => redirects.textContent()).toContain('Needs credentials of a user with one of the roles: administrator.');
        expect(failures).toEqual([]);
      } finally {
        await browser.close();
      }
    }, scaled(90_000));
  });

  it('has the example generator follow the schema', () => {
    expect(exampleOf({ type: 'object', properties: { a: { type: 'integer', minimum: 3 }, b: { type: 'string' }, c: { type: 'boolean' } }, required: ['a', 'b'] })).toEqual({ a: 3, b: 'string' });
    expect(exampleOf({ anyOf: [{ type: 'array', items: { enum: ['x', 'y'] } }, { type: 'null' }] })).toEqual(['x']);
  });
});
