/**
 * WordPress's save filters on calendar writes, by role: a term's name and description lose their
 * control characters (wp_kses_no_null) for every caller, an event's, venue's or organizer's title and
 * content only for a caller without unfiltered_html (authors, contributors). A NUL byte those filters
 * drop is not refused; one that would reach the store as sent (an editor's title, a venue's address) is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/lib/roles.ts';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp;
const NS = '/wp-json/calendar/events/v1';
const send = async (method: string, url: string, form: string, role: Role) =>
  app.server.inject({ method: method as 'POST', url: NS + url, headers: { authorization: await app.auth(role), 'content-type': 'application/x-www-form-urlencoded' }, payload: form });
const DATES = 'start_date=2027-01-01 10:00:00&end_date=2027-01-01 11:00:00';

beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:06:30Z' } });
});
afterAll(() => app.close());

describe('a term name and description', () => {
  it("lose NUL and other control characters for every role, after sanitize_text_field's trim", async () => {
    const author = await send('POST', '/categories', 'name=%05%20Ca%00t%04%7F&description=d%00e%1F%0D', 'author');
    expect(author.statusCode).toBe(201);
    expect(author.json()).toMatchObject({ name: ' Cat\x7f', description: 'de\r', slug: 'cat' });
    const admin = await send('POST', '/tags', 'name=a%20%00%20b%25ab&description=x%00y', 'administrator');
    expect(admin.json()).toMatchObject({ name: 'a  b', description: 'xy', slug: 'a-b' });
    const renamed = await send('POST', `/tags/${admin.json().id}`, 'name=c%01d&description=%00', 'editor');
    expect(renamed.json()).toMatchObject({ name: 'cd', description: '' });
  });

  it('of a term an event write creates by name is as the pre_term_name filters leave it, its slug made from that', async () => {
    const e = await send('POST', '/events', `title=Tagged&categories=Ro%04ck&tags=a%26b%05,<i>x</i>y&${DATES}`, 'author');
    expect(e.json().categories.map((t: { name: string; slug: string }) => [t.name, t.slug])).toEqual([['Rock', 'rock']]);
    expect(e.json().tags.map((t: { name: string; slug: string }) => [t.name, t.slug])).toEqual([['a&amp;b', 'ab'], ['xy', 'xy']]);
  });

  it('that the filters empty is refused as wp_insert_term and wp_update_term refuse it', async () => {
    expect((await send('POST', '/categories', 'name=%20%0B', 'administrator')).json()).toMatchObject({ code: 'empty_term_name', data: { status: 400 } });
    // The slashed NUL is not trimmed: the name is empty only once kses has run.
    expect((await send('POST', '/categories', 'name=%00', 'administrator')).json()).toMatchObject({ code: 'invalid_term_name', data: { status: 400 } });
    expect((await send('POST', '/categories', 'name=<b></b>', 'administrator')).json()).toMatchObject({ code: 'invalid_term_name' });
    const id = (await send('POST', '/tags', 'name=Kept', 'administrator')).json().id;
    expect((await send('POST', `/tags/${id}`, 'name=%05', 'administrator')).json()).toMatchObject({ code: 'empty_term_name', data: { status: 400 } });
  });
});

describe("an event's, venue's and organizer's title and content", () => {
  it('lose their control characters for an author or contributor', async () => {
    for (const role of ['author', 'contributor'] as const) {
      const e = await send('POST', '/events', `title=T%00i%04t%0Ble&description=d%00e%05s&excerpt=e%00x%06c&${DATES}`, role);
      expect(e.statusCode).toBe(201);
      expect(e.json()).toMatchObject({ title: 'Title', description: '<p>des</p>', excerpt: '<p>exc</p>' });
    }
    expect((await send('POST', '/venues', 'venue=V%00en%04ue&description=d%00%05', 'author')).json()).toMatchObject({ venue: 'Venue', description: '<p>d</p>' });
    expect((await send('POST', '/organizers', 'organizer=O%00rg&description=x%01', 'author')).json()).toMatchObject({ organizer: 'Org', description: '<p>x</p>' });
  });

  it("lose them in a venue or organizer the event creates, as in the venue's or organizer's own route; not its other fields", async () => {
    const e = await send('POST', '/events', `title=Gig&venue[venue]=Ha%00ll%04&venue[city]=Lyon&organizer[0][organizer]=Cr%00ew&${DATES}`, 'author');
    expect(e.statusCode).toBe(201);
    expect(e.json()).toMatchObject({ venue: { venue: 'Hall', city: 'Lyon' }, organizer: [{ organizer: 'Crew' }] });
    const nul = await send('POST', '/events', `title=Gig&venue[venue]=Hall&venue[city]=Ly%00on&${DATES}`, 'author');
    expect(nul.json()).toMatchObject({ code: 'rest_invalid_param', data: { params: { venue: 'Invalid parameter.' } } });
  });

  it('that the filters empty leave no post unless some content is left', async () => {
    expect((await send('POST', '/events', `title=%00%05&${DATES}`, 'author')).json()).toMatchObject({ code: 'empty_content', data: { status: 400 } });
    const titled = await send('POST', '/events', `title=%00%05&description=x&${DATES}`, 'author');
    expect(titled.json()).toMatchObject({ title: '', description: '<p>x</p>' });
    expect((await send('POST', '/organizers', 'organizer=%00&phone=987', 'author')).json()).toMatchObject({ code: 'could-not-create-organizer', data: { status: 400 } });
    expect((await send('POST', '/venues', 'venue=%00%05&description=zz', 'author')).statusCode).toBe(201);
  });

  it('keep them for an editor or administrator (unfiltered_html): a NUL byte there is refused', async () => {
    const kept = await send('POST', '/events', `title=T%04it%0Ble&${DATES}`, 'editor');
    expect(kept.json().title).toBe('T\x04it\x0Ble');
    for (const role of ['editor', 'administrator'] as const) {
      const nul = await send('POST', '/events', `title=T%00itle&${DATES}`, role);
      expect(nul.json()).toMatchObject({ code: 'rest_invalid_param', data: { params: { title: 'Invalid parameter.' } } });
    }
  });

  it("keep them in the fields no kses filters, whatever the role: a NUL byte in a venue's address is refused", async () => {
    const r = await send('POST', '/venues', 'venue=Hall&address=a%00b', 'author');
    expect(r.json()).toMatchObject({ code: 'rest_invalid_param', data: { params: { address: 'Invalid parameter.' } } });
  });
});

describe('an inline venue or organizer whose name the filters empty', () => {
  it('is not created, as wp_insert_post refuses an empty post: the event is written without it', async () => {
    const venues = async () => (await app.server.inject({ method: 'GET', url: `${NS}/venues?per_page=50&status=publish,draft,pending,private` , headers: { authorization: await app.auth('administrator') } })).json().venues.length;
    const before = await venues();
    const e = await send('POST', '/events', `title=Inline&venue[venue]=%01%00&organizer[organizer]=%02&${DATES}`, 'author');
    expect(e.statusCode).toBe(201);
    expect(e.json().venue).toEqual([]);
    expect(e.json().organizer).toEqual([]);
    expect(await venues()).toBe(before);
  });
});
