/** Calendar writes over HTTP: creates, updates that change only what was sent, trash and 410, terms, permissions, ignored geolocation, demo data. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCalendarDemo } from '../../src/namespaces/calendar/demo.ts';
import { pinnedClock } from '../../src/clock.ts';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let admin: string;
const NS = '/wp-json/calendar/events/v1';
const call = (method: string, url: string, body?: unknown, auth?: string) =>
  app.server.inject({ method: method as 'GET', url: NS + url, headers: { ...(auth ? { authorization: auth } : {}), ...(body ? { 'content-type': 'application/json' } : {}) }, payload: body ? JSON.stringify(body) : undefined });

beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:06:30Z' } });
  admin = await app.auth('administrator');
});
afterAll(() => app.close());

describe('event writes', () => {
  it('creates with inline venue and organizer, new terms by name, and clamps an end before the start', async () => {
    const res = await call('POST', '/events', {
      title: "Critic's Choice", start_date: '2027-05-01 20:00:00', end_date: '2027-05-01 18:00:00', timezone: 'Europe/Paris',
      venue: { venue: 'Salle Pleyel', city: 'Paris', country: 'France' }, organizer: [{ organizer: 'Les Amis' }], categories: ['Chanson'], tags: 'live,paris', cost: '20€',
    }, admin);
    expect(res.statusCode).toBe(201);
    const e = res.json();
    expect(e.title).toBe('Critic&#8217;s Choice');
    expect(e.end_date).toBe(e.start_date);
    expect(e.utc_start_date).toBe('2027-05-01 18:00:00');
    expect(e.timezone_abbr).toBe('CEST');
    expect(e.venue.venue).toBe('Salle Pleyel');
    expect(e.organizer.map((o: { organizer: string }) => o.organizer)).toEqual(['Les Amis']);
    expect(e.categories.map((t: { name: string }) => t.name)).toEqual(['Chanson']);
    expect(e.tags.map((t: { slug: string }) => t.slug)).toEqual(['live', 'paris']);
    expect(e.cost_details).toEqual({ currency_symbol: '€', currency_code: '', currency_position: 'postfix', values: ['20'] });
    expect(e.json_ld).toBeUndefined();
    // The same inline venue is matched, not duplicated.
    const again = await call('POST', '/events', { title: 'Encore', start_date: '2027-05-02 20:00', end_date: '2027-05-02 22:00', venue: { venue: 'Salle Pleyel', city: 'Paris', country: 'France' } }, admin);
    expect(again.json().venue.id).toBe(e.venue.id);
  });

  it('refuses anonymous creates (after validation) and reports missing parameters first', async () => {
    expect((await call('POST', '/events', { title: 'x', start_date: '2027-01-01', end_date: '2027-01-01' })).statusCode).toBe(401);
    const missing = await call('POST', '/events', { start_date: '2027-01-01' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['title', 'end_date'] } });
  });

  it('updates only the fields sent, sets a password, trashes, then answers 410 and 403', async () => {
    const created = (await call('POST', '/events', { title: 'Keep', start_date: '2027-06-01 10:00', end_date: '2027-06-01 11:00', featured: true, sticky: true, all_day: false, website: 'https://keep.example' }, admin)).json();
    const upd = await call('PATCH', `/events/${created.id}`, { title: 'Kept', password: 'pw' }, admin);
    expect(upd.statusCode).toBe(200);
    expect(upd.json()).toMatchObject({ title: 'Kept', featured: true, sticky: true, website: 'https://keep.example', start_date: '2027-06-01 10:00:00' });
    expect((await call('GET', `/events/${created.id}`)).json().code).toBe('event-password-protected');
    expect((await call('GET', `/events/${created.id}?password=pw`)).statusCode).toBe(200);
    const list = (await call('GET', '/events?start_date=2027-06-01&end_date=2027-06-02')).json();
    expect(list.events.find((e: { id: number }) => e.id === created.id).description).toBe('');
    const del = await call('DELETE', `/events/${created.id}`, undefined, admin);
    expect(del.json()).toMatchObject({ status: 'trash', slug: 'keep__trashed' });
    expect((await call('DELETE', `/events/${created.id}`, undefined, admin)).json()).toMatchObject({ code: 'event-is-in-trash', data: { status: 410 } });
    expect((await call('GET', `/events/${created.id}`)).json().code).toBe('event-no-longer-available');
    expect((await call('GET', '/events/99999')).json()).toEqual({ code: 'rest-event-not-found', message: 'Event with ID 99999 does not exist.', data: { status: 404 } });
  });

  it('refuses dates beyond the years a DATETIME holds', async () => {
    for (const start_date of ['9007199254740992', 'now +99999999 years']) {
      const r = await call('POST', '/events', { title: 'Far', start_date, end_date: '2027-07-01 11:00' }, admin);
      expect(r.statusCode, start_date).toBe(400);
      expect(r.json().code).toBe('rest_invalid_param');
    }
  });

  it('needs an editor for others\' events and for non-public statuses', async () => {
    const event = (await call('POST', '/events', { title: 'Admin only', start_date: '2027-07-01 10:00', end_date: '2027-07-01 11:00', status: 'draft' }, admin)).json();
    const author = await app.auth('author');
    expect((await call('PATCH', `/events/${event.id}`, { title: 'Mine now' }, author)).statusCode).toBe(403);
    expect((await call('GET', `/events/${event.id}`, undefined, author)).json().code).toBe('event-not-accessible');
    expect((await call('GET', `/events/${event.id}`, undefined, admin)).statusCode).toBe(200);
    expect((await call('GET', '/events?status=draft')).statusCode).toBe(400);
  });
});

describe('terms', () => {
  it('creates, refuses duplicates, updates and deletes for good', async () => {
    const c = await call('POST', '/categories', { name: 'Opera', description: 'Arias' }, admin);
    expect(c.statusCode).toBe(201);
    expect(c.json()).toMatchObject({ name: 'Opera', slug: 'opera', parent: 0, count: 0 });
    expect((await call('POST', '/categories', { name: 'Opera' }, admin)).json().code).toBe('term_exists');
    expect((await call('PUT', `/categories/${c.json().id}`, { description: 'Arias and more' }, admin)).json().description).toBe('Arias and more');
    expect((await call('DELETE', `/categories/${c.json().id}`, undefined, admin)).statusCode).toBe(200);
    expect((await call('GET', `/categories/${c.json().id}`)).statusCode).toBe(400);
  });

  it("names in the self link's target hints the methods the caller may use on the term", async () => {
    const allowed = (r: { json(): { _links: { self: { targetHints: { allow: string[] } }[] } } }) => r.json()._links.self[0].targetHints.allow;
    const created = await call('POST', '/tags', { name: 'Percussion' }, admin);
    expect(allowed(created)).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    expect(allowed(await call('GET', `/tags/${created.json().id}`, undefined, admin))).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    expect(allowed(await call('GET', `/tags/${created.json().id}`))).toEqual(['GET']);
    expect(allowed(await call('GET', `/tags/${created.json().id}`, undefined, await app.auth('subscriber')))).toEqual(['GET']);
    // Authors manage categories (not tags), and are told so.
    const author = await app.auth('author');
    const category = await call('POST', '/categories', { name: 'Brass bands' }, author);
    expect(category.statusCode).toBe(201);
    expect(allowed(category)).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    expect(allowed(await call('GET', `/tags/${created.json().id}`, undefined, author))).toEqual(['GET']);
  });

  it('creates terms named in an event write with a free slug, also when the name has no letters', async () => {
    const dates = { start_date: '2027-07-01 10:00', end_date: '2027-07-01 11:00' };
    const first = await call('POST', '/events', { title: 'Symbols A', ...dates, tags: '[]' }, admin);
    const second = await call('POST', '/events', { title: 'Symbols B', ...dates, tags: '()' }, admin);
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    const slugs = [first.json().tags[0].slug, second.json().tags[0].slug];
    expect(new Set(slugs).size).toBe(2);
  });

  it('names a created term whose name and slug make no slug by its ID', async () => {
    for (const [plural, body] of [['tags', { name: '!!' }], ['categories', { name: '??', slug: '%%' }]] as const) {
      const t = (await call('POST', `/${plural}`, body, admin)).json();
      expect(t.slug).toBe(String(t.id));
      expect(t.url).toMatch(new RegExp(`/${t.id}/$`));
    }
  });

  it('refuses a slug another term has (400, not a store failure) and makes an empty slug from the name', async () => {
    const a = (await call('POST', '/tags', { name: 'Brass' }, admin)).json();
    const b = (await call('POST', '/tags', { name: 'Strings' }, admin)).json();
    const taken = await call('PATCH', `/tags/${b.id}`, { slug: 'brass' }, admin);
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ code: 'duplicate_term_slug', message: 'The slug &#8220;brass&#8221; is already in use by another term.', data: { status: 400 } });
    expect((await call('PATCH', `/tags/${a.id}`, { slug: 'brass' }, admin)).statusCode).toBe(200);
    // sanitize_title keeps an emoji as its octets; a slug of punctuation only is empty, made from the name.
    expect((await call('PATCH', `/tags/${b.id}`, { slug: '\u{1F3BA}' }, admin)).json().slug).toBe('%f0%9f%8e%ba');
    expect((await call('PATCH', `/tags/${b.id}`, { slug: '!!!' }, admin)).json().slug).toBe('strings');
  });
});

describe('venue and organizer writes', () => {
  it('store contact fields through sanitize_text_field, as Tribe saves post meta; the name and description as sent', async () => {
    const venue = (await call('POST', '/venues', { venue: 'Bar <Rouge>', phone: 'sproto__<', city: ' Paris  <b>11e</b> ', zip: '75%2011' }, admin)).json();
    expect(venue).toMatchObject({ venue: 'Bar <Rouge>', phone: 'sproto__&lt;', city: 'Paris 11e', zip: '7511' });
    const updated = (await call('PATCH', `/venues/${venue.id}`, { phone: 'a < b', address: '1 rue\tdu <i>Bac</i>' }, admin)).json();
    expect(updated).toMatchObject({ phone: 'a &lt; b', address: '1 rue du Bac', city: 'Paris 11e' });
    const organizer = (await call('POST', '/organizers', { organizer: 'Les <Amis>', phone: '<3 555', email: ' amis@example.org ' }, admin)).json();
    expect(organizer).toMatchObject({ phone: '&lt;3 555', email: 'amis@example.org' });
  });

  it('reuse a record of the same name (case and accents aside) and description, saving the new post meta on it', async () => {
    const first = (await call('POST', '/venues', { venue: 'Salle Rameau', description: 'Hall', city: 'Lyon', state: 'TX', phone: '555', show_map: 'false', date_utc: '2026-01-05 10:00:00' }, admin)).json();
    const again = await call('POST', '/venues', { venue: 'SALLE RAMEAU', description: 'hall', city: 'Vienne', province: 'Isère', phone: '' }, admin);
    expect(again.statusCode).toBe(201);
    // The name, description and modified date are the record's; the meta sent replaces its own, stateprovince made from this request.
    expect(again.json()).toMatchObject({ id: first.id, venue: 'Salle Rameau', city: 'Vienne', state: 'TX', province: 'Isère', stateprovince: 'Isère', show_map: true, modified_utc: '2026-01-05 10:00:00' });
    expect(again.json().phone).toBeUndefined();
    expect((await call('POST', '/venues', { venue: 'Salle Rameau', description: 'Another hall' }, admin)).json().id).not.toBe(first.id);
    const organizer = (await call('POST', '/organizers', { organizer: 'Les Amis du Jazz', phone: '1' }, admin)).json();
    expect((await call('POST', '/organizers', { organizer: 'Les Amis du Jazz', email: 'amis@example.org' }, admin)).json()).toMatchObject({ id: organizer.id, phone: '1', email: 'amis@example.org' });
  });

  it('reuse only a record the caller may edit: another name-alike gets a record of its own, its draft neither shown nor changed', async () => {
    const author = await app.auth('author');
    const secret = (await call('POST', '/venues', { venue: 'Secret Place', description: 'TOP SECRET plan', status: 'draft', address: '1 Hidden Rd' }, admin)).json();
    const hall = (await call('POST', '/venues', { venue: 'Guarded Hall', city: 'Lyon' }, admin)).json();
    expect((await call('GET', `/venues/${secret.id}`, undefined, author)).statusCode).toBe(403);
    const own = await call('POST', '/venues', { venue: 'SECRET PLACE' }, author);
    expect(own.statusCode).toBe(201);
    expect(own.json().id).not.toBe(secret.id);
    expect(own.json()).not.toHaveProperty('address');
    const ownHall = (await call('POST', '/venues', { venue: 'Guarded Hall', city: 'Hacked' }, author)).json();
    expect(ownHall.id).not.toBe(hall.id);
    // Inline in an event too; the author's own record of that name is the one reused.
    const event = (await call('POST', '/events', { title: 'Inline', start_date: '2027-09-01 10:00', end_date: '2027-09-01 11:00', venue: { venue: 'Guarded Hall', city: 'Vienne' } }, author)).json();
    expect(event.venue).toMatchObject({ id: ownHall.id, city: 'Vienne' });
    expect((await call('GET', `/venues/${hall.id}`)).json().city).toBe('Lyon');
    expect((await call('GET', `/venues/${secret.id}`, undefined, admin)).json()).toMatchObject({ venue: 'Secret Place', address: '1 Hidden Rd' });
    // An editor may edit others' records: the administrator's is reused.
    expect((await call('POST', '/organizers', { organizer: 'Guarded Friends' }, admin)).json().id)
      .toBe((await call('POST', '/organizers', { organizer: 'Guarded Friends', phone: '5' }, await app.auth('editor'))).json().id);
  });

  it("turn a venue's map flags on at every create and update that does not send a false one (Venue::update)", async () => {
    const venue = (await call('POST', '/venues', { venue: 'Mapless Hall', show_map: 'no', show_map_link: 'false' }, admin)).json();
    expect(venue).toMatchObject({ show_map: false, show_map_link: false });
    const kept = (await call('PATCH', `/venues/${venue.id}`, { show_map: '0', show_map_link: 'Y' }, admin)).json();
    expect(kept).toMatchObject({ show_map: false, show_map_link: true });
    const unsent = (await call('PATCH', `/venues/${venue.id}`, { phone: '555' }, admin)).json();
    expect(unsent).toMatchObject({ show_map: true, show_map_link: true });
  });
});

describe('slugs', () => {
  it('makes one slug from one name for every kind of record, with the accents folded as the legacy site does', async () => {
    const made = [
      await call('POST', '/venues', { venue: 'Café Oto' }, admin),
      await call('POST', '/organizers', { organizer: 'Café Oto' }, admin),
      await call('POST', '/events', { title: 'Café Oto', start_date: '2027-08-01 20:00', end_date: '2027-08-01 22:00' }, admin),
      await call('POST', '/categories', { name: 'Café Oto' }, admin),
    ];
    expect(made.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    expect(made.map((r) => r.json().slug)).toEqual(['cafe-oto', 'cafe-oto', 'cafe-oto', 'cafe-oto']);
  });

  it('names a record by its title when the slug sent sanitizes to nothing, and by its ID when the title does too (wp_insert_post)', async () => {
    const organizer = (await call('POST', '/organizers', { organizer: '#<[' }, admin)).json();
    expect(organizer).toMatchObject({ slug: String(organizer.id), url: `http://lintel.test/organizer/${organizer.id}/` });
    expect((await call('DELETE', `/organizers/${organizer.id}`, undefined, admin)).json().slug).toBe(`${organizer.id}__trashed`);
    const venue = (await call('POST', '/venues', { venue: '!!!' }, admin)).json();
    expect(venue.slug).toBe(String(venue.id));
    const times = { start_date: '2027-08-02 20:00', end_date: '2027-08-02 22:00' };
    const event = (await call('POST', '/events', { title: 'Sloganless Night', slug: '#<[', ...times }, admin)).json();
    expect(event.slug).toBe('sloganless-night');
    const symbols = (await call('POST', '/events', { title: '***', ...times }, admin)).json();
    expect(symbols.slug).toBe(String(symbols.id));
    expect((await call('PATCH', `/events/${event.id}`, { slug: '&&' }, admin)).json().slug).toBe('sloganless-night');
    expect((await call('PATCH', `/events/${event.id}`, { slug: '%%', title: 'Renamed Night' }, admin)).json().slug).toBe('renamed-night');
  });
});

describe('geolocation and demo data', () => {
  it('seeds demo events, and ignores the geolocation filters of the Pro add-on as the legacy site without it does', async () => {
    await seedCalendarDemo(app.store, pinnedClock('2026-11-21T12:06:30Z'));
    const window = '/events?start_date=2000-01-01&end_date=2030-01-01&per_page=50';
    const all = (await call('GET', window)).json();
    expect(all.total).toBeGreaterThan(30);
    for (const geo of ['geoloc=true', 'geoloc_lat=41.88&geoloc_lng=-87.63', 'geoloc_lat=41.88', 'geoloc=1&geoloc_lat=0&geoloc_lng=0']) {
      const res = await call('GET', `${window}&${geo}`);
      expect([res.statusCode, res.json().total, res.json().events.map((e: { id: number }) => e.id)], geo).toEqual([200, all.total, all.events.map((e: { id: number }) => e.id)]);
    }
    // Passed on to the links with geoloc only, an absent coordinate as a bare name (add_query_arg).
    expect((await call('GET', `${window}&geoloc=true&geoloc_lat=41.88`)).json().rest_url).toContain('&geoloc=1&geoloc_lat=41.88&geoloc_lng&');
    expect((await call('GET', `${window}&geoloc_lat=41.88`)).json().rest_url).not.toContain('geoloc');
  });

  it('has upcoming drafts, listed with ?status=draft for an author and hidden from anonymous readers', async () => {
    const drafts = (await call('GET', '/events?status=draft&start_date=2000-01-01&end_date=2030-01-01', undefined, admin)).json();
    expect(drafts.total).toBeGreaterThan(0);
    expect(drafts.events.every((e: { status: string }) => e.status === 'draft')).toBe(true);
    const anonymous = (await call('GET', '/events?start_date=2000-01-01&end_date=2030-01-01&per_page=50')).json();
    expect(anonymous.events.some((e: { status: string }) => e.status === 'draft')).toBe(false);
  });
});
