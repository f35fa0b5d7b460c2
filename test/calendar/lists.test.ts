/** The venue and organizer lists' order, as the legacy site's MySQL query gives it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp;
const NS = '/wp-json/calendar/events/v1';
const ids: Record<string, number> = {};

beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:06:30Z' } });
  // Three organizers saved in the same second, as a seeding script does.
  const second = new Date('2026-11-20T07:06:34Z');
  for (const [name, status] of [['First', 'publish'], ['Second', 'draft'], ['Third', 'publish']] as const) {
    const f = { author: 1, status, slug: name.toLowerCase(), name, description: '', excerpt: '', phone: '', website: '', email: '', image: '' };
    ids[name] = await app.store.calendar.createLinked('organizer', f, second);
  }
});
afterAll(() => app.close());

const listed = async (query: string, role?: 'administrator') => {
  const auth = role ? { authorization: await app.auth(role) } : {};
  const body = (await app.server.inject({ method: 'GET', url: `${NS}/organizers?per_page=50&${query}`, headers: auth })).json();
  const ours = new Set(Object.values(ids));
  return body.organizers.map((o: { id: number }) => o.id).filter((id: number) => ours.has(id));
};

describe('records saved in the same second', () => {
  it('are listed newest ID first when one status is asked for (the index read backwards)', async () => {
    expect(await listed('')).toEqual([ids.Third, ids.First]);
    expect(await listed('status=publish', 'administrator')).toEqual([ids.Third, ids.First]);
  });

  it('are listed by status, then oldest ID first, when several are (read forwards, then sorted by date alone)', async () => {
    expect(await listed('', 'administrator')).toEqual([ids.Second, ids.First, ids.Third]);
    expect(await listed('status=publish,draft', 'administrator')).toEqual([ids.Second, ids.First, ids.Third]);
  });
});

describe('has_events and only_with_upcoming', () => {
  it('are read with tribe_is_truthy: a non-empty list, "enabled" and "Y" are true', async () => {
    const admin = await app.auth('administrator');
    const send = (method: string, url: string, body?: object) =>
      app.server.inject({ method: method as 'GET', url: NS + url, headers: { authorization: admin, ...(body ? { 'content-type': 'application/json' } : {}) }, payload: body ? JSON.stringify(body) : undefined });
    const organizer = (await send('POST', '/organizers', { organizer: 'Busy Org' })).json().id as number;
    await send('POST', '/events', { title: 'Busy Night', start_date: '2027-05-01 19:00', end_date: '2027-05-01 22:00', organizer });
    const found = async (q: string) => (await send('GET', `/organizers?per_page=50&${q}`)).json().organizers.map((o: { id: number }) => o.id);
    for (const q of ['has_events[5]=true', 'has_events=enabled', 'has_events=Y', 'only_with_upcoming[]=0']) expect(await found(q), q).toEqual([organizer]);
    expect(await found('has_events=0')).not.toContain(organizer);
    // The echo joins the items as PHP makes strings of them: a list inside is "Array".
    const echoed = async (q: string) => new URL((await send('GET', `/organizers?${q}`)).json().rest_url).searchParams.get('has_events');
    expect(await echoed('has_events[0][]=true')).toBe('Array');
    expect(await echoed('has_events[a]=1&has_events[b][]=2')).toBe('1,Array');
  });
});

describe('term lists', () => {
  it('sort as WP_Term_Query reads order and orderby: ASC only when asked for, any other order DESC; orderby lowercased, unknown ones by name', async () => {
    const admin = await app.auth('administrator');
    for (const name of ['Beta Sort', 'Alpha Sort']) {
      await app.server.inject({ method: 'POST', url: `${NS}/tags`, headers: { authorization: admin, 'content-type': 'application/json' }, payload: JSON.stringify({ name }) });
    }
    const names = async (q: string) =>
      (await app.server.inject({ method: 'GET', url: `${NS}/tags?hide_empty=0&search=Sort&${q}` })).json().tags.map((t: { name: string }) => t.name);
    expect(await names('')).toEqual(['Alpha Sort', 'Beta Sort']);
    expect(await names('order=ASC')).toEqual(['Alpha Sort', 'Beta Sort']);
    for (const q of ['order=1.5', 'order=desc', 'orderby=bogus&order=x']) expect(await names(q), q).toEqual(['Beta Sort', 'Alpha Sort']);
    expect(await names('orderby=TERM_ID&order=asc')).toEqual(['Beta Sort', 'Alpha Sort']);
  });
});

describe('the echoed status', () => {
  it('is nothing between separators for an empty list (status=0), as add_query_arg writes an empty array', async () => {
    const admin = await app.auth('administrator');
    const restUrl = async (url: string) => (await app.server.inject({ method: 'GET', url: NS + url, headers: { authorization: admin } })).json().rest_url;
    expect(await restUrl('/organizers?status=0')).toMatch(/\/organizers\/\?page=1&per_page=10&$/);
    expect(await restUrl('/events?status=')).toMatch(/&end_date=[^&]+&$/);
    expect(await restUrl('/organizers?status=publish,')).toMatch(/&status=publish$/);
  });
});

describe('venue and organizer search', () => {
  it('finds each run of letters, digits and hyphens in one field (find_like): punctuation and other scripts separate them, and nothing is left to find with none', async () => {
    const admin = await app.auth('administrator');
    const make = (body: object) => app.server.inject({ method: 'POST', url: `${NS}/organizers`, headers: { authorization: admin, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    const phone = (await make({ organizer: 'Dial Club', phone: '+1 646 555 0123' })).json().id;
    const mail = (await make({ organizer: 'Mail Club', email: 'hello@mail-club.example' })).json().id;
    const found = async (search: string) => {
      const res = await app.server.inject({ method: 'GET', url: `${NS}/organizers?per_page=50&search=${encodeURIComponent(search)}` });
      return res.json().organizers.map((o: { id: number }) => o.id).filter((id: number) => id === phone || id === mail);
    };
    expect(await found(':3')).toEqual([phone]);
    expect(await found('HELLO mail-club')).toEqual([mail]);
    // Both pieces must be in one field: "dial" is in the name, "0123" in the phone.
    expect(await found('dial 0123')).toEqual([]);
    expect(await found('😀 %')).toEqual([]);
  });
});

describe('list totals', () => {
  it('are headers of the HTTP answer, and integers inside an _envelope, as the legacy controller sets them', async () => {
    const plain = await app.server.inject({ method: 'GET', url: `${NS}/organizers?per_page=2` });
    const total = plain.json().total as number;
    expect(plain.headers['x-tec-total']).toBe(String(total));
    const enveloped = (await app.server.inject({ method: 'GET', url: `${NS}/organizers?per_page=2&_envelope=1` })).json();
    expect(enveloped.headers).toMatchObject({ 'X-TEC-Total': total, 'X-TEC-TotalPages': Math.ceil(total / 2) });
  });
});

describe('terms asked for with _fields', () => {
  it('have a url only when link is asked for: the terms controller prepares the asked fields, and Tribe renames its link', async () => {
    const admin = await app.auth('administrator');
    const created = await app.server.inject({ method: 'POST', url: `${NS}/tags?_fields=id,url`, headers: { authorization: admin, 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'Fielded Tag' }) });
    const id = created.json().id as number;
    expect(created.json()).toEqual({ id });
    const single = async (fields: string) => (await app.server.inject({ method: 'GET', url: `${NS}/tags/${id}?_fields=${fields}` })).json();
    expect(await single('url,action_code')).toEqual([]);
    expect(await single('link,url')).toEqual({ url: expect.stringMatching(/\/tag\/fielded-tag\/$/) });
    expect(await single('link.x,url,name')).toMatchObject({ name: 'Fielded Tag', url: expect.any(String) });
    expect(Object.keys(await single(''))).toContain('url');
    // In the list too, where only a top-level `link` names the items' field (`tags.link` names none of theirs).
    const listed = async (fields: string) => (await app.server.inject({ method: 'GET', url: `${NS}/tags?hide_empty=0&search=Fielded&_fields=${fields}` })).json().tags;
    expect(await listed('tags')).toEqual([{ id, urls: expect.any(Object) }]);
    expect(await listed('tags,link,name')).toEqual([{ id, name: 'Fielded Tag', url: expect.any(String), urls: expect.any(Object) }]);
  });
});
