/**
 * Forwarded calls are bounded (issue 19 item 4, issue 21 §2): a JSON answer larger than
 * LINTEL_FORWARD_JSON_LIMIT is a 502, announced or not, and when the client leaves, the upstream call
 * is aborted: the origin, which never ends its answer, sees its connection closed.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from './support/app.ts';
import { FORWARD_HISTORY, mappingsDir } from './support/mappings.ts';

let origin: Server;
let app: TestApp;
let lintelPort: number;
let removeMappings: () => void;
/** Per path: called when the origin's connection for it is closed. */
const closed: Record<string, () => void> = {};

beforeAll(async () => {
  origin = createServer((req: IncomingMessage, res) => {
    const path = req.url ?? '';
    if (path === '/wp-json/') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"namespaces":["simple-history/v1"],"routes":{}}');
    req.socket.once('close', () => closed[path]?.());
    if (path.endsWith('/announced')) return void res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' }).end(`"${'x'.repeat(4998)}"`);
    if (path.endsWith('/chunked')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(`"${'x'.repeat(4998)}"`);
    // Never ends: JSON (read whole by Lintel) or text (streamed to the client).
    res.writeHead(200, { 'content-type': path.endsWith('/json') ? 'application/json' : 'text/plain' });
    const drip = setInterval(() => res.write(path.endsWith('/json') ? '[' : 'x'), 20);
    res.once('close', () => clearInterval(drip));
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  const mappings = mappingsDir(FORWARD_HISTORY);
  removeMappings = mappings.remove;
  app = await testApp({ env: { LINTEL_LEGACY_ORIGIN: `http://127.0.0.1:${(origin.address() as AddressInfo).port}`, LINTEL_MAPPINGS_DIR: mappings.dir, LINTEL_FORWARD_JSON_LIMIT: '4096' } });
  lintelPort = Number(new URL(await app.server.listen({ port: 0, host: '127.0.0.1' })).port);
});
afterAll(async () => {
  await app.close();
  origin.closeAllConnections();
  origin.close();
  removeMappings();
});

describe('a forwarded call', () => {
  it('answers 502 rest_upstream_too_large for a JSON answer past the limit, announced or counted', async () => {
    for (const path of ['/wp-json/history/v1/announced', '/wp-json/history/v1/chunked']) {
      const res = await app.server.inject({ url: path });
      expect(res.statusCode, path).toBe(502);
      expect(res.json().code).toBe('rest_upstream_too_large');
    }
  });

  for (const kind of ['json', 'text']) {
    it(`is aborted when the client leaves: the origin sees its connection closed (${kind} answer)`, async () => {
      const path = `/wp-json/simple-history/v1/endless/${kind}`;
      const originSawClose = new Promise<void>((r) => (closed[path] = r));
      const originGot = new Promise<void>((r) => {
        const seen = (req: IncomingMessage) => {
          if (req.url !== path) return;
          origin.off('request', seen);
          r();
        };
        origin.on('request', seen);
      });
      const client = connect(lintelPort, '127.0.0.1');
      client.write(`GET /wp-json/history/v1/endless/${kind} HTTP/1.1\r\nHost: x\r\n\r\n`);
      // The client leaves once the origin is answering.
      await originGot;
      client.destroy();
      await originSawClose;
    });
  }
});
