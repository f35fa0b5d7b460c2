/**
 * IDs past what a bigint holds, in the path or as `?id=` (which WordPress lets override the path):
 * never a failed store query (a 500), and where the legacy site looks the number up, its answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp;
const NS = '/wp-json/calendar/events/v1';
const call = async (method: string, url: string) =>
  app.server.inject({ method: method as 'GET', url: NS + url, headers: { authorization: await app.auth('administrator') } });

beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

describe('record IDs past 64 bits', () => {
  it('an event asked for by such a query id is not found, named as PHP casts it (checked on the legacy site)', async () => {
    for (const [method, url] of [['GET', '/events/5?id=1e30'], ['PUT', '/events/5?id=1e30'], ['GET', '/events/5?id=99999999999999999999']]) {
      const res = await call(method!, url!);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ code: 'rest-event-not-found', message: 'Event with ID 9223372036854775807 does not exist.', data: { status: 404 } });
      expect(res.headers.allow).toBe('GET, DELETE, POST, PUT, PATCH');
    }
  });

  it('OPTIONS answers its route with every method, and a venue or organizer write refuses the id', async () => {
    for (const url of ['/events/99999999999999999999999', '/events/5?id=1e30']) {
      const res = await call('OPTIONS', url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers.allow).toBe('GET, DELETE, POST, PUT, PATCH');
    }
    const refused = await call('DELETE', '/organizers/5?id=1e30');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('rest_invalid_param');
  });
});
