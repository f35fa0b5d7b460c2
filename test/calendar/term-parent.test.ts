/**
 * A category's parent on create and update: TEC's validator (is_event_category) finds a term by the
 * value's absolute value, then WordPress's terms controller looks the parent up as given, so the
 * negative ID of an existing category passes the first check and fails the second.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let admin: string;
const NS = '/wp-json/calendar/events/v1';
const send = (method: string, url: string, query: string) =>
  app.server.inject({ method: method as 'POST', url: `${NS}${url}?${query}`, headers: { authorization: admin } });
const parentMissing = { code: 'rest_term_invalid', message: 'Parent term does not exist.', data: { status: 400 } };
const invalidParent = { code: 'rest_invalid_param', message: 'Invalid parameter(s): parent', data: { status: 400, params: { parent: 'Invalid parameter.' }, details: [] } };
let arts: number;
let child: number;

beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:06:30Z' } });
  admin = await app.auth('administrator');
  arts = (await send('POST', '/categories', 'name=Arts')).json().id;
  child = (await send('POST', '/categories', `name=Sculpture&parent=${arts}`)).json().id;
});
afterAll(() => app.close());

describe('a category parent', () => {
  it('that is the negative ID of a category is refused as a missing parent, and nothing is created', async () => {
    const res = await send('POST', '/categories', `name=Painting&parent=-${arts}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(parentMissing);
    expect((await send('GET', '/categories', 'hide_empty=0&search=Painting')).json().total).toBe(0);
  });

  it('that names no category, even negated, or is 0 fails the validate callback', async () => {
    for (const parent of ['-99999', '99999', '0', '-0', '']) {
      expect((await send('POST', '/categories', `name=Drawing&parent=${parent}`)).json(), parent).toEqual(invalidParent);
    }
  });

  it('on update, negative (its own ID negated too) is refused with every write method, and the parent is kept', async () => {
    for (const method of ['POST', 'PUT', 'PATCH']) {
      for (const parent of [-arts, -child]) {
        const res = await send(method, `/categories/${child}`, `parent=${parent}`);
        expect(res.statusCode, `${method} ${parent}`).toBe(400);
        expect(res.json()).toEqual(parentMissing);
      }
    }
    expect((await send('GET', `/categories/${child}`, '')).json().parent).toBe(arts);
  });

  it('that is the category itself or one of its descendants makes it top-level instead of a loop (wp_check_term_hierarchy_for_loops)', async () => {
    const top = (await send('POST', '/categories', 'name=Crafts')).json().id;
    const mid = (await send('POST', '/categories', `name=Pottery&parent=${top}`)).json().id;
    const leaf = (await send('POST', '/categories', `name=Glazes&parent=${mid}`)).json().id;
    expect((await send('PUT', `/categories/${mid}`, `parent=${mid}`)).json().parent).toBe(0);
    expect((await send('PUT', `/categories/${mid}`, `parent=${top}`)).json().parent).toBe(top);
    expect((await send('PATCH', `/categories/${top}`, `parent=${leaf}`)).json().parent).toBe(0);
    expect((await send('GET', `/categories/${leaf}`, '')).json().parent).toBe(mid);
  });
});

describe('two categories moved under each other at once', () => {
  it('never form a loop: one move sees the other and leaves its category top-level', async () => {
    const x = (await send('POST', '/categories', 'name=Loop%20X')).json().id;
    const y = (await send('POST', '/categories', 'name=Loop%20Y')).json().id;
    const [a, b] = await Promise.all([send('PUT', `/categories/${x}`, `parent=${y}`), send('PUT', `/categories/${y}`, `parent=${x}`)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const parents = [(await send('GET', `/categories/${x}`, '')).json().parent, (await send('GET', `/categories/${y}`, '')).json().parent];
    expect(parents).not.toEqual([y, x]);
  });
});
