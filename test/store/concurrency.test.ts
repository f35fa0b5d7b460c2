/** Parallel writes that compete for one slug or name: each gets its own slug, the one record of that name, or the legacy answer for a taken term, never a 500. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let admin: string;
const NS = '/wp-json/calendar/events/v1';
const call = (method: string, url: string, body: unknown) =>
  app.server.inject({ method: method as 'POST', url: NS + url, headers: { authorization: admin, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
const tenTimes = <T>(fn: (i: number) => Promise<T>) => Promise.all(Array.from({ length: 10 }, (_, i) => fn(i)));

beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:06:30Z' } });
  admin = await app.auth('administrator');
});
afterAll(() => app.close());

describe('parallel creates with one title', () => {
  it('creates ten events, each with its own slug', async () => {
    const res = await tenTimes(() => call('POST', '/events', { title: 'Open Day', start_date: '2027-03-01 10:00', end_date: '2027-03-01 12:00' }));
    expect(res.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    const slugs = res.map((r) => r.json().slug as string);
    expect(new Set(slugs).size).toBe(10);
    expect(slugs).toContain('open-day');
    for (const s of slugs) expect(s).toMatch(/^open-day(-\d+)?$/);
  });

  it('creates ten venues of one name, each with its own slug', async () => {
    // Each its own description: one name alone is the legacy duplicate check's match.
    const res = await tenTimes((i) => call('POST', '/venues', { venue: 'Town Hall', description: `Town ${i}` }));
    expect(res.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(res.map((r) => r.json().slug)).size).toBe(10);
  });

  it('creates one venue and one organizer for ten creates of one name, which the others reuse', async () => {
    // Each sends its own city or phone: the legacy duplicate check matches by name (and description) alone.
    for (const [path, body] of [['/venues', (i: number) => ({ venue: 'Market Hall', city: `Town ${i}` })], ['/organizers', (i: number) => ({ organizer: 'Market Friends', phone: `${i}` })]] as const) {
      const res = await tenTimes((i) => call('POST', path, body(i)));
      expect(res.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
      expect(new Set(res.map((r) => r.json().id)).size, path).toBe(1);
    }
  });

  it('creates one category; the others get the legacy term_exists naming it', async () => {
    const res = await tenTimes(() => call('POST', '/categories', { name: 'Festivals' }));
    const created = res.filter((r) => r.statusCode === 201);
    expect(created).toHaveLength(1);
    const id = created[0].json().id;
    for (const r of res.filter((r) => r.statusCode !== 201)) expect(r.json()).toMatchObject({ code: 'term_exists', data: { status: 400, term_id: id } });
  });

  it('attaches one new tag to events that name it at the same time', async () => {
    const res = await tenTimes((i) => call('POST', '/events', { title: `Tagged ${i}`, start_date: '2027-03-02 10:00', end_date: '2027-03-02 12:00', tags: 'brand-new' }));
    expect(res.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(res.map((r) => r.json().tags.map((t: { id: number }) => t.id).join()))).toHaveLength(1);
  });
});

describe('renaming a term', () => {
  it("to another term's slug is the legacy duplicate_term_slug, and the term keeps its slug", async () => {
    await call('POST', '/tags', { name: 'Jazz' });
    const blues = (await call('POST', '/tags', { name: 'Blues' })).json();
    const res = await call('POST', `/tags/${blues.id}`, { slug: 'jazz' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'duplicate_term_slug', message: 'The slug &#8220;jazz&#8221; is already in use by another term.', data: { status: 400 } });
    expect((await app.server.inject({ url: `${NS}/tags/${blues.id}` })).json().slug).toBe('blues');
  });
});
