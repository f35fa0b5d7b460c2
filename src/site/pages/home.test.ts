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
});
