/**
 * oEmbed and the record pages on real calendar data: events written through the calendar API, and
 * the demo data, read back through the calendar's EmbeddableLookup (the wired `siteEmbeddables`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoOnce } from '../../src/bootstrap.ts';
import { pinnedClock } from '../../src/clock.ts';
import { testApp, TEST_BASE, type TestApp } from '../support/app.ts';

const CLOCK = '2026-11-21T12:08:00Z';
let app: TestApp;
let admin: string;
const events = '/wp-json/calendar/events/v1/events';
const get = (url: string, headers: Record<string, string> = {}) => app.server.inject({ method: 'GET', url, headers });
const embed = (url: string, extra = '') => get(`/wp-json/oembed/1.0/embed?url=${encodeURIComponent(url)}${extra}`);

async function create(body: Record<string, unknown>): Promise<{ id: number; slug: string; url: string }> {
  const res = await app.server.inject({ method: 'POST', url: events, headers: { authorization: admin, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  expect(res.statusCode).toBe(201);
  return res.json();
}

let jazz: { id: number; slug: string; url: string };
beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: CLOCK } });
  await app.store.options.setSite({ name: 'Oracle Site', description: 'Reference oracle' });
  admin = await app.auth('administrator');
  jazz = await create({
    title: 'Winter Jazz Festival', start_date: '2026-12-05 19:00:00', end_date: '2026-12-05 23:30:00', timezone: 'America/New_York',
    description: 'Three stages.<script>alert(1)</script> <a href="javascript:alert(2)" onclick="x()">more</a>',
    venue: { venue: 'Blue Note Hall', city: 'New York' }, organizer: [{ organizer: 'Jazz Society' }],
  });
});
afterAll(() => app.close());

describe('oEmbed of calendar records', () => {
  it('embeds an event created through the calendar API, with its author (capture 211 shape)', async () => {
    expect(jazz.url).toBe(`${TEST_BASE}/event/winter-jazz-festival/`);
    const r = await embed(jazz.url);
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({
      version: '1.0', provider_name: 'Oracle Site', provider_url: TEST_BASE, author_name: 'admin', author_url: `${TEST_BASE}/author/admin/`,
      title: 'Winter Jazz Festival', type: 'rich', width: 600, height: 338,
    });
    expect(body.html).toContain(`src="${jazz.url}embed/#?secret=`);
  });

  it('answers XML with the same document', async () => {
    const r = await embed(jazz.url, '&format=xml&maxwidth=400');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/xml; charset=UTF-8');
    expect(r.body).toContain('<title>Winter Jazz Festival</title>');
    expect(r.body).toContain('<width>400</width><height>225</height>');
  });

  it('does not embed venues and organizers, whose pages it finds: the legacy site embeds events only (capture 913)', async () => {
    const e = (await get(`${events}/${jazz.id}`)).json();
    for (const url of [e.venue.url, e.organizer[0].url]) {
      const r = await embed(url);
      expect(r.statusCode).toBe(404);
      expect(r.json().code).toBe('oembed_invalid_url');
    }
  });

  it('does not embed drafts, password-protected, scheduled or trashed events, nor other sites', async () => {
    const draft = await create({ title: 'Secret Draft', status: 'draft', start_date: '2027-01-10 10:00', end_date: '2027-01-10 11:00' });
    const locked = await create({ title: 'Members Only', start_date: '2027-01-11 10:00', end_date: '2027-01-11 11:00' });
    const protect = await app.server.inject({ method: 'PATCH', url: `${events}/${locked.id}`, headers: { authorization: admin, 'content-type': 'application/json' }, payload: '{"password":"pw"}' });
    expect(protect.statusCode).toBe(200);
    const future = await create({ title: 'Later', status: 'future', start_date: '2027-01-12 10:00', end_date: '2027-01-12 11:00' });
    const trashed = await create({ title: 'Binned', start_date: '2027-01-13 10:00', end_date: '2027-01-13 11:00' });
    await app.server.inject({ method: 'DELETE', url: `${events}/${trashed.id}`, headers: { authorization: admin } });
    for (const slug of [draft.slug, locked.slug, future.slug, trashed.slug]) {
      const r = await embed(`${TEST_BASE}/event/${slug}/`);
      expect(r.statusCode, slug).toBe(404);
      expect(r.json().code).toBe('oembed_invalid_url');
      expect((await get(`/event/${slug}/`)).statusCode, slug).toBe(404);
      expect((await get(`/event/${slug}/embed/`)).statusCode, slug).toBe(404);
    }
    expect((await embed(`https://elsewhere.example/event/${jazz.slug}/`)).statusCode).toBe(404);
  });
});

describe('record pages of calendar records', () => {
  it('renders the event page with its title, dates in its zone, venue and organizer; the description sanitized', async () => {
    const r = await get('/event/winter-jazz-festival/');
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('<h1>Winter Jazz Festival</h1>');
    expect(r.body).toContain('<time datetime="2026-12-05T19:00:00-05:00">Saturday, December 5, 2026, 7:00 PM – 11:30 PM EST</time>');
    expect(r.body).toContain('<dd>Blue Note Hall</dd>');
    expect(r.body).toContain('<dd>Jazz Society</dd>');
    expect(r.body).toContain('Three stages.');
    expect(r.body).not.toMatch(/<script|javascript:|onclick/);
  });

  it('renders the embed page the oEmbed iframe loads', async () => {
    const r = await get('/event/winter-jazz-festival/embed/');
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain(`<a href="${jazz.url}">Winter Jazz Festival</a>`);
    expect(r.body).toContain('datetime="2026-12-05T19:00:00-05:00"');
    expect(r.headers['content-security-policy']).not.toContain('frame-ancestors');
  });

  it('answers under a locale: links and lang follow it; unknown locales are not pages', async () => {
    const r = await get('/fr/event/winter-jazz-festival/');
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('<html lang="fr">');
    expect(r.body).toContain(`<link rel="canonical" href="${TEST_BASE}/fr/event/winter-jazz-festival/">`);
    const framed = await get('/de/event/winter-jazz-festival/embed/');
    expect(framed.body).toContain('<html lang="de" class="embed">');
    expect(framed.body).toContain(`<a href="${TEST_BASE}/de/event/winter-jazz-festival/">Winter Jazz Festival</a>`);
    expect((await get('/event/winter-jazz-festival/')).body).toContain('<html lang="en">');
    expect((await get('/xx/event/winter-jazz-festival/')).statusCode).toBe(404);
  });

  it('embeds under a locale with the localized permalink', async () => {
    const r = await get(`/fr/wp-json/oembed/1.0/embed?url=${encodeURIComponent(`${TEST_BASE}/fr/event/winter-jazz-festival/`)}`);
    expect(r.statusCode).toBe(200);
    expect(r.json().html).toContain(`<a href="${TEST_BASE}/fr/event/winter-jazz-festival/">`);
  });
});

describe('demo data', () => {
  it("renders the demo's first event page and embeds it", async () => {
    const demo = await testApp({ env: { LINTEL_CLOCK: CLOCK, LINTEL_DEMO_DATA: 'true' } });
    try {
      expect(await seedDemoOnce(demo.store, pinnedClock(CLOCK))).toBe(true);
      const [first] = (await demo.server.inject({ method: 'GET', url: events })).json().events;
      const page = await demo.server.inject({ method: 'GET', url: new URL(first.url).pathname });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`<h1>${first.title}</h1>`);
      expect(page.body).toMatch(/<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:00[+-]\d\d:\d\d">/);
      const doc = await demo.server.inject({ method: 'GET', url: `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(first.url)}` });
      expect(doc.statusCode).toBe(200);
      expect(doc.json().title).toBe(first.title);
    } finally {
      await demo.close();
    }
  });
});
