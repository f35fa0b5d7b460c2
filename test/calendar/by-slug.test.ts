/**
 * The by-slug routes find their record as get_page_by_path does: the path URL-decoded, then made a
 * slug for the query (case, dots, spaces), one part only; their validate callback (is_event_slug)
 * refuses any other value before the permission is checked, a NUL byte included. An event update by slug
 * validates its `slug` as the create args do (is_string) and looks up the slug sent before the path's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let admin: string;
const NS = '/wp-json/calendar/events/v1';
const get = (url: string) => app.server.inject({ method: 'GET', url: NS + url });

beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:06:30Z' } });
  admin = await app.auth('administrator');
  const post = (path: string, body: object) => app.server.inject({ method: 'POST', url: NS + path, headers: { authorization: admin, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  await post('/events', { title: 'Autumn Jazz Night', start_date: '2027-03-10 19:00', end_date: '2027-03-10 22:00' });
  await post('/venues', { venue: 'Blue Note Hall' });
});
afterAll(() => app.close());

const refused = { code: 'rest_invalid_param', message: 'Invalid parameter(s): slug', data: { status: 400, params: { slug: 'Invalid parameter.' }, details: [] } };

describe('a by-slug path', () => {
  it('finds the record under the forms get_page_by_path reads as its slug', async () => {
    for (const slug of ['autumn-jazz-night', 'Autumn-Jazz-Night', 'autumn+jazz-night', 'autumn%20jazz-night', 'autumn%2Bjazz-night', 'autumn-jazz-night%2E', 'autumn.jazz.night']) {
      const r = await get(`/events/by-slug/${slug}`);
      expect([slug, r.statusCode, r.json().slug]).toEqual([slug, 200, 'autumn-jazz-night']);
    }
    expect((await get('/venues/by-slug/BLUE+NOTE+HALL')).json().venue).toBe('Blue Note Hall');
  });

  it('refuses a slug that makes another one, or several parts', async () => {
    for (const slug of ['blue-note-hall%26x', '%26', 'blue-note-hall.%252Fx', 'a.b%2Fblue-note-hall']) expect((await get(`/venues/by-slug/${slug}`)).json()).toEqual(refused);
    expect((await get('/events/by-slug/autumn%E2%80%93jazz-night')).json()).toEqual(refused);
  });

  it('names what the PHP server makes of an encoded slash: dot segments resolved, a path with a dot left as sent', async () => {
    // `..%2F` climbs back to the collection, `x%2F%2F..%2F` to the bare by-slug path, which no route has.
    for (const slug of ['..%2F', '%2F..', '..%2F..%2Fevents']) expect((await get(`/venues/by-slug/${slug}`)).json(), slug).toHaveProperty(slug.endsWith('events') ? 'events' : 'venues');
    for (const slug of ['.%2F', 'x%2F%2F..%2F', 'a%2Fb', 'autumn-jazz-night%2F%2Fx']) expect((await get(`/events/by-slug/${slug}`)).json().code, slug).toBe('rest_no_route');
    // `autumn-jazz-night/./` is the slug; `../.x` keeps a dot and reaches WordPress undecoded, a slug no record has.
    expect((await get('/events/by-slug/autumn-jazz-night%2F.%2F')).json().slug).toBe('autumn-jazz-night');
    expect((await get('/events/by-slug/..%2F.x')).json()).toEqual(refused);
  });

  it('refuses a NUL byte as a slug no record has, before the permission (is_event_slug runs first)', async () => {
    const r = await app.server.inject({ method: 'DELETE', url: `${NS}/events/by-slug/a%00b` });
    expect([r.statusCode, r.json()]).toEqual([400, refused]);
    const body = await app.server.inject({ method: 'DELETE', url: `${NS}/venues/by-slug/blue-note-hall`, headers: { 'content-type': 'application/json' }, payload: '{"slug":"blue-note-hall\\u0000"}' });
    expect([body.statusCode, body.json()]).toEqual([400, refused]);
  });
});

describe('an event update by slug', () => {
  const update = (url: string, form = '') =>
    app.server.inject({ method: 'PUT', url: `${NS}/events/by-slug/${url}`, headers: { authorization: admin, 'content-type': 'application/x-www-form-urlencoded' }, payload: form });
  const notFound = { code: 'rest-event-not-found', message: 'Event with ID 0 does not exist.', data: { status: 404 } };

  it('finds the event under the slug sent (query or body) before the one in the path, as $request[slug] reads', async () => {
    expect((await update('no-such-event?slug=autumn-jazz-night&_fields=id,slug')).json()).toMatchObject({ slug: 'autumn-jazz-night' });
    for (const [url, form] of [['autumn-jazz-night?slug=no-such-event', ''], ['autumn-jazz-night', 'slug=no-such-event']]) {
      const r = await update(url, form);
      expect([url, form, r.statusCode, r.json()]).toEqual([url, form, 404, notFound]);
    }
  });

  it('takes any string as the slug (the create args is_string): one no event has is event ID 0, not found', async () => {
    const r = await update('uCO-?slug=%F3%B0%85%A0%F1%B8%83%85');
    expect([r.statusCode, r.json()]).toEqual([404, notFound]);
  });

  it('names the slug first among the refused parameters (array_merge keeps the read args position)', async () => {
    const r = await update('x?date_utc=%F0%9D%82%9D&slug[]=false&end_date[2]=x');
    expect(r.json().message).toBe('Invalid parameter(s): slug, date_utc, end_date');
  });
});
