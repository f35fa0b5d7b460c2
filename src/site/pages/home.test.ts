import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeFor } from '../../namespaces/redirection/edge/registry.ts';
import { testApp, type TestApp } from '../../../test/support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await testApp();
  await app.store.options.setSite({ name: 'Oracle Site', description: 'Reference oracle' });
});
afterAll(() => app.close());

const form = { 'content-type': 'application/x-www-form-urlencoded' };

async function logged404(): Promise<Array<{ url: string; request_method: string; http_code: number }>> {
  await edgeFor(app.services).flush();
  const res = await app.server.inject({ method: 'GET', url: '/wp-json/redirection/v1/404', headers: { authorization: await app.auth() } });
  return res.json().items.map(({ url, request_method, http_code }: Record<string, unknown>) => ({ url, request_method, http_code }));
}

// What the legacy site answered (WordPress 6.x, its theme and the Redirection plugin) to each request.
describe('a front-page request asking for a post by slug', () => {
  it('is the 404 page, logged as a 404, when a POST form empties rest_route and names a post (`name=…&rest.route=`)', async () => {
    const res = await app.server.inject({ method: 'POST', url: '/wp-json/calendar/events/v1/categories', headers: form, payload: 'name=%E1%B5%B4%E2%8F%85&parent=true&rest.route=' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=UTF-8');
    expect(res.body).toContain('Page not found');
    expect(await logged404()).toContainEqual({ url: '/wp-json/calendar/events/v1/categories', request_method: 'POST', http_code: 404 });
  });

  it('is the 404 page without the canonical redirect for a GET (`?name=x&rest_route=`), and on the site root', async () => {
    for (const url of ['/wp-json/calendar/events/v1/categories?name=x&rest_route=', '/?name=%21%21', '/?rest_route=0&name=0']) {
      const res = await app.server.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers.location, url).toBeUndefined();
    }
    expect((await logged404()).map((l) => l.url)).toEqual(expect.arrayContaining(['/wp-json/calendar/events/v1/categories?name=x&rest_route=', '/?name=%21%21']));
  });

  it('redirects a GET to the first published record whose slug begins with it, as redirect_canonical guesses; a POST gets the 404 page', async () => {
    const created = await app.server.inject({
      method: 'POST', url: '/wp-json/calendar/events/v1/events', headers: { authorization: await app.auth('administrator'), 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'Guessable Show', start_date: '2027-02-01 20:00', end_date: '2027-02-01 22:00' }),
    });
    expect(created.json().slug).toBe('guessable-show');
    const res = await app.server.inject({ method: 'GET', url: '/?name=Guessable-Sh&utm=1&p=4' });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toMatch(/\/event\/guessable-show\/\?utm=1$/);
    // The page asked for goes into the path; the rest of the query is carried as parse_str reads it, rawurlencoded.
    const paged = await app.server.inject({ method: 'GET', url: '/wp-json/x?rest_route=&name=guessable&page=2&a+b=%7e%C3%A9&x[]=1&e=' });
    expect(paged.headers.location).toMatch(/\/event\/guessable-show\/2\/\?rest_route&a_b=~%C3%A9&x%5B0%5D=1&e$/);
    // absint: a page past PHP's integers is PHP_INT_MAX, one past a float's range 0 (no page); a byte that is no UTF-8 stays that byte.
    for (const [page, path] of [['99999999999999999999', '9223372036854775807/'], ['1e400', ''], ['1', '']]) {
      const huge = await app.server.inject({ method: 'GET', url: `/?name=guessable&page=${page}&x=%FF&k%FE=1` });
      expect(huge.headers.location, page).toMatch(new RegExp(`/event/guessable-show/${path}\\?x=%FF&k%FE=1$`));
    }
    expect(res.headers['x-redirect-by']).toBe('WordPress');
    const posted = await app.server.inject({ method: 'POST', url: '/wp-json/calendar/events/v1/categories', headers: form, payload: 'name=guessable-show&rest.route=' });
    expect(posted.statusCode).toBe(404);
  });

  it('stays the front page when the slug is empty once trimmed or not a string', async () => {
    for (const payload of ['name=%20&rest_route=', 'name[]=x&rest_route=', 'rest_route=true&rest.route=0']) {
      const res = await app.server.inject({ method: 'POST', url: '/wp-json/calendar/events/v1/categories', headers: form, payload });
      expect(res.statusCode, payload).toBe(200);
      expect(res.body, payload).toContain('<h1>Oracle Site</h1>');
    }
  });
});

