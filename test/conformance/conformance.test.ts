/**
 * The recorded legacy answers, replayed: each recording must be answered as recorded, except in what
 * the DEVIATIONS.md rows listing it allow (their `allows` column).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { diffJson } from '../../src/compare/diff.ts';
import { allowedBy, Deviations, parseAllows, type Listing } from '../../src/compare/deviations.ts';
import { loadCaptures, loadDeviations, runConformance, type Capture, type Report } from './lib.ts';
import { scaled } from '../support/time.ts';

const captures = loadCaptures();
let report: Report;
beforeAll(async () => {
  report = await runConformance({ captures });
}, scaled(120_000));

const outcome = (seq: string) => report.outcomes.find((o) => o.capture.seq === seq)!;

describe('conformance with the recorded legacy site', () => {
  it('replays every capture, the seed first', () => {
    expect(report.outcomes).toHaveLength(captures.length);
    expect(report.outcomes.slice(0, 41).map((o) => Number(o.capture.seq))).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
    expect(report.outcomes.some((o) => o.verdict === 'not served')).toBe(false);
  });

  it.each(captures.map((c) => [c.file]))('%s differs only where DEVIATIONS.md allows', (file) => {
    expect(report.outcomes.find((o) => o.capture.file === file)?.unexpected).toEqual([]);
  });

  it('serves the site index with the recorded top-level keys', () => {
    expect(report.indexKeys.actual).toEqual(report.indexKeys.expected);
  });

  it('counts ?rest_route= (044) under the namespace of its route, and rest_no_route (050) under core', () => {
    expect(outcome('044').group).toBe('calendar/events/v1');
    expect(outcome('050')).toMatchObject({ group: 'core', verdict: 'matched' });
  });
});

describe('a broken answer', () => {
  /** Seeds 001–041 and one read of event 10 (the first event the seed creates). */
  const subset = (change: (seed: Capture) => Capture) => {
    const read = captures.find((c) => c.request.method === 'GET' && c.request.path === '/wp-json/calendar/events/v1/events/10' && c.response.status === 200)!;
    return [...captures.filter((c) => Number(c.seq) <= 41).map((c) => (c.seq === '015' ? change(c) : c)), read];
  };
  // The seed creates event 10 under another title: Lintel then serves the read with that changed field.
  const renamed = (c: Capture) => ({ ...c, request: { ...c.request, body: { ...(c.request.body as object), title: 'Renamed' } } });

  it('is reported as differing, per recording, with the path of the changed field', async () => {
    const broken = await runConformance({ captures: subset(renamed) });
    const read = broken.outcomes.at(-1)!;
    expect(read.verdict).toBe('differ');
    expect(read.unexpected.map((d) => d.path)).toContain('$.title');
    expect(broken.outcomes.find((o) => o.capture.seq === '015')?.verdict).toBe('differ');
  }, scaled(180_000));

  it('is allowed only where a listing names it', async () => {
    const read = subset(renamed).at(-1)!;
    const listings = (allows: string) => new Deviations([{ id: 'test-row', captures: read.seq, allows }]);
    const titled = await runConformance({ captures: subset(renamed), deviations: listings('body: $.title, $.json_ld.name, $.slug') });
    expect(titled.outcomes.at(-1)).toMatchObject({ verdict: 'allowed', unexpected: [] });
    const other = await runConformance({ captures: subset(renamed), deviations: listings('body: $.description; header: Allow') });
    expect(other.outcomes.at(-1)?.verdict).toBe('differ');
  }, scaled(180_000));
});

