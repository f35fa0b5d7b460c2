/**
 * A venue's or organizer's `date_utc` is read as Tribe's localize_date reads it (PHP's DateTime, UTC
 * by default): a zone after the date, or alone, moves it, whether an offset, an abbreviation or a
 * military letter; a number alone is a timestamp, not a zone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let admin: string;
const NS = '/wp-json/calendar/events/v1';

beforeAll(async () => {
  app = await testApp();
  // A clock that stands still: the zone alone is read at the current time.
  Object.assign(app.services.clock, { now: () => new Date('2026-11-27T12:00:00Z') });
  admin = await app.auth('administrator');
});
afterAll(() => app.close());

const organizer = async (date_utc: string) => {
  const r = await app.server.inject({ method: 'POST', url: `${NS}/organizers`, headers: { authorization: admin, 'content-type': 'application/json' }, payload: JSON.stringify({ organizer: `At ${date_utc}`, date_utc }) });
  const o = r.json();
  return [o.status, o.date_utc];
};

describe('date_utc', () => {
  it('applies a zone after the date', async () => {
    expect(await organizer('2027-01-01 10:00:00 s')).toEqual(['future', '2027-01-01 16:00:00']);
    expect(await organizer('2027-01-01 10:00:00 EST')).toEqual(['future', '2027-01-01 15:00:00']);
    expect(await organizer('2027-01-01 10:00 +0530')).toEqual(['future', '2027-01-01 04:30:00']);
    expect(await organizer('2027-01-01T10:00:00Z')).toEqual(['future', '2027-01-01 10:00:00']);
    // PHP reads `utc+2` as UTC.
    expect(await organizer('2027-01-01 10:00 utc+2')).toEqual(['future', '2027-01-01 10:00:00']);
  });

  it('reads a zone alone as the current UTC time in that zone (a lone military letter too)', async () => {
    expect(await organizer('s')).toEqual(['future', '2026-11-27 18:00:00']);
    expect(await organizer('-05:00')).toEqual(['future', '2026-11-27 17:00:00']);
    expect(await organizer('z')).toEqual(['publish', '2026-11-27 12:00:00']);
    // A number alone is never read as a zone: it is now, as on the legacy site.
    expect(await organizer('+2')).toEqual(['publish', '2026-11-27 12:00:00']);
  });
});