describe('the front page of an empty rest_route', () => {
  it('redirects a GET to the slashed address with the query as wp_redirect sanitizes it (no encoded line breaks)', async () => {
    const res = await app.server.inject({ method: 'GET', url: '/wp-json/history/v1/stats/users?s=%F2%90%B8%98&rest_route=0&c[prototype][x]=%0D%0AX-Injected%3A%201' });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(`${app.services.config.baseUrl}/wp-json/history/v1/stats/users/?s=%f2%90%b8%98&rest_route=0&c[prototype][x]=X-Injected%3A%201`);
  });

  it('takes trailing spaces and end punctuation off the path first, as written or escaped in upper case only', async () => {
    for (const [path, slashed] of [['by-slug/t%7B', 'by-slug/t/'], ['by-slug/Im%3CbFS%3B', 'by-slug/Im%3CbFS/'], ['by-slug/%20', 'by-slug/'], ['by-slug/a.!%22)', 'by-slug/a/'], ['by-slug/a%3b', 'by-slug/a%3b/'], [`by-slug/x${'.'.repeat(4000)}`, 'by-slug/x/']]) {
      const res = await app.server.inject({ method: 'GET', url: `/wp-json/calendar/events/v1/events/${path}?rest[route=` });
      expect(res.statusCode, path).toBe(301);
      expect(res.headers.location, path).toBe(`${app.services.config.baseUrl}/wp-json/calendar/events/v1/events/${slashed}?rest[route=`);
    }
  });
});