describe('reading the allows column', () => {
  const row = (allows: string): Listing[] => [{ id: 'r', allows: parseAllows(allows) }];

  it('reads status, header names and body paths', () => {
    expect(parseAllows('status; header: X-WP-Total, Cache-Control; body: $.events[*].description, $.routes["/a,b"]')).toEqual({
      status: true,
      headers: ['x-wp-total', 'cache-control'],
      body: ['$.events[*].description', '$.routes["/a,b"]'],
      routes: [],
      legacy: [],
      contract: false,
    });
    expect(parseAllows('-')).toEqual({ status: false, headers: [], body: [], routes: [], legacy: [], contract: false });
    expect(parseAllows('body: $.routes; contract').contract).toBe(true);
    expect(() => parseAllows('bodies: $.x')).toThrow(/cannot read/);
  });

  it('allows a path, what is below it and what its wildcards stand for, nothing else', () => {
    const r = row('body: $.events[*].description, $.routes["/wp/*"]; header: Allow');
    expect(allowedBy(r, '$.events[3].description')).toBe(true);
    expect(allowedBy(r, '$.events[3].description.rendered')).toBe(true);
    expect(allowedBy(r, '$.events[3].descriptions')).toBe(false);
    expect(allowedBy(r, '$.events[3].title')).toBe(false);
    expect(allowedBy(r, '$.routes["/wp/v2/posts"]')).toBe(true);
    expect(allowedBy(r, '$.routes["/calendar/events/v1"]')).toBe(false);
    expect(allowedBy(r, 'header Allow')).toBe(true);
    expect(allowedBy(r, 'header Location')).toBe(false);
    expect(allowedBy(r, 'status')).toBe(false);
    // A text body differs as a whole: only `$` allows it.
    expect(allowedBy(r, 'body (text)')).toBe(false);
    expect(allowedBy(row('body: $'), 'body (text)')).toBe(true);
  });

  it('applies a row with routes to the requests of those routes only', () => {
    const ok = { status: 200 };
    const rows = new Deviations([
      { id: 'lists', captures: '-', allows: 'routes: GET /calendar/events/v1/venues, * /redirection/v1/export/*; body: $.total' },
      { id: 'one', captures: '050', allows: 'status' },
    ]);
    expect(rows.forRoute('get', '/calendar/events/v1/venues', ok).map((l) => l.id)).toEqual(['lists']);
    expect(rows.forRoute('GET', '/calendar/events/v1/venues/{id}', ok)).toEqual([]);
    expect(rows.forRoute('POST', '/calendar/events/v1/venues', ok)).toEqual([]);
    expect(rows.forRoute('POST', '/redirection/v1/export/{module}/{format}', ok).map((l) => l.id)).toEqual(['lists']);
    expect(rows.forCapture('050', ok).map((l) => l.id)).toEqual(['one']);
    expect(rows.forCapture('051', ok)).toEqual([]);
    expect(() => parseAllows('routes: /no/method')).toThrow(/cannot read the route/);
  });

  it('applies a row with legacy: only where the legacy site answered one of its statuses', () => {
    expect(parseAllows('legacy: 500, 502; status').legacy).toEqual([500, 502]);
    expect(() => parseAllows('legacy: crash')).toThrow(/cannot read the legacy status/);
    const rows = new Deviations([{ id: 'crash', captures: '050', allows: 'legacy: 500; status; routes: GET /calendar/events/v1/tags' }]);
    expect(rows.forRoute('GET', '/calendar/events/v1/tags', { status: 500 }).map((l) => l.id)).toEqual(['crash']);
    expect(rows.forRoute('GET', '/calendar/events/v1/tags', { status: 400 })).toEqual([]);
    expect(rows.forCapture('050', { status: 500 }).map((l) => l.id)).toEqual(['crash']);
    expect(rows.forCapture('050', { status: 200 })).toEqual([]);
  });

  it('lists every row of DEVIATIONS.md that names a capture, with its allowances', () => {
    const listed = loadDeviations().forCapture('431', { status: 500 });
    expect(listed.map((l) => l.id)).toEqual(['history-unstick-not-sticky']);
    expect(listed[0].allows.status).toBe(true);
  });
});

describe('normalising what legitimately differs', () => {
  const opts = { aliases: { 'tribe/events/v1': 'calendar/events/v1' } };

  it('reads antispambot-obfuscated emails as the email, and nothing else as entities', () => {
    expect(diffJson({ email: '&#105;nfo&#64;ex&#x61;mple.com' }, { email: 'info@example.com' }, opts)).toEqual([]);
    expect(diffJson({ cost: '$20 &#8211; $40' }, { cost: '$20 – $40' }, opts)).toHaveLength(1);
  });

  it('ignores the oEmbed secret and the few seconds of a moving timestamp, not more', () => {
    const html = (s: string) => `<blockquote data-secret="${s}"></blockquote><iframe src="/embed/#?secret=${s}">`;
    expect(diffJson({ html: html('abc123') }, { html: html('zzz999') }, opts)).toEqual([]);
    expect(diffJson({ date: '2026-11-21 07:06:34' }, { date: '2026-11-21 07:06:36' }, opts)).toEqual([]);
    expect(diffJson({ date: '2026-11-21 07:06:34' }, { date: '2026-11-21 08:06:34' }, opts)).toHaveLength(1);
    expect(diffJson({ start_date: '2026-11-21 07:06:34' }, { start_date: '2026-11-21 07:06:35' }, opts)).toHaveLength(1);
  });

  it('compares JSON by value with key order ignored, and names each difference by its path', () => {
    expect(diffJson({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, opts)).toEqual([]);
    expect(diffJson({ a: { 'x-y': [1] }, href: 'http://h/wp-json/tribe/events/v1/events' }, { a: { 'x-y': [2] }, c: 3, href: 'http://h/wp-json/calendar/events/v1/events' }, opts)).toEqual([
      { path: '$.a["x-y"][0]', expected: 1, actual: 2 },
      { path: '$.c', expected: undefined, actual: 3 },
    ]);
  });
});
