/**
 * A legacy origin that breaks off its answer mid-body: where Lintel reads the answer whole (a
 * batch item, a shadowed read) the client gets the forwarding error, never a 500.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from './support/app.ts';
import { FORWARD_HISTORY, mappingsDir } from './support/mappings.ts';

let origin: Server;
let originUrl: string;
beforeAll(async () => {
  origin = createServer((req, res) => {
    if (req.url === '/wp-json/') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"namespaces":["simple-history/v1"],"routes":{}}');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[{"id":1,');
    setTimeout(() => res.destroy(), 20);
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
});
afterAll(() => {
  origin.closeAllConnections();
  origin.close();
});

async function appWith(history: object): Promise<{ app: TestApp; close(): Promise<void> }> {
  const mappings = mappingsDir({ ...FORWARD_HISTORY, 'history/v1': history });
  const app = await testApp({ env: { LINTEL_LEGACY_ORIGIN: originUrl, LINTEL_MAPPINGS_DIR: mappings.dir } });
  return { app, close: async () => (await app.close(), mappings.remove()) };
}

describe('an origin that breaks off its answer', () => {
  it('is a 502 item of a batch, not a failed batch', async () => {
    const { app, close } = await appWith({ mode: 'forward', upstream: 'simple-history/v1' });
    try {
      const res = await app.server.inject({ method: 'POST', url: '/wp-json/batch/v1', headers: { 'content-type': 'application/json' }, payload: { requests: [{ method: 'POST', path: '/history/v1/events', body: { message: 'x' } }] } });
      expect(res.statusCode).toBe(207);
      expect(res.json().responses[0]).toMatchObject({ status: 502, body: { code: 'rest_upstream_unavailable' } });
    } finally {
      await close();
    }
  });

  it('is a 502 for a shadowed read answered by the legacy site', async () => {
    const { app, close } = await appWith({ mode: 'shadow', primary: 'legacy', sample: 1, upstream: 'simple-history/v1' });
    try {
      const res = await app.server.inject({ url: '/wp-json/history/v1/events' });
      expect(res.statusCode).toBe(502);
      expect(res.json().code).toBe('rest_upstream_unavailable');
    } finally {
      await close();
    }
  });
});
