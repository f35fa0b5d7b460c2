import { describe, expect, it } from 'vitest';
import { parseUtc, parseWall } from './dates.ts';

// Saturday 2026-11-28 15:22 (UTC, the legacy site's PHP zone).
const now = new Date(Date.UTC(2026, 10, 28, 15, 22, 0));
const day = (input: string) => parseWall(input, now)?.toISOString().slice(0, 10) ?? null;

// A Saturday, a Sunday and a Monday, so that each weekday form is also read on its own day.
const nows = [Date.UTC(2026, 10, 28, 15, 22, 0), Date.UTC(2026, 10, 29, 23, 59, 30), Date.UTC(2026, 10, 30, 9, 5, 0)].map((t) => new Date(t));
const minute = (input: string, at: Date) => parseWall(input, at)?.toISOString().slice(0, 16).replace('T', ' ') ?? null;

describe('parseWall', () => {
  // The day the legacy site's event list read each `start_date` as (its rest_url echoes the day it starts from).
  it.each([
    ['next monday', '2026-11-30'], ['tomorrow noon', '2026-11-29'], ['@1700000000', '2023-11-14'], ['2026W05', '2026-01-26'],
    ['2026-W05-2', '2026-01-27'], ['last day of next month', '2026-12-31'], ['Jan 5 2027', '2027-01-05'], ['01/05/2027', '2027-01-05'],
    ['05.01.2027', '2027-01-05'], ['last friday', '2026-11-27'], ['this week', '2026-11-23'], ['next month', '2026-12-28'],
    ['yesterday noon', '2026-11-27'], ['saturday this week', '2026-11-28'], ['2027-01', '2027-01-01'], ['back of 7pm', '2026-11-28'],
    ['5 X 2026', '2026-10-05'], ['XII-25', '2026-12-25'], ['q4X', '2026-10-04'],
  ])('reads %j as PHP does', (input, expected) => {
    expect(day(input)).toBe(expected);
  });

  // PHP's strtotime at each of `nows` (php -r 'date_default_timezone_set("UTC"); echo date("Y-m-d H:i", strtotime($s, $now));').
  it.each([
    ['next saturday', '2026-12-05 00:00', '2026-12-05 00:00', '2026-12-05 00:00'],
    ['next sat', '2026-12-05 00:00', '2026-12-05 00:00', '2026-12-05 00:00'],
    ['next monday', '2026-11-30 00:00', '2026-11-30 00:00', '2026-12-07 00:00'],
    ['next sunday', '2026-11-29 00:00', '2026-12-06 00:00', '2026-12-06 00:00'],
    ['this saturday', '2026-11-28 00:00', '2026-12-05 00:00', '2026-12-05 00:00'],
    ['this sunday', '2026-11-29 00:00', '2026-11-29 00:00', '2026-12-06 00:00'],
    ['last saturday', '2026-11-21 00:00', '2026-11-28 00:00', '2026-11-28 00:00'],
    ['last sunday', '2026-11-22 00:00', '2026-11-22 00:00', '2026-11-29 00:00'],
    ['third sat', '2026-12-19 00:00', '2026-12-19 00:00', '2026-12-19 00:00'],
    ['first monday', '2026-11-30 00:00', '2026-11-30 00:00', '2026-12-07 00:00'],
    ['saturday next week', '2026-12-05 00:00', '2026-12-05 00:00', '2026-12-12 00:00'],
    ['next week saturday', '2026-12-05 00:00', '2026-12-05 00:00', '2026-12-12 00:00'],
    ['sunday this week', '2026-11-29 00:00', '2026-11-29 00:00', '2026-12-06 00:00'],
    ['monday last week', '2026-11-16 00:00', '2026-11-16 00:00', '2026-11-23 00:00'],
    ['24:00', '2026-11-29 00:00', '2026-11-30 00:00', '2026-12-01 00:00'],
    ['today 24:00', '2026-11-29 00:00', '2026-11-30 00:00', '2026-12-01 00:00'],
    ['tomorrow 24:30', '2026-11-30 00:30', '2026-12-01 00:30', '2026-12-02 00:30'],
    ['12am', '2026-11-28 00:00', '2026-11-29 00:00', '2026-11-30 00:00'],
    ['12:30pm', '2026-11-28 12:30', '2026-11-29 12:30', '2026-11-30 12:30'],
    ['yesterday 2 days ago', '2026-11-27 00:00', '2026-11-28 00:00', '2026-11-29 00:00'],
    ['tomorrow ago', '2026-11-27 00:00', '2026-11-28 00:00', '2026-11-29 00:00'],
    ['midnight tomorrow', '2026-11-29 00:00', '2026-11-30 00:00', '2026-12-01 00:00'],
    ['+1 week +100 months', '2035-04-04 15:22', '2035-04-05 23:59', '2035-04-06 09:05'],
    ['+1 day +1 month', '2026-12-29 15:22', '2026-12-30 23:59', '2026-12-31 09:05'],
  ])('reads %j on a Saturday, a Sunday and a Monday as PHP does', (input, ...expected) => {
    expect(nows.map((at) => minute(input, at))).toEqual(expected);
  });

  it('keeps the times of the forms PHP reads with one', () => {
    expect(parseWall('tomorrow noon', now)?.toISOString()).toBe('2026-11-29T12:00:00.000Z');
    expect(parseWall('@1700000000', now)?.toISOString()).toBe('2023-11-14T22:13:20.000Z');
  });

  it('finds no date where PHP finds none, roman numeral months in lower case among them', () => {
    for (const input of ['garbage', '1x', 'v2', '7v', '5 x 2026', 'ab1', '0x1f', '25:00', '12:60', '0am', '13pm', '7:60pm', 'today 5', 'X5P', 'IV 5B']) {
      for (const at of nows) expect(minute(input, at), input).toBeNull();
    }
  });

  // PHP reads these, but by rules locutus gets wrong on some days: refused rather than answered wrongly.
  it('refuses weekday steps and day names among other relative text', () => {
    for (const input of ['+2 weekdays', '+1 weekday', 'next weekday', '3 weekdays ago', 'next sat 10:00', 'saturday next week 10:00', '+1 sat']) {
      for (const at of nows) expect(minute(input, at), input).toBeNull();
    }
  });

  // Found by comparing thousands of random combinations with PHP at each of `nows`: locutus reads each otherwise.
  it('refuses the combinations locutus reads otherwise than PHP', () => {
    const combinations = ['+1 week tomorrow', '1/5/2027 +1', '10:00 +1', '2026W05 yesterday', '@1700000000 +1', 'sun ago', 'sunday 5 month', '+1 week last day of', 'Nov next month', 'Nov 24:00', 'IV 2026-11-28', 'Jan 5 2026-12-01', 'tomorrow tomorrow', 'yesterday noon tomorrow'];
    for (const input of combinations) {
      for (const at of nows) expect(minute(input, at), input).toBeNull();
    }
  });

  // Before parsing: locutus's tokenizer is superlinear (a 480 KB text held the event loop for seconds). Speed is a bench's business, not a test's.
  it('folds case and trims as PHP does: ASCII letters and PHP trim() characters only', () => {
    expect(day('+1 WEEK')).toBe('2026-12-05');
    expect(day(' \t+1 week\n')).toBe('2026-12-05');
    // U+212A KELVIN SIGN folds to `k` in JavaScript, not in timelib; U+FEFF and U+3000 are no white space to PHP.
    for (const input of ['+1 wee\u212A', 'tomorrow\uFEFF', '\u3000+1 day', '\u2028today']) expect(day(input), input).toBeNull();
  });

  it('refuses text longer than any date before parsing it', () => {
    expect(parseWall('sat '.repeat(120000), now)).toBeNull();
    expect(day(`${' '.repeat(118)}2026-11-28`)).toBe('2026-11-28');
    expect(parseUtc(`${' '.repeat(119)}2026-11-28`, now)).toBeNull();
  });
});
