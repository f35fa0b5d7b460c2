/**
 * The calendar's iCal feeds (`/events/?ical=1`, `/event/{slug}/?ical=1`) through the whole app:
 * which events they list, in which order, and the legacy feed's byte layout.
 */
import { wallToInstant } from '../../src/lib/time.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedFileName, icalFeed, LIST_FEED_SIZE } from '../../src/site/pages/ical.ts';
import type { EventFields } from '../../src/store/calendar.ts';
import { testApp, type TestApp } from '../support/app.ts';

const NOW = '2026-11-21T12:00:00Z';

let app: TestApp;
const ids: Record<string, number> = {};

function fields(title: string, start: string, end: string, extra: Partial<EventFields> = {}): EventFields {
  const zone = extra.timezone ?? 'America/New_York';
  const utc = (wall: string) => wallToInstant(new Date(`${wall.replace(' ', 'T')}Z`), zone).toISOString().slice(0, 19).replace('T', ' ');
  return {
    author: 0, status: 'publish', password: '', slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'), title, description: '', excerpt: '',
    start_date: start, end_date: end, utc_start_date: utc(start), utc_end_date: utc(end), timezone: zone, all_day: false,
    cost: '', currency_symbol: '', currency_code: '', currency_position: '', website: null, image: '',
    show_map: true, show_map_link: true, hide_from_listings: false, sticky: false, featured: false, post_parent: 0, ...extra,
  };
}

beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: NOW } });
  await app.store.options.setSite({ name: 'Oracle Site', description: 'Reference oracle', timezone: 'America/New_York' });
  const cal = app.store.calendar;
  const now = new Date(NOW);
  const blank = { author: 0, status: 'publish', description: '', excerpt: '', phone: '', website: '', image: '' };
  const venue = await cal.createLinked('venue', {
    ...blank, name: 'City Art Center', slug: 'city-art-center', address: '45 Gallery Road', city: 'Brooklyn', country: 'United States',
    province: 'Kings', state: '', zip: '11201', stateprovince: '', show_map: true, show_map_link: true, latitude: null, longitude: null,
  }, now);
  const withEmail = await cal.createLinked('organizer', { ...blank, name: 'Jazz Society', slug: 'jazz-society', email: 'info@jazz.example.com' }, now);
  const withoutEmail = await cal.createLinked('organizer', { ...blank, name: 'Events Co', slug: 'events-co', email: '' }, now);
  const music = (await cal.createTerm({ taxonomy: 'category', name: 'Music', slug: 'music', description: '', parent: 0 })).id;
  const arts = (await cal.createTerm({ taxonomy: 'category', name: 'Arts', slug: 'arts', description: '', parent: 0 })).id;
  const tag = (await cal.createTerm({ taxonomy: 'tag', name: 'jazz', slug: 'jazz', description: '', parent: 0 })).id;

  const create = async (key: string, f: EventFields) => (ids[key] = await cal.createEvent(f, now));
  await create('past', fields('Autumn Fair', '2026-10-01 10:00:00', '2026-10-01 12:00:00'));
  await create('later', fields('Summer Festival', '2029-07-04 12:00:00', '2029-07-06 23:00:00'));
  await create('jazz', fields('Winter Jazz, Live', '2026-12-05 18:00:00', '2026-12-05 23:30:00', { description: 'Headline acts, all night.\n\nSecond set.' }));
  await create('ongoing', fields('Ongoing Exhibition', '2026-11-18 10:00:00', '2026-11-28 18:00:00'));
  await create('london', fields('Virtual Meetup', '2026-11-24 18:30:00', '2026-11-24 20:00:00', { timezone: 'Europe/London' }));
  await create('draft', fields('Draft Event', '2026-12-10 10:00:00', '2026-12-10 11:00:00', { status: 'draft' }));
  await create('hidden', fields('Hidden Event', '2026-12-11 10:00:00', '2026-12-11 11:00:00', { hide_from_listings: true }));
  await create('protected', fields('Members Tasting', '2026-12-12 10:00:00', '2026-12-12 11:00:00', { password: 'secret', description: 'Secret menu.' }));
  await create('allday', fields('Parade', '2026-11-26 00:00:00', '2026-11-26 23:59:59', { all_day: true }));
  await cal.setLinks(ids.jazz, 'venue', [venue]);
  await cal.setLinks(ids.jazz, 'organizer', [withEmail, withoutEmail]);
  await cal.setTerms(ids.jazz, 'category', [music, arts]);
  await cal.setTerms(ids.jazz, 'tag', [tag]);
  await cal.setLinks(ids.ongoing, 'organizer', [withoutEmail, withEmail]);
});
afterAll(async () => {
  await app.close();
});

