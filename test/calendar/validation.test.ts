/**
 * The TEC argument checks, as the legacy site runs them: each argument's validate callback first (a
 * failure is the bare "Invalid parameter." with no details), then the type of those that declare one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp;
const NS = '/wp-json/calendar/events/v1';
const get = (url: string) => app.server.inject({ method: 'GET', url: NS + url });
let eventId: number;

beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:06:30Z' } });
  const admin = await app.auth('administrator');
  const created = await app.server.inject({
    method: 'POST', url: `${NS}/events`, headers: { authorization: admin, 'content-type': 'application/json' },
    payload: JSON.stringify({ title: 'Checked', start_date: '2027-03-10 19:00', end_date: '2027-03-10 22:00' }),
  });
  eventId = created.json().id;
});
afterAll(() => app.close());

const invalid = (...names: string[]) => ({
  code: 'rest_invalid_param',
  message: `Invalid parameter(s): ${names.join(', ')}`,
  data: { status: 400, params: Object.fromEntries(names.map((n) => [n, 'Invalid parameter.'])), details: [] },
});

describe('validate callbacks', () => {
  it('refuse an event ID that is not numeric with the bare message (is_event_id_format)', async () => {
    for (const q of ['id=abc', 'id[]=3', 'id=']) expect((await get(`/events/${eventId}?${q}`)).json()).toEqual(invalid('id'));
  });

  it('then check the declared type: a numeric ID that is not whole is not an integer', async () => {
    expect((await get(`/events/${eventId}?id=1.5`)).json()).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): id',
      data: { status: 400, params: { id: 'id is not of type integer.' }, details: { id: { code: 'rest_invalid_type', message: 'id is not of type integer.', data: { param: 'id' } } } },
    });
  });

  it('refuse a venue or organizer ID that names no record with the bare message, whatever its form', async () => {
    for (const q of ['id=1.5', 'id[]=1', 'id=abc']) expect((await get(`/venues/1?${q}`)).json()).toEqual(invalid('id'));
    expect((await get('/organizers?event=abc')).json()).toEqual(invalid('event'));
  });

  it('want non-empty strings (is_string: "0" is empty in PHP)', async () => {
    expect((await get('/events?strict_dates=')).json()).toEqual(invalid('strict_dates'));
    expect((await get('/categories?search=0')).json()).toEqual(invalid('search'));
    expect((await get('/venues?search[]=x')).json()).toEqual(invalid('search'));
  });

  it('answer ticketed=1 without Event Tickets with the callback\'s own error', async () => {
    expect((await get('/events?ticketed=1')).json()).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): ticketed',
      data: { status: 400, params: { ticketed: 'Event Tickets plugin is not activated.' }, details: { ticketed: { code: 'event-tickets-not-active', message: 'Event Tickets plugin is not activated.', data: { status: 400 } } } },
    });
    expect((await get('/events?ticketed=0')).statusCode).toBe(200);
    // tribe_is_truthy casts what is no string: a list is true; strings are compared untrimmed.
    for (const q of ['ticketed[][]=true', 'ticketed=Enabled']) expect((await get(`/events?${q}`)).json().data.params, q).toEqual({ ticketed: 'Event Tickets plugin is not activated.' });
    expect((await get('/events?ticketed=%20yes')).json().data.params).toEqual({ ticketed: 'ticketed is not of type boolean.' });
  });

  it('leave geoloc_lat and geoloc_lng unchecked (nothing declares them without Events Calendar Pro)', async () => {
    expect((await get('/events?geoloc_lat[5]=&geoloc_lng=x')).statusCode).toBe(200);
  });
});

describe('record lookups of the validate callbacks', () => {
  const anonymous = (method: string, url: string) => app.server.inject({ method: method as 'DELETE', url: NS + url });

  it('refuse a missing record before the permission is checked: anonymous writes on it are 400, not 401', async () => {
    expect((await anonymous('DELETE', '/organizers/99999')).json()).toEqual(invalid('id'));
    expect((await anonymous('DELETE', '/organizers/' + eventId)).json()).toEqual(invalid('id'));
    expect((await anonymous('DELETE', '/venues/by-slug/nope')).json()).toEqual(invalid('slug'));
    expect((await anonymous('DELETE', '/events/by-slug/nope')).json()).toEqual(invalid('slug'));
    expect((await anonymous('DELETE', '/categories/999')).json()).toEqual(invalid('id'));
    expect((await anonymous('PUT', '/tags/999')).json()).toEqual(invalid('id'));
  });

  it('leave an existing record to the permission', async () => {
    expect((await anonymous('DELETE', '/events/by-slug/checked')).statusCode).toBe(401);
  });
});

describe('list lookups of the validate callbacks', () => {
  const anonymous = (url: string) => app.server.inject({ method: 'GET', url: NS + url });
  const asAdmin = async (url: string) => app.server.inject({ method: 'GET', url: NS + url, headers: { authorization: await app.auth('administrator') } });
  const post = async (url: string, body: object) =>
    (await app.server.inject({ method: 'POST', url: NS + url, headers: { authorization: await app.auth('administrator'), 'content-type': 'application/json' }, payload: JSON.stringify(body) })).json();
  let made: { id: number; slug: string } | undefined;
  const tag = async () => (made ??= await post('/tags', { name: 'Family Fun' }));

  it('name every failing list with the other callbacks, before the handler runs (is_event_category, is_post_tag, is_*_id_list, filter_post_status_list)', async () => {
    expect((await asAdmin('/events?page[a]=1&categories=nope&tags=zz&organizer=1&status=zzz')).json()).toEqual(invalid('page', 'categories', 'tags', 'organizer', 'status'));
    expect((await get('/categories?include=999&exclude=998&post=abc&page=0')).json()).toEqual(invalid('page', 'exclude', 'include', 'post'));
  });

  it('find no record for an ID beyond 2^53, without asking the store (no 500)', async () => {
    expect((await get('/events?categories=2147483648&tags[5]=99999999999999999999&organizer=9223372036854775807')).json()).toEqual(invalid('categories', 'tags', 'organizer'));
    expect((await get('/categories?post=99999999999999999999')).json()).toEqual(invalid('post'));
    expect((await get('/tags/1?id=99999999999999999999')).json()).toEqual(invalid('id'));
  });

  it('let those who cannot edit events ask for published ones only', async () => {
    expect((await anonymous('/events?status=publish,draft')).json()).toEqual(invalid('status'));
    expect((await anonymous('/venues?status=draft')).json()).toEqual(invalid('status'));
    expect((await anonymous('/events?status=publish,')).statusCode).toBe(200);
    expect((await asAdmin('/events?status=trash')).statusCode).toBe(200);
    expect((await asAdmin('/venues?status=0')).statusCode).toBe(200);
    expect((await anonymous('/venues?status=0')).json()).toEqual(invalid('status'));
  });

  it('find a term by ID, by slug or by name, and a negative ID by its absolute value (term_exists)', async () => {
    const t = await tag();
    for (const q of [`include=${t.id}`, `include=${t.slug}`, `include=%20${t.slug}`, `exclude=-${t.id}`]) expect((await get(`/tags?hide_empty=0&${q}`)).statusCode, q).toBe(200);
    expect((await get(`/tags?include=${t.id},99999`)).json()).toEqual(invalid('include'));
  });

  it('filter by what the query reads: a slug in a term list is no term ID, a negative ID and a fractional record ID match nothing', async () => {
    const t = await tag();
    expect((await get(`/tags?hide_empty=0&include=${t.id}`)).json().tags.map((x: { id: number }) => x.id)).toEqual([t.id]);
    expect((await get(`/tags?hide_empty=0&include=${t.slug}`)).json().total).toBe(0);
    expect((await get(`/tags?hide_empty=0&exclude=-${t.id}`)).json().tags.map((x: { id: number }) => x.id)).not.toContain(t.id);
    expect((await get(`/events?tags=-${t.id}`)).json().total).toBe(0);
    const organizer = (await post('/organizers', { organizer: 'Jazz Society' })).id as number;
    expect((await get(`/events?organizer=${organizer}.5`)).json().total).toBe(0);
  });
});
