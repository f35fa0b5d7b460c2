/** Who may read and search a password-protected event, and who may attribute a record to another user. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/lib/roles.ts';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let admin: string;
let adminId: number;
const NS = '/wp-json/calendar/events/v1';
const call = (method: string, url: string, body?: unknown, auth?: string) =>
  app.server.inject({ method: method as 'GET', url: NS + url, headers: { ...(auth ? { authorization: auth } : {}), ...(body ? { 'content-type': 'application/json' } : {}) }, payload: body ? JSON.stringify(body) : undefined });
const window = 'start_date=2027-03-01&end_date=2027-03-31';
const foundIds = async (query: string, auth?: string) => (await call('GET', `/events?${window}&${query}`, undefined, auth)).json().events.map((e: { id: number }) => e.id);

let protectedId: number;
let contributorOwnId: number;

beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:06:30Z' } });
  admin = await app.auth('administrator');
  await app.auth('subscriber');
  adminId = (await app.store.users.byLogin('admin'))!.id;
  const created = await call('POST', '/events', {
    title: 'Members Evening', description: 'The cellar code is quartz-lantern.', excerpt: 'Bring the amber token.',
    start_date: '2027-03-10 19:00', end_date: '2027-03-10 22:00',
  }, admin);
  protectedId = created.json().id;
  expect((await call('PATCH', `/events/${protectedId}`, { password: 'opensesame' }, admin)).statusCode).toBe(200);
  const contributor = await app.auth('contributor');
  const own = await call('POST', '/events', { title: 'Own Draft', description: 'my violet memo', start_date: '2027-03-12 10:00', end_date: '2027-03-12 11:00', status: 'draft' }, contributor);
  contributorOwnId = own.json().id;
  await app.store.calendar.updateEvent(contributorOwnId, { password: 'mine', status: 'publish' }, new Date());
});
afterAll(() => app.close());

describe('password-protected events', () => {
  it('are not found by a part of their description or excerpt by those who may not read them', async () => {
    for (const auth of [undefined, await app.auth('subscriber'), await app.auth('author')]) {
      expect(await foundIds('search=quartz-lantern', auth)).toEqual([]);
      expect(await foundIds('search=amber%20token', auth)).toEqual([]);
      expect(await foundIds('search=Members%20Evening', auth)).toEqual([protectedId]);
    }
  });

  it('are found by their description by those who may edit them', async () => {
    expect(await foundIds('search=quartz-lantern', admin)).toEqual([protectedId]);
    expect(await foundIds('search=quartz-lantern', await app.auth('editor'))).toEqual([protectedId]);
    // A contributor searches the content of their own protected events only.
    const contributor = await app.auth('contributor');
    expect(await foundIds('search=violet%20memo', contributor)).toEqual([contributorOwnId]);
    expect(await foundIds('search=quartz-lantern', contributor)).toEqual([]);
    expect(await foundIds('search=violet%20memo')).toEqual([]);
  });

  it('answer 403 event-password-protected to an administrator without the password, and read with it', async () => {
    const without = await call('GET', `/events/${protectedId}`, undefined, admin);
    expect(without.statusCode).toBe(403);
    expect(without.json()).toEqual({ code: 'event-password-protected', message: 'The requested event is not accessible without a password', data: { status: 403 } });
    expect((await call('GET', `/events/${protectedId}?password=wrong`, undefined, admin)).statusCode).toBe(403);
    const withIt = await call('GET', `/events/${protectedId}?password=opensesame`, undefined, admin);
    expect(withIt.statusCode).toBe(200);
    expect(withIt.json().description).toContain('quartz-lantern');
  });
});

describe('author attribution', () => {
  const event = { title: 'Attributed', start_date: '2027-04-01 10:00', end_date: '2027-04-01 11:00' };
  const cases: [Role, boolean][] = [['administrator', true], ['editor', true], ['author', false], ['contributor', false]];

  for (const [role, mayAttribute] of cases) {
    it(`${role}: ${mayAttribute ? 'may' : 'may not'} create or update events, venues and organizers as another user`, async () => {
      const auth = await app.auth(role);
      const self = (await app.store.users.byLogin(role === 'administrator' ? 'admin' : role))!.id;
      const other = role === 'administrator' ? (await app.store.users.byLogin('subscriber'))!.id : adminId;
      const refused = (res: { statusCode: number; json(): unknown }, verb: string) => {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ code: 'rest_cannot_edit_others', message: `Sorry, you are not allowed to ${verb} posts as this user.`, data: { status: 403 } });
      };

      const create = await call('POST', '/events', { ...event, author: other }, auth);
      if (mayAttribute) expect(create.json().author).toBe(String(other));
      else refused(create, 'create');
      // Naming oneself is always allowed; updating one's own event to another author is not.
      const own = await call('POST', '/events', { ...event, author: self }, auth);
      expect(own.statusCode).toBe(201);
      const update = await call('PATCH', `/events/${own.json().id}`, { author: other }, auth);
      if (mayAttribute) expect(update.json().author).toBe(String(other));
      else refused(update, 'update');

      for (const [plural, name] of [['venues', 'venue'], ['organizers', 'organizer']] as const) {
        const res = await call('POST', `/${plural}`, { [name]: `${role} ${name}`, author: other }, auth);
        if (mayAttribute) expect(res.json().author).toBe(String(other));
        else refused(res, 'create');
      }
      // An inline venue of an event is created under the same rule.
      const inline = await call('POST', '/events', { ...event, venue: { venue: `${role} inline`, author: other } }, auth);
      if (mayAttribute) expect(inline.statusCode).toBe(201);
      else refused(inline, 'create');
    });
  }
});

describe('writes on one record', () => {
  const allow = (res: { headers: Record<string, unknown> }) => String(res.headers.allow ?? '').split(', ').sort().join(', ');
  const ALL = 'DELETE, GET, PATCH, POST, PUT';

  it('a record made by one who may not publish is a draft (pending when publishing was asked for); an update without status publishes it for one who may', async () => {
    const contributor = await app.auth('contributor');
    const draft = await call('POST', '/organizers', { organizer: 'Quiet Circle' }, contributor);
    expect(draft.json()).toMatchObject({ status: 'draft', date_utc: '0000-00-00 00:00:00', url: `http://lintel.test/?post_type=tribe_organizer&p=${draft.json().id}` });
    expect((await call('POST', '/venues', { venue: 'Back Room', status: 'publish' }, contributor)).json().status).toBe('pending');
    expect((await call('POST', '/events', { title: 'Small Talk', start_date: '2027-05-01 10:00', end_date: '2027-05-01 11:00' }, contributor)).json().status).toBe('draft');
    // The contributor's own update keeps it a draft; an editor's, sending no status, publishes it.
    expect((await call('PATCH', `/organizers/${draft.json().id}`, { phone: '555' }, contributor)).json().status).toBe('draft');
    expect((await call('PATCH', `/organizers/${draft.json().id}`, { phone: '556' }, await app.auth('editor'))).json()).toMatchObject({ status: 'publish', slug: 'quiet-circle' });
  });

  it('take the post date sent (date in site time, date_utc in UTC); a published one dated ahead is scheduled', async () => {
    // The clock is 2026-11-21 12:06:30 UTC; the site is in New York.
    const past = (await call('POST', '/organizers', { organizer: 'Dated Guild', date: '2026-01-05 09:30:00' }, admin)).json();
    expect(past).toMatchObject({ status: 'publish', date: '2026-01-05 09:30:00', date_utc: '2026-01-05 14:30:00', modified_utc: '2026-01-05 14:30:00' });
    const ahead = (await call('POST', '/venues', { venue: 'Future Hall', date_utc: '2027-02-01 10:00:00' }, admin)).json();
    expect(ahead).toMatchObject({ status: 'future', date: '2027-02-01 05:00:00', url: `http://lintel.test/?post_type=tribe_venue&p=${ahead.id}` });
    const moved = (await call('PATCH', `/venues/${ahead.id}`, { date_utc: '2026-11-01 13:00:00' }, admin)).json();
    expect(moved).toMatchObject({ status: 'publish', date: '2026-11-01 08:00:00', slug: 'future-hall' });
  });

  it('an update without status brings a trashed venue back, published under its slug', async () => {
    const id = (await call('POST', '/venues', { venue: 'Old Mill' }, admin)).json().id;
    expect((await call('DELETE', `/venues/${id}`, undefined, admin)).json()).toMatchObject({ status: 'trash', slug: 'old-mill__trashed' });
    expect((await call('PATCH', `/venues/${id}`, { city: 'Lowell' }, admin)).json()).toMatchObject({ status: 'publish', slug: 'old-mill', city: 'Lowell' });
  });

  it('Allow names the methods the caller may use on that record: a contributor only reads what is published or not theirs', async () => {
    const contributor = await app.auth('contributor');
    const editor = await app.auth('editor');
    const others = (await call('POST', '/organizers', { organizer: 'Harbour Board' }, admin)).json().id;
    expect(allow(await call('GET', `/organizers/${others}`, undefined, contributor))).toBe('GET');
    expect(allow(await call('GET', `/organizers/${others}`, undefined, editor))).toBe(ALL);
    const own = (await call('POST', '/organizers', { organizer: 'Own Circle' }, contributor)).json().id;
    expect(allow(await call('GET', `/organizers/${own}`, undefined, contributor))).toBe(ALL);
    // Once published, the contributor's own record is no longer theirs to change.
    await call('PATCH', `/organizers/${own}`, {}, admin);
    const refused = await call('PATCH', `/organizers/${own}`, { phone: '1' }, contributor);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('rest_forbidden');
    expect(allow(refused)).toBe('GET');
    // The query's `id` is the record checked; an organizer route checks any record the ID names, an event's own kind or none.
    expect(allow(await call('GET', `/organizers/${own}?id=${others}`, undefined, editor))).toBe(ALL);
    expect(allow(await call('GET', '/organizers/999999', undefined, editor))).toBe('GET');
    expect(allow(await call('GET', '/events/999999', undefined, contributor))).toBe(ALL);
    expect(allow(await call('GET', `/events/${protectedId}`, undefined, contributor))).toBe('GET');
    // An `id` list is read as PHP's (int) of it, post 1: WordPress's first post, the administrator's.
    expect(allow(await call('GET', `/organizers/${own}?id[]=${own}`, undefined, contributor))).toBe('GET');
    expect(allow(await call('GET', `/events/${protectedId}?id[a][b]=4`, undefined, contributor))).toBe('GET');
    expect(allow(await call('GET', `/venues/${others}?id[]=5`, undefined, editor))).toBe(ALL);
  });
});
