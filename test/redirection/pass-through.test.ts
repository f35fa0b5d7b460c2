/**
 * A `pass` redirect to an external URL fetches it for the visitor: through the same SSRF guard as
 * every outbound fetch, so a rule cannot make the site read loopback or private addresses.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../support/app.ts';

let upstream: Server;
let port: number;
beforeAll(async () => {
  upstream = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('from the target'));
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  port = (upstream.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => upstream.close(() => r())));

async function passRule(app: TestApp): Promise<void> {
  const res = await app.server.inject({
    method: 'POST',
    url: '/wp-json/redirection/v1/redirect',
    headers: { authorization: await app.auth('administrator') },
    payload: { url: '/through', match_type: 'url', action_type: 'pass', action_code: 200, action_data: { url: `http://127.0.0.1:${port}/page` }, group_id: 1 },
  });
  expect(res.statusCode).toBe(200);
}

describe('pass-through redirects', () => {
  // One app per test: each starts a store of its own, which takes a while on a loaded machine.
  it('refuses a target on a loopback address (502)', async () => {
    const guarded = await testApp();
    try {
      await passRule(guarded);
      const res = await guarded.server.inject({ method: 'GET', url: '/through' });
      expect(res.statusCode).toBe(502);
      expect(res.body).not.toContain('from the target');
    } finally {
      await guarded.close();
    }
  });

  it('fetches a loopback target when its host is allowed', async () => {
    const allowed = await testApp({ env: { LINTEL_UPSTREAM_ALLOW: '127.0.0.1' } });
    try {
      await passRule(allowed);
      const res = await allowed.server.inject({ method: 'GET', url: '/through' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('from the target');
    } finally {
      await allowed.close();
    }
  });
});
