/**
 * The site root: a 200 page with the REST discovery `Link`, so API clients find the API from the
 * site's address alone (checked with wpapi's own discovery, over HTTP).
 */
import { createServer, type AddressInfo } from 'node:net';
import WPAPI from 'wpapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../support/app.ts';

/** A free port, so that the app's base URL (which the discovery link names) is where it listens. */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

let app: TestApp;
let origin: string;
beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  app = await testApp({ env: { LINTEL_BASE_URL: origin } });
  await app.server.listen({ port, host: '127.0.0.1' });
});
afterAll(() => app.close());

describe('GET /', () => {
  it('answers 200 with the site name and the discovery link to the REST root', async () => {
    const r = await fetch(`${origin}/`);
    expect(r.status).toBe(200);
    expect(r.headers.get('link')).toBe(`<${origin}/wp-json/>; rel="https://api.w.org/"`);
    const site = await app.store.options.site();
    expect(await r.text()).toContain(`<h1>${site.name}</h1>`);
  });

  it('lets wpapi discover the API from the site root and read through it', async () => {
    const wp = await WPAPI.discover(origin);
    const events = (await wp.root('calendar/events/v1/events').get()) as { events: unknown[] };
    expect(Array.isArray(events.events)).toBe(true);
  });

  it('is still a 404 for other paths', async () => {
    expect((await fetch(`${origin}/no-such-page/`)).status).toBe(404);
  });
});
