/** The five auxiliary namespaces are translated by the shipped mappings, and `"mode": "forward"` sends each to the legacy origin instead. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../src/store/store.ts';
import { testApp } from './support/app.ts';
import { testStore } from './support/store.ts';

const AUX = ['blocks/v3', 'downloads', 'widgets/ai/v1', 'forms-submissions', 'forms-views'];
let store: OpenStore;

beforeAll(async () => {
  store = await testStore();
});
afterAll(() => store.close());

describe('auxiliary namespaces in mappings', () => {
  it('are translated as shipped: each is in the index with its routes', async () => {
    const app = await testApp({ store });
    const index = (await app.server.inject({ url: '/wp-json/' })).json();
    for (const ns of AUX) {
      expect(index.namespaces).toContain(ns);
      expect(Object.values(index.routes).filter((r: any) => r.namespace === ns).length, ns).toBeGreaterThan(1);
    }
    await app.server.close();
  });

  it('a forwarded namespace is answered by the legacy origin, not from the store', async () => {
    // A stand-in origin: its index lists the namespaces (no routes), and every other request says where it arrived.
    const origin = createServer((req, res) => {
      const body = req.url === '/wp-json/' ? { namespaces: AUX, routes: {} } : { answeredBy: 'origin', url: req.url };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    const app = await testApp({
      store,
      env: { LINTEL_LEGACY_ORIGIN: `http://127.0.0.1:${(origin.address() as AddressInfo).port}` },
      mappings: (m) => ({ ...m, namespaces: { ...m.namespaces, ...Object.fromEntries(AUX.map((ns) => [ns, { mode: 'forward' as const, aliases: [], batch: true }])) } }),
    });
    try {
      const index = (await app.server.inject({ url: '/wp-json/' })).json();
      for (const ns of AUX) expect(Object.values(index.routes).some((r: any) => r.namespace === ns), ns).toBe(false);
      const search = await app.server.inject({ url: '/wp-json/downloads/search?search=x' });
      expect(search.json()).toEqual({ answeredBy: 'origin', url: '/wp-json/downloads/search?search=x' });
    } finally {
      await app.server.close();
      origin.close();
    }
  });
});
