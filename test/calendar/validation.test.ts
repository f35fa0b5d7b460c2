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

  it('look a value of another type up first, then check the type: a failed lookup is the bare message (callback before type)', async () => {
    const admin = await app.auth('administrator');
    const made = await app.server.inject({ method: 'POST', url: `${NS}/organizers`, headers: { authorization: admin, 'content-type': 'application/json' }, payload: JSON.stringify({ organizer: 'Looked Up' }) });
    const organizer = made.json().id as number;
    const typeError = (await get(`/organizers/${organizer}?id[2]=${organizer}`)).json().data.params;
    expect(typeError).toEqual({ id: 'id is not of type integer.' });
    expect((await get(`/organizers/${organizer}?id[2]=99999`)).json()).toEqual(invalid('id'));
    expect((await get('/categories?parent[2]=99999')).json()).toEqual(invalid('parent'));
  });

  it('look a term ID up as is_event_category does (term_exists by the absolute value, a slug or a list), then check the integer type', async () => {
    const admin = await app.auth('administrator');
    const made = await app.server.inject({ method: 'POST', url: `${NS}/categories`, headers: { authorization: admin, 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'Term Looked Up' }) });
    const { id, slug } = made.json() as { id: number; slug: string };
    expect((await get(`/categories/${id}?id=-${id}`)).json()).toEqual({ code: 'rest_term_invalid', message: 'Term does not exist.', data: { status: 404 } });
    for (const q of [`id[]=${id}`, `id=${slug}`]) expect((await get(`/categories/${id}?${q}`)).json().data.params, q).toEqual({ id: 'id is not of type integer.' });
    expect((await get(`/categories/${id}?id=abc`)).json()).toEqual(invalid('id'));
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

  it('find the taxonomy\'s first term for a text whose slug is empty (term_exists asks get_terms with no slug), which the events query then matches with none', async () => {
    const t = await tag();
    await post('/categories', { name: 'Some Category' });
    for (const q of ['include=*', 'include[2]=%5B%5D', 'exclude[]=%2F', 'exclude=%25']) expect((await get(`/tags?hide_empty=0&${q}`)).statusCode, q).toBe(200);
    expect((await get(`/tags?hide_empty=0&include=${t.id},*`)).json().tags.map((x: { id: number }) => x.id)).toEqual([t.id]);
    expect((await get('/tags?include=%5Bobject%20Object%5D')).json()).toEqual(invalid('include'));
    const admin = await app.auth('administrator');
    const tagged = await app.server.inject({
      method: 'POST', url: `${NS}/events`, headers: { authorization: admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'Tagged', start_date: '2027-03-11 19:00', end_date: '2027-03-11 22:00', tags: [t.id] }),
    });
    expect(tagged.statusCode).toBe(201);
    expect((await get(`/events?tags=${t.id}`)).json().total).toBe(1);
    for (const q of ['tags[2]=*', 'categories[2]=%5B%5D', `tags[]=*&tags[]=-${t.id}`]) expect((await get(`/events?${q}`)).json().total, q).toBe(0);
    // A query `id` overrides the path's (get_parameter_order puts GET first) and is looked up the same way, then fails the integer type.
    const contributor = await app.auth('contributor');
    const removal = await app.server.inject({ method: 'DELETE', url: `${NS}/tags/${t.id}?id=%25&_envelope=1`, headers: { authorization: contributor } });
    expect(removal.json().body.data.details).toEqual({ id: { code: 'rest_invalid_type', message: 'id is not of type integer.', data: { param: 'id' } } });
    // A category parent is looked up the same way, then fails the integer type.
    expect((await post('/categories', { name: 'Child of a slash', parent: '/' })).data.params).toEqual({ parent: 'parent is not of type integer.' });
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

describe('validate callbacks of the writes', () => {
  const send = async (method: string, url: string, body: object, role: 'administrator' | null = 'administrator') =>
    app.server.inject({ method: method as 'POST', url: NS + url, headers: { ...(role ? { authorization: await app.auth(role) } : {}), 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const event = { title: 'Linked', start_date: '2027-03-11 19:00', end_date: '2027-03-11 22:00' };

  it('name author, timezone, image, website and organizer with the other callbacks, in declaration order (is_user_id, is_timezone_or_empty, is_image, is_url_or_empty, is_organizer_id_or_entry_or_empty)', async () => {
    const bad = { ...event, author: 99999, timezone: ['Europe/Paris'], image: 'https://example.com/a.png', website: 'nope', organizer: 99999, start_date: 'not a date' };
    expect((await send('POST', '/events', bad)).json()).toEqual(invalid('author', 'timezone', 'start_date', 'image', 'website', 'organizer'));
    // Before the permission: an anonymous create is refused for its values first.
    expect((await send('POST', '/events', bad, null)).json()).toEqual(invalid('author', 'timezone', 'start_date', 'image', 'website', 'organizer'));
    expect((await send('POST', '/events', { ...event, timezone: '', website: '' })).statusCode).toBe(201);
    expect((await send('POST', '/events', { ...event, timezone: 'europe/paris', author: '1' })).json().timezone).toBe('europe/paris');
  });

  it('let venues and organizers have an empty image only, and an author who exists (is_image_or_empty, is_user_id)', async () => {
    expect((await send('POST', '/organizers', { organizer: 'Pictured', image: '7', author: -5 })).json()).toEqual(invalid('author', 'image'));
    expect((await send('POST', '/venues', { venue: 'Plain', image: '' })).statusCode).toBe(201);
  });

  it('accept an event organizer as IDs, {id}, or fields that pass the organizer create callbacks; empty ones link nothing', async () => {
    const org = (await send('POST', '/organizers', { organizer: 'Linked Org' })).json().id as number;
    const venue = (await send('POST', '/venues', { venue: 'Linked Hall' })).json().id as number;
    const linked = async (organizer: unknown) => (await send('POST', '/events', { ...event, organizer })).json();
    expect((await linked(`${org}`)).organizer.map((o: { id: number }) => o.id)).toEqual([org]);
    expect((await linked({ 0: `${org}.0` })).organizer.map((o: { id: number }) => o.id)).toEqual([org]);
    expect((await linked([{ id: org }])).organizer.map((o: { id: number }) => o.id)).toEqual([org]);
    expect((await linked([0, ''])).organizer).toEqual([]);
    expect((await linked({ organizer: 'Inline Org', email: 'inline@example.com' })).organizer[0].organizer).toBe('Inline Org');
    for (const bad of [`${venue}`, [{ id: venue }], { email: 'no name' }, { organizer: 'Pictured', image: 'x' }, ['', org], [[org]]]) {
      expect(await linked(bad), JSON.stringify(bad)).toEqual(invalid('organizer'));
    }
  });

  it('want a category parent that is a category (is_event_category), then an integer', async () => {
    const music = (await send('POST', '/categories', { name: 'Parent Music' })).json() as { id: number; slug: string };
    for (const parent of ['999', '0', '-1']) expect((await send('POST', '/categories', { name: `Child ${parent}`, parent })).json(), parent).toEqual(invalid('parent'));
    expect((await send('POST', '/categories', { name: 'Child slug', parent: music.slug })).json().data.params).toEqual({ parent: 'parent is not of type integer.' });
    expect((await send('POST', '/categories', { name: 'Child', parent: music.id })).json().parent).toBe(music.id);
  });
});

describe('a slug in the path', () => {
  it('ends at its first `?`, decoded (the legacy path is cut there): a slug starting with one leaves no route', async () => {
    const noRoute = await get('/venues/by-slug/%3Fx');
    expect(noRoute.statusCode).toBe(404);
    expect(noRoute.json()).toEqual({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    expect(noRoute.headers.allow).toBeUndefined();
    // `checked%3Fx` names the event `checked`; trailing backslashes go as trailing slashes do.
    expect((await get('/events/by-slug/checked%3Fx')).json().id).toBe(eventId);
    expect((await get('/events/by-slug/checked%5C')).json().id).toBe(eventId);
    expect((await get('/venues/by-slug/%5C')).json().code).toBe('rest_no_route');
  });
});

describe('is_time', () => {
  it('takes a zone alone as strtotime does (now): an abbreviation PHP knows, a military letter but j, an offset', async () => {
    const admin = await app.auth('administrator');
    const venue = (date: string) =>
      app.server.inject({ method: 'POST', url: `${NS}/venues`, headers: { authorization: admin, 'content-type': 'application/json' }, payload: JSON.stringify({ venue: `Zone ${date}`, date }) });
    for (const date of ['O', 'est', 'utc+2', '+2']) expect((await venue(date)).statusCode, date).toBe(201);
    for (const date of ['j', 'xyz']) expect((await venue(date)).json(), date).toEqual(invalid('date'));
  });

  it('takes a text of separators alone (spaces, tabs, commas, dots) as now, as timelib skips them; not other punctuation or nothing', async () => {
    for (const q of ['%20', '%09', '%2C', '.', '%20%2C%20']) expect((await get(`/events?start_date=${q}`)).statusCode, q).toBe(200);
    for (const q of ['%3B', '-', '']) expect((await get(`/events?start_date=${q}`)).json(), q).toEqual(invalid('start_date'));
  });
});

describe('a JSON null', () => {
  it('skips the validate callback and fails the declared type, with the schema checks, in the order sent', async () => {
    const res = await app.server.inject({
      method: 'POST', url: `${NS}/venues`, headers: { authorization: await app.auth('administrator'), 'content-type': 'application/json' },
      payload: JSON.stringify({ venue: 'Null Hall', status: null, author: null }),
    });
    expect(res.json()).toEqual({
      code: 'rest_invalid_param', message: 'Invalid parameter(s): status, author',
      data: {
        status: 400, params: { status: 'status is not of type string.', author: 'author is not of type integer.' },
        details: {
          status: { code: 'rest_invalid_type', message: 'status is not of type string.', data: { param: 'status' } },
          author: { code: 'rest_invalid_type', message: 'author is not of type integer.', data: { param: 'author' } },
        },
      },
    });
  });
});

describe('the declared types of the callbacks', () => {
  it('are checked only once every validate callback passed, with the schema checks', async () => {
    expect((await get('/events?post_parent=999999&ticketed=abc')).json()).toEqual(invalid('post_parent'));
    expect((await get('/events?ticketed=abc')).json().data.params).toEqual({ ticketed: 'ticketed is not of type boolean.' });
  });
});

describe('the schema checks (sanitize_params)', () => {
  const create = async (body: object, query: string) => {
    const res = await app.server.inject({
      method: 'POST', url: `${NS}/events?title=T&start_date=2027-01-01&end_date=2027-01-01&${query}`,
      headers: { authorization: await app.auth('administrator'), 'content-type': 'application/json' }, payload: JSON.stringify(body),
    });
    return res.json();
  };

  it('name a JSON null where the body has it, then the query in its own order', async () => {
    const body = await create({ sticky: 'abc', show_map: null, featured: 'x' }, 'all_day=zz');
    expect(body.message).toBe('Invalid parameter(s): sticky, show_map, featured, all_day');
  });

  it('check every source a parameter is sent in, not only the one the handler reads', async () => {
    // all_day is valid in the body, which the handler would read, but not in the query.
    const body = await create({ sticky: 'abc', all_day: true, show_map: null }, 'all_day=zz&featured=q');
    expect(body.message).toBe('Invalid parameter(s): sticky, show_map, all_day, featured');
    expect(body.data.params.all_day).toBe('all_day is not of type boolean.');
  });

  it('check another source\'s value of an argument with its own callback against the declared type alone (checked on the legacy site)', async () => {
    const res = await app.server.inject({
      method: 'POST', url: `${NS}/events?title[]=x`, headers: { authorization: await app.auth('administrator'), 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'Typed', start_date: '2027-05-01 10:00', end_date: '2027-05-01 11:00' }),
    });
    expect(res.json()).toEqual({
      code: 'rest_invalid_param', message: 'Invalid parameter(s): title',
      data: { status: 400, params: { title: 'title is not of type string.' }, details: { title: { code: 'rest_invalid_type', message: 'title is not of type string.', data: { param: 'title' } } } },
    });
  });
});

describe('an inline venue or organizer given by ID', () => {
  it('reads the ID as PHP\'s (int) cast does, as the validate callback read it: "4abc" is 4', async () => {
    const admin = await app.auth('administrator');
    const venue = (await app.server.inject({ method: 'POST', url: `${NS}/venues`, headers: { authorization: admin, 'content-type': 'application/json' }, payload: JSON.stringify({ venue: 'Cast Hall' }) })).json().id;
    const organizer = (await app.server.inject({ method: 'POST', url: `${NS}/organizers`, headers: { authorization: admin, 'content-type': 'application/json' }, payload: JSON.stringify({ organizer: 'Cast Society' }) })).json().id;
    const res = await app.server.inject({
      method: 'POST', url: `${NS}/events`, headers: { authorization: admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'Cast', start_date: '2027-05-01 10:00', end_date: '2027-05-01 11:00', venue: { id: `${venue}abc` }, organizer: [{ id: `${organizer}xyz` }] }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().venue.id).toBe(venue);
    expect(res.json().organizer.map((o: { id: number }) => o.id)).toEqual([organizer]);
  });
});

describe('a request made a POST by _method', () => {
  it('has no form body unless it really is a POST (PHP fills $_POST only then); a JSON body is read', async () => {
    const admin = await app.auth('administrator');
    const made = await app.server.inject({ method: 'POST', url: `${NS}/organizers`, headers: { authorization: admin, 'content-type': 'application/json' }, payload: JSON.stringify({ organizer: 'Overridden' }) });
    const url = `${NS}/organizers/${made.json().id}`;
    const form = { authorization: admin, 'content-type': 'application/x-www-form-urlencoded' };
    expect((await app.server.inject({ method: 'DELETE', url: `${url}?_method=POST`, headers: form, payload: 'organizer=' })).statusCode).toBe(200);
    expect((await app.server.inject({ method: 'PUT', url, headers: form, payload: 'organizer=' })).json()).toEqual(invalid('organizer'));
    expect((await app.server.inject({ method: 'POST', url: `${url}?_method=PUT`, headers: form, payload: 'organizer=' })).json()).toEqual(invalid('organizer'));
    const json = { authorization: admin, 'content-type': 'application/json' };
    expect((await app.server.inject({ method: 'DELETE', url: `${url}?_method=POST`, headers: json, payload: '{"organizer":""}' })).json()).toEqual(invalid('organizer'));
  });
});
