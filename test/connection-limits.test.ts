/**
 * Every connection is bounded (issue 19): slow headers and slow bodies get 408, and one client
 * address holds at most LINTEL_CLIENT_CONNECTIONS connections at once (429 beyond, until one closes).
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from './support/app.ts';

let app: TestApp;
let port: number;
beforeAll(async () => {
  app = await testApp({ env: { LINTEL_HEADERS_TIMEOUT_MS: '300', LINTEL_REQUEST_TIMEOUT_MS: '600', LINTEL_CLIENT_CONNECTIONS: '3' } });
  port = Number(new URL(await app.server.listen({ port: 0, host: '127.0.0.1' })).port);
});
afterAll(() => app.close());

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s)).on('error', reject);
  });
}

/** Everything the server sends until it closes the connection. */
function answer(s: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    s.on('data', (d) => (text += d)).on('close', () => resolve(text));
  });
}

describe('connection limits', () => {
  it('answers 408 to a request whose headers never end', async () => {
    const s = await open();
    const got = answer(s);
    s.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    expect(await got).toMatch(/^HTTP\/1.1 408 [\s\S]*"code":"rest_request_timeout"/);
  });

  it('answers 408 to a request whose body trickles in slower than the request timeout', async () => {
    const s = await open();
    const got = answer(s);
    s.write('POST /wp-json/history/v1/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
    // Keeps sending within the header timeout, so only the whole request's limit can end it.
    const drip = setInterval(() => s.writable && s.write(' '), 100);
    try {
      expect(await got).toMatch(/^HTTP\/1.1 408 /);
    } finally {
      clearInterval(drip);
    }
  });

  it('refuses a client address its fourth connection while three are open, and accepts one again once one closes', async () => {
    // Kept-alive connections that have been answered once (a fresh silent one would meet the header timeout).
    const held = await Promise.all([open(), open(), open()]);
    await Promise.all(held.map((s) => new Promise((r) => s.once('data', r).write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'))));
    const fourth = await open();
    const refused = answer(fourth);
    fourth.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await refused).toMatch(/^HTTP\/1.1 429 [\s\S]*Retry-After: 1[\s\S]*"code":"rest_too_many_connections"/);
    const closed = new Promise((r) => held[0].once('close', r));
    held[0].destroy();
    await closed;
    // The server learns of the close from its own socket: ask until it has.
    let status = '';
    for (let i = 0; i < 50 && !status.startsWith('HTTP/1.1 200'); i++) {
      const again = await open();
      const got = answer(again);
      again.end('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      status = await got;
    }
    expect(status).toMatch(/^HTTP\/1.1 200 /);
    for (const s of held) s.destroy();
  });
});
