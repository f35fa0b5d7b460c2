/**
 * The event archive's date filters given as numbers, as the legacy site reads them: is_time takes any
 * number; a whole one is a UNIX timestamp, whose day (UTC) the filter rounds to; a number Tribe's
 * localize_date reads as no date drops a start or end date and makes a starts_* or ends_* bound now,
 * none of them echoed in the links.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp;
const NS = '/wp-json/calendar/events/v1';
const titles: Record<number, string> = {};

beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-27T12:00:00Z' } });
  const admin = await app.auth('administrator');
  for (const [title, start, end] of [['Past', '2026-11-20 10:00', '2026-11-20 12:00'], ['Soon', '2026-12-05 18:00', '2026-12-05 20:00'], ['Later', '2027-02-14 10:00', '2027-02-14 12:00']]) {
    const r = await app.server.inject({ method: 'POST', url: `${NS}/events`, headers: { authorization: admin, 'content-type': 'application/json' }, payload: JSON.stringify({ title, start_date: start, end_date: end }) });
    titles[r.json().id] = title!;
  }
});
afterAll(() => app.close());

async function archive(query: string) {
  const r = await app.server.inject({ method: 'GET', url: `${NS}/events?${query}` });
  const body = r.json();
  return { status: r.statusCode, events: body.events.map((e: { id: number }) => titles[e.id]), echo: decodeURIComponent(body.rest_url.split('?')[1]) };
}

describe('a number as an archive date', () => {
  it('is a UNIX timestamp when whole, rounded to its UTC day', async () => {
    expect(await archive('start_date=-5')).toMatchObject({ status: 200, events: ['Past', 'Soon', 'Later'], echo: 'page=1&per_page=10&start_date=1969-12-31 00:00:00&end_date=2028-11-27 23:59:59&status=publish' });
    // 1800000000 is 2027-01-15 08:00 UTC.
    expect(await archive('starts_before=1800000000')).toMatchObject({ events: ['Past', 'Soon'], echo: 'page=1&per_page=10&status=publish&starts_before=2027-01-15 23:59:59' });
    expect((await archive('start_date=1800000000&strict_dates=true')).echo).toContain('start_date=2027-01-15 03:00:00');
  });

  it('is dropped when localize_date reads no date: a start or end date is no filter, a bound is now', async () => {
    expect(await archive('start_date=1e20')).toMatchObject({ events: ['Past', 'Soon', 'Later'], echo: 'page=1&per_page=10&end_date=2028-11-27 23:59:59&status=publish' });
    expect(await archive('start_date=%205&end_date=1e3')).toMatchObject({ events: ['Past', 'Soon', 'Later'], echo: 'page=1&per_page=10&status=publish' });
    expect(await archive('starts_after=1e3')).toMatchObject({ events: ['Soon', 'Later'], echo: 'page=1&per_page=10&status=publish' });
    expect((await archive('ends_before=%2B5')).events).toEqual(['Past']);
  });

  it('is a time today when written h.mm', async () => {
    expect((await archive('start_date=5.5')).echo).toContain('start_date=2026-11-27 00:00:00');
  });
});
