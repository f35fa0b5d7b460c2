/**
 * Lintel started as a process in front of the recorded legacy origin: a forwarded namespace under
 * its contract name, renamed on the way, in the site index, and the origin down or slow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLegacyOrigin, type LegacyOrigin } from './support/legacy-origin.ts';
import { FORWARD_HISTORY, mappingsDir } from './support/mappings.ts';
import { listening, sandbox, type Sandbox } from './support/process.ts';
import { scaled } from './support/time.ts';

let origin: LegacyOrigin;
let box: Sandbox;
let mappings: ReturnType<typeof mappingsDir>;
beforeAll(async () => {
  origin = await startLegacyOrigin();
  mappings = mappingsDir(FORWARD_HISTORY);
  box = await sandbox({ PORT: '0', LINTEL_DEMO_DATA: 'false', LINTEL_MAPPINGS_DIR: mappings.dir, LINTEL_LEGACY_ORIGIN: origin.url, LINTEL_FORWARD_TIMEOUT_MS: '2000' });
});
afterAll(async () => {
  await origin.close();
  await box.remove();
  mappings.remove();
});

const ORIGIN_ONLY = { authorization: `Basic ${Buffer.from('admin:known to the origin only').toString('base64')}` };

describe('lintel serve in front of a legacy origin', { timeout: scaled(120_000) }, () => {
  it('forwards, renames, lists the forwarded routes, and answers 504 and 502 when the origin is slow or down', async () => {
    const server = box.start(['serve']);
    try {
      const address = await listening(server);
      const list = await fetch(`${address}/wp-json/history/v1/events?per_page=3`, { headers: ORIGIN_ONLY });
      expect(list.status).toBe(200);
      expect(origin.received.at(-1)?.url).toBe('/wp-json/simple-history/v1/events?per_page=3');
      expect(((await list.json()) as unknown[]).length).toBe(3);

      const index = (await (await fetch(`${address}/wp-json/`)).json()) as { namespaces: string[]; routes: Record<string, unknown> };
      expect(index.namespaces).toContain('history/v1');
      expect(index.routes['/history/v1/stats/summary']).toBeDefined();

      origin.delayMs = 5_000;
      const slow = await fetch(`${address}/wp-json/history/v1/events/22`, { headers: ORIGIN_ONLY });
      expect(slow.status).toBe(504);
      expect(await slow.json()).toMatchObject({ code: 'rest_upstream_timeout' });

      await origin.close();
      const down = await fetch(`${address}/wp-json/history/v1/events/22`, { headers: ORIGIN_ONLY });
      expect(down.status).toBe(502);
      expect(await down.json()).toMatchObject({ code: 'rest_upstream_unavailable' });
      // The failure is logged with the request's id (the line may reach this process's pipe just after the answer).
      const id = down.headers.get('x-request-id');
      const logged = () =>
        server
          .stdout()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .some((l) => {
            const entry = JSON.parse(l) as { msg?: string; reqId?: string };
            return entry.msg === 'legacy origin unreachable' && entry.reqId === id;
          });
      await expect.poll(logged, { timeout: scaled(5_000) }).toBe(true);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
