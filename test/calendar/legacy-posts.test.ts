/**
 * Calendar routes naming a post of the legacy site that is no calendar record (a page, a menu, a
 * revision: `lintel import` keeps them): the legacy callbacks check edit_post/delete_post on that
 * post, so who may write, and the `Allow` header, depend on what it is; an event route names it no
 * event (400), where an ID no post has is not found (404).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let eventId: number;
const NS = '/wp-json/calendar/events/v1';
const call = async (method: string, url: string, role?: 'administrator' | 'editor' | 'author') =>
  app.server.inject({ method: method as 'GET', url: NS + url, headers: role ? { authorization: await app.auth(role) } : {} });
const [PAGE, MENU, REVISION, POST, UNKNOWN] = [801, 802, 803, 804, 990];

beforeAll(async () => {
  app = await testApp();
  await app.auth('administrator');
  const adminId = (await app.store.users.byLogin('admin'))!.id;
  const created = await app.server.inject({
    method: 'POST', url: `${NS}/events`, headers: { authorization: await app.auth('administrator'), 'content-type': 'application/json' },
    payload: JSON.stringify({ title: 'Gala', start_date: '2027-01-01 20:00', end_date: '2027-01-01 23:00' }),
  });
  eventId = created.json().id;
  await app.store.legacyPosts.importPosts([
    { id: PAGE, post_type: 'page', status: 'publish', author: adminId, parent: 0 },
    { id: MENU, post_type: 'wp_navigation', status: 'publish', author: 0, parent: 0 },
    { id: REVISION, post_type: 'revision', status: 'inherit', author: adminId, parent: eventId },
    { id: POST, post_type: 'post', status: 'publish', author: adminId, parent: 0 },
  ]);
});
afterAll(() => app.close());

describe('calendar routes on the legacy site\'s other posts', () => {
  it('an event route names such a post no event (400); an ID no post has is not found (404)', async () => {
    for (const id of [PAGE, MENU, REVISION, POST]) {
      const res = await call('GET', `/events/${id}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'rest-invalid-event-id', message: 'The specified ID is not a valid event.', data: { status: 400 } });
    }
    expect((await call('GET', `/events/${UNKNOWN}`)).json().code).toBe('rest-event-not-found');
  });

  it('a revision is edited as its post and never deleted: no DELETE in Allow, and a delete is refused before the lookup', async () => {
    expect((await call('GET', `/events/${REVISION}`, 'administrator')).headers.allow).toBe('GET, POST, PUT, PATCH');
    expect((await call('GET', `/venues/${REVISION}`, 'administrator')).headers.allow).toBe('GET, POST, PUT, PATCH');
    const refused = await call('DELETE', `/events/${REVISION}`, 'administrator');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } });
    // An author may not edit an administrator's event, nor its revision.
    expect((await call('GET', `/events/${REVISION}`, 'author')).headers.allow).toBe('GET');
  });

  it('OPTIONS runs the same record checks for its Allow header, on the path and query (a form body is not read there)', async () => {
    expect((await call('OPTIONS', `/events/${REVISION}`, 'administrator')).headers.allow).toBe('GET, POST, PUT, PATCH');
    expect((await call('OPTIONS', `/venues/${eventId}`, 'administrator')).headers.allow).toBe('GET, DELETE, POST, PUT, PATCH');
    expect((await call('OPTIONS', `/venues/${UNKNOWN}?id=${REVISION}`, 'administrator')).headers.allow).toBe('GET, POST, PUT, PATCH');
    const form = await app.server.inject({
      method: 'OPTIONS', url: `${NS}/events/${REVISION}`, payload: `id=${eventId}`,
      headers: { authorization: await app.auth('administrator'), 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.headers.allow).toBe('GET, POST, PUT, PATCH');
    // A venue route on an administrator's event: an author may not change it.
    expect((await call('OPTIONS', `/venues/${eventId}`, 'author')).headers.allow).toBe('GET');
  });

  it('pages are editors\', menus administrators\', posts as calendar records', async () => {
    expect((await call('GET', `/events/${PAGE}`, 'editor')).headers.allow).toBe('GET, DELETE, POST, PUT, PATCH');
    expect((await call('GET', `/events/${MENU}`, 'editor')).headers.allow).toBe('GET');
    expect((await call('GET', `/events/${MENU}`, 'administrator')).headers.allow).toBe('GET, DELETE, POST, PUT, PATCH');
    expect((await call('GET', `/events/${POST}`, 'author')).headers.allow).toBe('GET');
    expect((await call('GET', `/events/${POST}`, 'editor')).headers.allow).toBe('GET, DELETE, POST, PUT, PATCH');
    const menuByEditor = await call('PUT', `/events/${MENU}`, 'editor');
    expect([menuByEditor.statusCode, menuByEditor.json().code]).toEqual([403, 'rest_forbidden']);
    // Who may write it is only told that it is no event.
    const menuByAdmin = await call('PUT', `/events/${MENU}`, 'administrator');
    expect([menuByAdmin.statusCode, menuByAdmin.json().code]).toEqual([400, 'rest-invalid-event-id']);
    // An event ID no post has is the capability alone (the legacy fallback to reach the 404).
    expect((await call('GET', `/events/${UNKNOWN}`, 'author')).headers.allow).toBe('GET, DELETE, POST, PUT, PATCH');
  });
});