describe('a front-page request asking for an author archive', () => {
  let admin: number;
  let editor: number;
  beforeAll(async () => {
    await app.auth('administrator');
    await app.auth('editor');
    admin = (await app.store.users.byLogin('admin'))!.id;
    editor = (await app.store.users.byLogin('editor'))!.id;
    // The administrator has published an event; the editor nothing.
    const created = await app.server.inject({
      method: 'POST', url: '/wp-json/calendar/events/v1/events', headers: { authorization: await app.auth('administrator'), 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'Author Show', start_date: '2027-03-01 20:00', end_date: '2027-03-01 22:00', status: 'publish' }),
    });
    expect(created.statusCode).toBe(201);
  });

  it('redirects a GET naming by digits a user who published something to the author page, the rest of the query carried', async () => {
    const res = await app.server.inject({ method: 'GET', url: `/wp-json/calendar/events/v1/events?rest_route=&author=0${admin}&z=%7e%C3%A9` });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toMatch(/\/author\/admin\/\?rest_route&z=~%C3%A9$/);
  });

  it('is a page for a user without published posts, a POST form or digits among other characters, and for no author', async () => {
    for (const [method, url, payload] of [['GET', `/?author=${editor}`, ''], ['POST', '/wp-json/calendar/events/v1/events', `author=${admin}&rest.route=`], ['GET', `/?author=${admin}a`, ''], ['GET', '/?author=abc', ''], ['GET', '/?author=00', '']]) {
      const res = await app.server.inject({ method: method as 'GET', url: url!, headers: form, payload });
      expect(res.statusCode, `${method} ${url} ${payload}`).toBe(200);
      expect(res.body).toContain('<h1>Oracle Site</h1>');
    }
  });

  it('is the 404 page, logged, for an unknown user or a list no published post of WordPress matches', async () => {
    for (const payload of ['author=9999&rest_route=', 'author=-1&rest_route=', `author=${editor},9999&rest_route=`, 'author=99999999999999999999&rest_route=', `author=${admin},-99999999999999999999&rest_route=`]) {
      const res = await app.server.inject({ method: 'POST', url: '/wp-json/calendar/events/v1/events', headers: form, payload });
      expect(res.statusCode, payload).toBe(404);
      expect(res.body, payload).toContain('Page not found');
    }
    expect(await logged404()).toContainEqual({ url: '/wp-json/calendar/events/v1/events', request_method: 'POST', http_code: 404 });
  });

  it("is a page for a list when the legacy site's published posts match it", async () => {
    await app.store.legacyPosts.importPosts([{ id: 7001, post_type: 'post', status: 'publish', author: editor, parent: 0 }]);
    for (const url of ['/?author=-1', `/?author=${editor},9999`]) expect((await app.server.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    expect((await app.server.inject({ method: 'GET', url: `/?author=-${editor}` })).statusCode).toBe(404);
  });
});

describe('a front-page request asking for a calendar record by ID, an event by slug or a tag', () => {
  const admin = () => app.auth('administrator');
  let published: { id: number; slug: string };
  let draft: number;
  beforeAll(async () => {
    const create = async (body: object) =>
      (await app.server.inject({ method: 'POST', url: '/wp-json/calendar/events/v1/events', headers: { authorization: await admin(), 'content-type': 'application/json' }, payload: JSON.stringify(body) })).json();
    published = await create({ title: 'Winter Organ Recital', start_date: '2027-04-01 20:00', end_date: '2027-04-01 22:00', status: 'publish', tags: ['organ'] });
    draft = (await create({ title: 'Draft Recital', start_date: '2027-04-02 20:00', end_date: '2027-04-02 22:00', status: 'draft' })).id;
  });

  it('redirects a GET of `p` or `page_id` naming a published record to its page, without the var that named it', async () => {
    for (const [url, query] of [[`/?p=${published.id}&utm=1&post_type=x`, '?utm=1'], [`/?page_id=${published.id}abc`, '']]) {
      const res = await app.server.inject({ method: 'GET', url: url! });
      expect(res.statusCode, url).toBe(301);
      expect(res.headers.location, url).toBe(`http://lintel.test/event/${published.slug}/${query}`);
    }
    const posted = await app.server.inject({ method: 'POST', url: '/wp-json/x', headers: form, payload: `p=${published.id}&rest_route=` });
    expect(posted.statusCode).toBe(200);
  });

  it('is the 404 page for an unpublished record or an ID nothing has, and the front page for one of WordPress\'s own posts', async () => {
    for (const url of [`/?p=${draft}`, '/?page_id=987654']) expect((await app.server.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    await app.store.legacyPosts.importPosts([{ id: 987000, post_type: 'page', status: 'publish', author: 1, parent: 0 }]);
    for (const url of ['/?page_id=987000', `/?p=-${published.id}`]) expect((await app.server.inject({ method: 'GET', url })).statusCode, url).toBe(200);
  });

  it('answers `tribe_events` with the event page when published, else redirects to one its slug begins with, keeping the var', async () => {
    expect((await app.server.inject({ method: 'GET', url: `/?tribe_events=${published.slug}` })).statusCode).toBe(200);
    const guessed = await app.server.inject({ method: 'GET', url: '/?tribe_events=winter-org&utm=1' });
    expect([guessed.statusCode, guessed.headers.location]).toEqual([301, `http://lintel.test/event/${published.slug}/?tribe_events=winter-org&utm=1`]);
    expect((await app.server.inject({ method: 'POST', url: '/wp-json/x', headers: form, payload: 'tribe_events=draft-recital&rest_route=' })).statusCode).toBe(404);
  });

  it('is a page for a tag the calendar has, else the 404 page', async () => {
    expect((await app.server.inject({ method: 'GET', url: '/?tag=Organ' })).statusCode).toBe(200);
    expect((await app.server.inject({ method: 'GET', url: '/?tag=no-such-tag' })).statusCode).toBe(404);
  });
});
