/**
 * Every mode honoured everywhere: while the legacy origin answers the calendar, its event pages,
 * iCal feeds and the oEmbed of its pages are the origin's too (oEmbed's `url=` names the origin's
 * address); a mapping whose `upstream` the origin does not serve stops the start with one line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config.ts';
import { testApp, TEST_BASE, type TestApp } from './support/app.ts';
import { startLegacyOrigin, type LegacyOrigin } from './support/legacy-origin.ts';
import { FORWARD_HISTORY, mappingsDir } from './support/mappings.ts';

let origin: LegacyOrigin;
let app: TestApp;
const calendarForwarded = mappingsDir({ ...FORWARD_HISTORY, 'calendar/events/v1': { mode: 'forward', upstream: 'tribe/events/v1', aliases: ['tribe/events/v1'] } });

beforeAll(async () => {
  origin = await startLegacyOrigin();
  app = await testApp({ env: { LINTEL_LEGACY_ORIGIN: origin.url, LINTEL_MAPPINGS_DIR: calendarForwarded.dir } });
});
afterAll(async () => {
  await app.close();
  await origin.close();
  calendarForwarded.remove();
});

describe('a forwarded calendar', () => {
  it("sends event pages and iCal feeds to the origin", async () => {
    for (const url of ['/event/autumn-jazz-night/', '/events/?ical=1', '/event/autumn-jazz-night/?ical=1', '/fr/venue/blue-note-hall/embed/']) {
      origin.received.length = 0;
      await app.server.inject({ url });
      expect(origin.received.map((r) => r.url)).toEqual([url]);
    }
    // Other site requests are not the calendar's.
    origin.received.length = 0;
    await app.server.inject({ url: '/events/' });
    expect(origin.received).toEqual([]);
  });

  it("sends the oEmbed of a calendar page to the origin, naming the page on the origin's address", async () => {
    origin.received.length = 0;
    const page = `${TEST_BASE}/event/autumn-jazz-night/`;
    await app.server.inject({ url: `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(page)}` });
    expect(origin.received.map((r) => r.url)).toEqual([`/wp-json/oembed/1.0/embed?url=${encodeURIComponent(`${origin.url}/event/autumn-jazz-night/`)}`]);
    // oEmbed of anything else stays Lintel's.
    origin.received.length = 0;
    await app.server.inject({ url: `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(`${TEST_BASE}/some-page/`)}` });
    expect(origin.received).toEqual([]);
  });
});

describe('a mapping the origin cannot serve', () => {
  it('is a configuration error at start, in one line naming the namespace and the fix', async () => {
    const wrong = mappingsDir({ ...FORWARD_HISTORY, 'calendar/events/v1': { mode: 'forward', aliases: ['tribe/events/v1'] } });
    try {
      const started = testApp({ env: { LINTEL_LEGACY_ORIGIN: origin.url, LINTEL_MAPPINGS_DIR: wrong.dir } });
      await expect(started).rejects.toBeInstanceOf(ConfigError);
      await expect(started).rejects.toThrow(/^mappings\/namespaces\.json: calendar\/events\/v1 \(forward\) .* it serves the alias tribe\/events\/v1: set "upstream": "tribe\/events\/v1"$/);
    } finally {
      wrong.remove();
    }
  });
});
