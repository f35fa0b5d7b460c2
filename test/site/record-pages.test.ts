/**
 * The event, venue and organizer pages and their embed variants, through the EmbeddableLookup port;
 * rendered in headless Chromium at phone and desktop widths when /usr/bin/chromium is installed.
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordPages } from '../../src/site/pages/handler.ts';
import { eventWhen } from '../../src/site/pages/record-page.ts';
import { testApp, TEST_BASE, type TestApp } from '../support/app.ts';
import { CHROMIUM, hasChromium, launchChromium } from '../support/chromium.ts';
import { lookupOver, record } from '../oembed/support.ts';
import { scaled } from '../support/time.ts';

const long = 'Supercalifragilisticexpialidocious-Midwinter-Big-Band-Extravaganza-With-Guests';
const lookup = lookupOver([
  record(TEST_BASE, 'winter-jazz-festival', { descriptionHtml: `<p>Three stages.</p><p>${long}</p><pre>${'x'.repeat(300)}</pre>` }),
  record(TEST_BASE, 'new-year-gala', { start: '2026-12-31T21:00:00', end: '2027-01-01T01:00:00', timezone: 'Europe/Paris' }),
  record(TEST_BASE, 'members-only', { isPublic: false }),
  { ...record(TEST_BASE, 'x'), kind: 'venue', permalink: `${TEST_BASE}/venue/blue-note-hall/`, title: 'Blue Note Hall', start: undefined, end: undefined, venueName: null, organizerNames: [], descriptionHtml: '<p>131 W 3rd St</p>' },
]);

let app: TestApp;
let site: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
  await app.store.options.setSite({ name: 'Oracle Site', description: 'Reference oracle' });
  const handle = recordPages(app.services, lookup);
  site = Fastify();
  site.route({
    method: ['GET', 'HEAD', 'POST'],
    url: '/*',
    handler: async (req, reply) => ((await handle(req, reply, req.url.split('?')[0], {})) ? reply : reply.code(404).send('next handler')),
  });
});
afterAll(async () => {
  await site.close();
  await app.close();
});

const get = (url: string, method: 'GET' | 'POST' = 'GET') => site.inject({ method, url });

describe('record pages', () => {
  it('shows an event: title, dates in its zone, venue, organizers, description; no script', async () => {
    const r = await get('/event/winter-jazz-festival/');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=UTF-8');
    expect(r.headers['content-security-policy']).toContain("default-src 'none'");
    expect(r.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    // As every page the legacy site renders: where the calendar's API is (capture 444 shows them on a 404 page).
    const base = app.services.config.baseUrl;
    expect([r.headers['x-tec-api-version'], r.headers['x-tec-api-root'], r.headers['x-tec-api-origin']]).toEqual(['v1', `${base}/wp-json/calendar/events/v1/`, base]);
    expect(r.body).toContain('<title>Winter Jazz Festival – Oracle Site</title>');
    expect(r.body).toContain('<time datetime="2026-12-05T19:00:00-05:00">Saturday, December 5, 2026, 7:00 PM – 11:30 PM EST</time>');
    expect(r.body).toContain('<dt>Venue</dt><dd>Blue Note Hall</dd>');
    expect(r.body).toContain('<dt>Organizers</dt><dd>Jazz Society, Events Co</dd>');
    expect(r.body).not.toMatch(/<script/i);
  });

  it('serves the embed variant: framable, links to the top window', async () => {
    const r = await get('/event/winter-jazz-festival/embed/');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-security-policy']).not.toContain('frame-ancestors');
    expect(r.body).toContain('<base target="_top">');
    expect(r.body).toContain(`<a href="${TEST_BASE}/event/winter-jazz-festival/">Winter Jazz Festival</a>`);
  });

  it('serves venue pages, and leaves non-public records, unknown slugs and other methods to the next handler', async () => {
    const venue = await get('/venue/blue-note-hall/');
    expect(venue.statusCode).toBe(200);
    expect(venue.body).toContain('<p class="kind">Venue</p>');
    expect(venue.body).not.toContain('<dt>When</dt>');
    for (const url of ['/event/members-only/', '/event/members-only/embed/', '/event/nope/', '/event/winter-jazz-festival', '/organizer/']) expect((await get(url)).body, url).toBe('next handler');
    expect((await get('/event/winter-jazz-festival/', 'POST')).body).toBe('next handler');
  });

  it('writes dates across midnight and zones in the event’s own zone', () => {
    expect(eventWhen({ start: '2026-12-31T21:00:00', end: '2027-01-01T01:00:00', timezone: 'Europe/Paris' })).toEqual({
      text: 'Thursday, December 31, 2026, 9:00 PM CET – Friday, January 1, 2027, 1:00 AM CET',
      start: '2026-12-31T21:00:00+01:00',
      end: '2027-01-01T01:00:00+01:00',
    });
    expect(eventWhen({ start: '2026-07-04T00:00:00', end: '2026-07-04T23:59:59', timezone: 'America/New_York', allDay: true })?.text).toBe('Saturday, July 4, 2026');
    expect(eventWhen({ start: '2026-07-04T10:00:00', timezone: 'America/New_York' })?.start).toBe('2026-07-04T10:00:00-04:00');
    expect(eventWhen({ start: '2026-07-04T10:00:00', timezone: 'UTC+2' })).toEqual({ text: 'Saturday, July 4, 2026, 10:00 AM UTC+2', start: '2026-07-04T10:00:00+02:00', end: null });
  });
});

describe.skipIf(!hasChromium)('record pages in Chromium', () => {
  let browser: import('playwright-core').Browser;
  let origin: string;
  beforeAll(async () => {
    await site.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, scaled(60_000));
  afterAll(async () => {
    await browser?.close();
  });

  for (const width of [375, 1280]) {
    for (const path of ['/event/winter-jazz-festival/', '/event/winter-jazz-festival/embed/']) {
      it(`shows ${path} at ${width}px without horizontal overflow`, async () => {
        const page = await browser.newPage({ viewport: { width, height: 800 } });
        try {
          await page.goto(`${origin}${path}`);
          expect(await page.title()).toBe('Winter Jazz Festival – Oracle Site');
          expect(await page.getByRole('heading', { level: 1, name: 'Winter Jazz Festival' }).isVisible()).toBe(true);
          expect(await page.getByText('Saturday, December 5, 2026, 7:00 PM – 11:30 PM EST').isVisible()).toBe(true);
          expect(await page.getByText('Blue Note Hall').isVisible()).toBe(true);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow).toBeLessThanOrEqual(0);
        } finally {
          await page.close();
        }
      }, scaled(30_000));
    }
  }
});

if (!hasChromium) console.warn(`record-pages: ${CHROMIUM} is absent, the Chromium rendering tests are skipped (apt-get install -y chromium).`);