const get = (url: string) => app.server.inject({ method: 'GET', url });
const vevents = (body: string) => body.split('BEGIN:VEVENT\r\n').slice(1).map((v) => v.slice(0, v.indexOf('END:VEVENT')));
const summaries = (body: string) => vevents(body).map((v) => /SUMMARY:(.*)\r\n/.exec(v)![1]);

describe('the list feed', () => {
  it('answers as a calendar download, never indexed', async () => {
    const r = await get('/events/?ical=1');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/calendar; charset=UTF-8');
    expect(r.headers['x-robots-tag']).toBe('noindex, nofollow');
    const listed = [ids.ongoing, ids.london, ids.allday, ids.jazz, ids.protected, ids.later];
    expect(r.headers['content-disposition']).toBe(`attachment; filename="${feedFileName('Oracle Site', listed)}"`);
    expect(r.body.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Oracle Site - ECPv6.17.2//NONSGML v1.0//EN\r\nCALSCALE:GREGORIAN\r\n')).toBe(true);
    expect(r.body).toContain('X-WR-CALNAME:Oracle Site\r\nX-ORIGINAL-URL:http://lintel.test\r\nX-WR-CALDESC:Events for Oracle Site\r\n');
    expect(r.body).toContain('REFRESH-INTERVAL;VALUE=DURATION:PT1H\r\nX-Robots-Tag:noindex\r\nX-PUBLISHED-TTL:PT1H\r\n');
    expect(r.body.endsWith('\r\nEND:VCALENDAR')).toBe(true);
    expect(r.body.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('lists published upcoming and ongoing events by start, without past, draft or hidden ones', async () => {
    const r = await get('/events/?ical=1');
    expect(summaries(r.body)).toEqual(['Ongoing Exhibition', 'Virtual Meetup', 'Parade', 'Winter Jazz\\, Live', 'Members Tasting', 'Summer Festival']);
  });

  it('writes each event as the legacy feed does', async () => {
    const [jazz] = vevents((await get('/events/?ical=1')).body).filter((v) => v.includes('Winter Jazz'));
    expect(jazz).toBe(
      [
        'DTSTART;TZID=America/New_York:20261205T180000',
        'DTEND;TZID=America/New_York:20261205T233000',
        'DTSTAMP:20261121T120000Z',
        'CREATED:20261121T120000Z',
        'LAST-MODIFIED:20261121T120000Z',
        `UID:${ids.jazz}-1796493600-1796513400@lintel.test`,
        'SUMMARY:Winter Jazz\\, Live',
        'DESCRIPTION:Headline acts\\, all night. \\nSecond set.',
        'URL:http://lintel.test/event/winter-jazz-live/',
        'LOCATION:City Art Center\\, 45 Gallery Road\\, Brooklyn\\, Kings\\, 11201\\, United States',
        'CATEGORIES:Arts,Music',
        'ORGANIZER;CN="Jazz Society":MAILTO:info@jazz.example.com',
        '',
      ].join('\r\n'),
    );
  });

  it('hides a protected description, names no organizer without an e-mail, and writes all-day events with their times', async () => {
    const events = vevents((await get('/events/?ical=1')).body);
    expect(events.find((v) => v.includes('Members Tasting'))).toContain('DESCRIPTION:Content is protected.\r\n');
    // The first organizer has no e-mail: the legacy feed names none, not the second.
    expect(events.find((v) => v.includes('Ongoing Exhibition'))).not.toContain('ORGANIZER');
    expect(events.find((v) => v.includes('Parade'))).toContain('DTSTART;TZID=America/New_York:20261126T000000\r\nDTEND;TZID=America/New_York:20261126T235959\r\n');
  });

  it('describes each zone once, with its transitions from the year before the first event to the year after the last', async () => {
    const body = (await get('/events/?ical=1')).body;
    const zones = body.split('BEGIN:VTIMEZONE\r\n').slice(1).map((z) => z.slice(0, z.indexOf('END:VTIMEZONE')));
    expect(zones.map((z) => /TZID:(.*)\r\n/.exec(z)![1])).toEqual(['America/New_York', 'Europe/London']);
    const starts = (z: string) => [...z.matchAll(/DTSTART:(\d{4})\d{4}T/g)].map((m) => Number(m[1]));
    expect(new Set(starts(zones[0]))).toEqual(new Set([2025, 2026, 2027, 2028, 2029, 2030]));
    expect(starts(zones[0])).toHaveLength(12);
    expect(zones[0]).toContain('BEGIN:DAYLIGHT\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400\r\nTZNAME:EDT\r\nDTSTART:20250309T070000\r\nEND:DAYLIGHT\r\n');
    expect(zones[0]).toContain('BEGIN:STANDARD\r\nTZOFFSETFROM:-0400\r\nTZOFFSETTO:-0500\r\nTZNAME:EST\r\nDTSTART:20301103T060000\r\nEND:STANDARD\r\n');
    expect(zones[1]).toContain('BEGIN:DAYLIGHT\r\nTZOFFSETFROM:+0000\r\nTZOFFSETTO:+0100\r\nTZNAME:BST\r\nDTSTART:20250330T010000\r\nEND:DAYLIGHT\r\n');
    expect(zones[1]).toContain('BEGIN:STANDARD\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0000\r\nTZNAME:GMT\r\nDTSTART:20271031T010000\r\nEND:STANDARD\r\n');
    expect(starts(zones[1])).toHaveLength(6);
  });

  it('is served under a locale segment, with the locale in its links', async () => {
    const r = await get('/fr/events/?ical=1');
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('X-ORIGINAL-URL:http://lintel.test/fr\r\n');
    expect(r.body).toContain('URL:http://lintel.test/fr/event/winter-jazz-live/\r\n');
    expect((await get('/xx/events/?ical=1')).headers['content-type']).not.toContain('text/calendar');
  });
});

describe('the single event feed', () => {
  it('holds the one event', async () => {
    const r = await get('/event/winter-jazz-live/?ical=1');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/calendar; charset=UTF-8');
    expect(r.headers['content-disposition']).toBe(`attachment; filename="${feedFileName('Oracle Site', [ids.jazz])}"`);
    expect(summaries(r.body)).toEqual(['Winter Jazz\\, Live']);
    // One event in 2026: its zone's transitions for 2025 to 2027.
    expect([...r.body.matchAll(/^DTSTART:(\d{4})/gm)].map((m) => m[1])).toEqual(['2025', '2025', '2026', '2026', '2027', '2027']);
  });

  it('leaves the page without ?ical, and drafts to the next handler', async () => {
    expect((await get('/event/winter-jazz-live/')).headers['content-type']).toContain('text/html');
    expect((await get('/event/draft-event/?ical=1')).headers['content-type']).not.toContain('text/calendar');
    const nul = await get('/event/%00/?ical=1');
    expect(nul.statusCode).toBeLessThan(500);
    expect(nul.headers['content-type']).not.toContain('text/calendar');
  });

  it('holds a password-protected event without its description, as the list does', async () => {
    const r = await get('/event/members-tasting/?ical=1');
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('SUMMARY:Members Tasting\r\nDESCRIPTION:Content is protected.\r\n');
  });
});

describe('the feed writer', () => {
  it('names the file with the legacy hash: md5 of "ical" and the IDs, 11 digits', () => {
    expect(feedFileName('Oracle Site', [15])).toBe('oracle-site-814116b4874.ics');
  });

  it('describes a zone without transitions by its offset, and names zones by the zone database abbreviations', async () => {
    const now = new Date(NOW);
    const event = (timezone: string) => ({
      event: { ...fields('X', '2026-12-01 10:00:00', '2026-12-01 11:00:00', { timezone }), id: 1, created: now, modified: now },
      categories: [],
      url: 'http://lintel.test/event/x/',
    });
    const utc = icalFeed({ name: 'S', home: 'http://lintel.test' }, [event('UTC')]);
    expect(utc).toContain('BEGIN:VTIMEZONE\r\nTZID:UTC\r\nBEGIN:STANDARD\r\nTZOFFSETFROM:+0000\r\nTZOFFSETTO:+0000\r\nTZNAME:UTC\r\nDTSTART:20250101T000000\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n');
    const dubai = icalFeed({ name: 'S', home: 'http://lintel.test' }, [event('Asia/Dubai')]);
    expect(dubai).toContain('TZOFFSETTO:+0400\r\nTZNAME:+04\r\n');
    expect(icalFeed({ name: 'S', home: 'http://lintel.test' }, [event('Asia/Tokyo')])).toContain('TZOFFSETTO:+0900\r\nTZNAME:JST\r\n');
  });
});

describe('the list feed length', () => {
  it('lists the first 30 upcoming events, as the legacy feed does', async () => {
    const many = await testApp({ env: { LINTEL_CLOCK: NOW } });
    try {
      for (let day = 1; day <= LIST_FEED_SIZE + 1; day++) {
        const d = String(day).padStart(2, '0');
        await many.store.calendar.createEvent(fields(`Day ${d}`, `2027-01-${d} 10:00:00`, `2027-01-${d} 11:00:00`), new Date(NOW));
      }
      const listed = summaries((await many.server.inject({ method: 'GET', url: '/events/?ical=1' })).body);
      expect(listed).toHaveLength(LIST_FEED_SIZE);
      expect(listed.at(-1)).toBe('Day 30');
    } finally {
      await many.close();
    }
  });
});
