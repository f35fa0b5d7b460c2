import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Deviations } from '../../src/compare/deviations.ts';
import { publicAccess } from '../../src/contract/permission.ts';
import { json } from '../../src/contract/reply.ts';
import { endpoint, route } from '../../src/contract/route.ts';
import { RouteTable } from '../../src/contract/router.ts';
import type { Answer } from './clients.ts';
import { printReport, Tally } from './report.ts';
import { FRONT_PAGE, reachedTemplate, type DiffRequest } from './requests.ts';

const answer = (status: number, body: unknown): Answer => ({ status, headers: { 'content-type': 'application/json' }, headerList: [], body: JSON.stringify(body), elapsedS: 0 });
const norm = { aliases: {} };
const curls = { legacy: 'curl legacy', lintel: 'curl lintel' };

describe('differential report', () => {
  const rows = new Deviations([{ id: 'venue-sort', captures: '-', allows: 'body: $[*].order; routes: GET /calendar/events/v1/venues' }]);

  it('counts a request differing only where a row for its route allows as allowed, anything else as a difference', () => {
    const tally = new Tally();
    const route = 'GET /calendar/events/v1/venues';
    const listings = rows.forRoute('GET', '/calendar/events/v1/venues', { status: 200 });
    const add = (legacy: unknown, lintel: unknown) => tally.add(route, 'calendar/events/v1', tally.compare(route, answer(200, legacy), answer(200, lintel), norm), listings, curls).verdict;
    expect(add([{ id: 1, order: 1 }], [{ id: 1, order: 1 }])).toBe('identical');
    expect(add([{ id: 1, order: 1 }], [{ id: 1, order: 2 }])).toBe('allowed');
    expect(add([{ id: 1, order: 1 }], [{ id: 2, order: 2 }])).toBe('differs');
    // The row names the list route only: the same difference on the item route counts.
    const item = tally.add('GET /calendar/events/v1/venues/{id}', 'calendar/events/v1', tally.compare(route, answer(200, { order: 1 }), answer(200, { order: 2 }), norm), rows.forRoute('GET', '/calendar/events/v1/venues/{id}', { status: 200 }), curls);
    expect(item.verdict).toBe('differs');

    // Inside an envelope the row's paths are read below `$.body`.
    const enveloped = tally.compare(route, answer(200, { body: [{ order: 1 }], status: 200 }), answer(200, { body: [{ order: 2 }], status: 200 }), norm);
    expect(tally.add('GET /calendar/events/v1/venues/{id}', 'calendar/events/v1', enveloped, listings, curls, true).verdict).toBe('allowed');

    const report = printReport(tally, { examples: 5 });
    expect(report).toContain('GET /calendar/events/v1/venues  3: 1 identical (33.3%), 1 allowed (33.3%), 1 differ (33.3%)');
    expect(report.some((l) => l.includes('$[0].order') && l.includes('[allowed: venue-sort]'))).toBe(true);
    expect(report).toContain('calendar/events/v1: 5 requests, 1 identical (20.0%), 2 allowed (40.0%), 2 differ (40.0%)');
  });

  it('shows a difference no row allows even where the same path was allowed on an earlier request', () => {
    const tally = new Tally();
    const route = 'GET /calendar/events/v1/venues';
    const found = () => tally.compare(route, answer(200, [{ order: 1 }]), answer(200, [{ order: 2 }]), norm);
    tally.add(route, 'calendar/events/v1', found(), rows.forRoute('GET', '/calendar/events/v1/venues', { status: 200 }), curls);
    // As where a row's `legacy:` status does not apply: nothing allows it.
    expect(tally.add(route, 'calendar/events/v1', found(), [], curls).verdict).toBe('differs');
    expect(printReport(tally, { examples: 5, classes: 5 })).toContain('  ×1 on 1 route: $[0].order: expected 1, got 2');
  });

  it('counts apart the allowed requests whose every difference a row marked contract allows', () => {
    const marked = new Deviations([
      { id: 'contract-route', captures: '-', allows: 'body: $.routes; routes: GET /; contract' },
      { id: 'bug-kept-out', captures: '-', allows: 'body: $.name; routes: GET /' },
    ]);
    const tally = new Tally();
    const add = (legacy: unknown, lintel: unknown) => tally.add('GET /', 'index', tally.compare('GET /', answer(200, legacy), answer(200, lintel), norm), marked.forRoute('GET', '/', { status: 200 }), curls).verdict;
    expect([add({ routes: 1, name: 'a' }, { routes: 2, name: 'a' }), add({ routes: 1, name: 'a' }, { routes: 2, name: 'b' }), add({ name: 'a' }, { name: 'b' })]).toEqual(['allowed', 'allowed', 'allowed']);
    // Beside them, identical or contract: what a client of the contract sees answered as the legacy site or the contract.
    expect(add({ routes: 1, name: 'a' }, { routes: 1, name: 'a' })).toBe('identical');
    const report = printReport(tally, { examples: 0 });
    expect(report).toContain('namespace            requests  identical  allowed  contract  as contract  differ');
    expect(report).toContain(`${'index'.padEnd(20)} ${'4'.padStart(8)}  ${'25.0%'.padStart(9)}  ${'75.0%'.padStart(7)}  ${'25.0%'.padStart(8)}  ${'50.0%'.padStart(11)}  ${'0.0%'.padStart(6)}`);
  });

  it('sums each unlisted class over the routes it is met on, and counts verdicts per request feature', () => {
    const tally = new Tally();
    const differing = (route: string, features: string[]) =>
      tally.add(route, 'calendar/events/v1', tally.compare(route, answer(404, { code: 'rest_no_route' }), answer(200, { code: 'x' }), norm), [], curls, false, features);
    differing('GET /calendar/events/v1/venues', ['rest_route (query)']);
    differing('GET /redirection/v1/redirect', ['rest_route (query)', 'NUL']);
    tally.add('GET /history/v1/events', 'history/v1', [], [], curls, false, []);
    const report = printReport(tally, { examples: 0, classes: 5 });
    expect(report).toContain('  ×2 on 2 routes: status: expected 404, got 200');
    expect(report.find((l) => l.startsWith('rest_route (query)'))).toMatch(/rest_route \(query\)\s+2\s+0\.0%\s+0\.0%\s+0\.0%\s+0\.0%\s+100\.0%/);
    expect(report.find((l) => l.startsWith('(none)'))).toMatch(/\(none\)\s+1\s+100\.0%/);
  });

  it('tells per row and namespace how many allowed requests it allowed, a request allowed by two rows counting for both', () => {
    const deviations = new Deviations([
      { id: 'venue-sort', captures: '-', allows: 'body: $[*].order; routes: GET /calendar/events/v1/venues, GET /' },
      { id: 'venue-name', captures: '-', allows: 'body: $[*].name; routes: GET /calendar/events/v1/venues' },
    ]);
    const tally = new Tally();
    const add = (route: string, path: string, namespace: string, legacy: unknown, lintel: unknown) =>
      tally.add(route, namespace, tally.compare(route, answer(200, legacy), answer(200, lintel), norm), deviations.forRoute('GET', path, { status: 200 }), curls).verdict;
    const venues = ['GET /calendar/events/v1/venues', '/calendar/events/v1/venues', 'calendar/events/v1'] as const;
    expect(add(...venues, [{ order: 1 }], [{ order: 2 }])).toBe('allowed');
    expect(add(...venues, [{ order: 1, name: 'a' }], [{ order: 2, name: 'b' }])).toBe('allowed');
    // A request that still differs counts for no row: only the allowed ones would become identical.
    expect(add(...venues, [{ order: 1, id: 1 }], [{ order: 2, id: 2 }])).toBe('differs');
    expect(add('GET /', '/', 'index', [{ order: 1 }], [{ order: 2 }])).toBe('allowed');
    expect(tally.rows.get('venue-sort')).toEqual(new Map([['calendar/events/v1', 2], ['index', 1]]));
    expect(tally.rows.get('venue-name')).toEqual(new Map([['calendar/events/v1', 1]]));
    const report = printReport(tally, { examples: 0 });
    const header = report.findIndex((l) => l.startsWith('row allowing'));
    expect(report[header]).toMatch(/^row allowing\s+total\s+calendar\/events\/v1\s+index$/);
    expect(report[header + 1]).toMatch(/^venue-sort\s+3\s+2\s+1$/);
    expect(report[header + 2]).toMatch(/^venue-name\s+1\s+1\s+-$/);
  });
});

describe('the route a request reaches', () => {
  const request = (query: string, body?: DiffRequest['body'], method = 'POST'): DiffRequest => ({
    route: 'POST /calendar/events/v1/events',
    template: '/calendar/events/v1/events',
    effective: method,
    namespace: 'calendar/events/v1',
    method,
    path: '/calendar/events/v1/events',
    collection: null,
    pick: 0,
    locale: '',
    query,
    body,
    caller: 'administrator',
    write: true,
  });
  const form = (payload: string) => ({ type: 'application/x-www-form-urlencoded', payload });

  const table = new RouteTable();
  const declared = (namespace: string, pattern: string) => route(namespace, pattern, endpoint({ methods: ['POST', 'PUT'], args: {}, response: json(z.null()), permission: publicAccess, handler: () => ({ status: 200, body: null }) }));
  table.add(declared('calendar/events/v1', '/calendar/events/v1/events'));
  table.add(declared('redirection/v1', '/redirection/v1/redirect/(?P<id>\\d+)'));
  // The site index and the calendar's item route, the latter under its alias too.
  const get = endpoint({ methods: ['GET'], args: {}, permission: publicAccess, response: json(z.unknown()), handler: () => ({ body: null }) });
  table.add(route('', '/', get));
  const item = route('calendar/events/v1', '/calendar/events/v1/events/(?P<id>\\d+)', get);
  table.add(item);
  table.add(item, 'tribe/events/v1');
  const reached = (r: DiffRequest) => reachedTemplate(r, table, { restPrefix: 'wp-json', locales: ['fr'] });

  it('is the front page where the rest_route WordPress reads is empty, else the route it names', async () => {
    expect(await reached(request('%20rest_route=&a=1'))).toBe(FRONT_PAGE);
    expect(await reached(request('rest_route=/x&rest_route=0'))).toBe(FRONT_PAGE);
    expect(await reached(request('', form('rest_route=')))).toBe(FRONT_PAGE);
    // A PUT's form body is not read for it; a POST form's value differing from the query's is wp_die's.
    expect(await reached(request('', form('rest_route='), 'PUT'))).toBe('/calendar/events/v1/events');
    expect(await reached(request('rest_route=', form('rest_route=/x')))).toBe('/calendar/events/v1/events');
    expect(await reached(request('rest_route[]='))).toBe('/calendar/events/v1/events');
    // A rest_route naming another route reaches that route, whose rows apply; an unknown one, no route's.
    expect(await reached(request('rest_route=/redirection/v1/redirect/5'))).toBe('/redirection/v1/redirect/{id}');
    expect(await reached({ ...request(''), locale: '/fr', body: form('rest_route=/nope/v1') })).toBe('/nope/v1');
  });

  it('is the route a non-empty rest_route names, under any name PHP reads as it, whatever the path', async () => {
    expect(await reached(request('id[a][b]=5&rest[route=%2F'))).toBe('/');
    // rest_api_loaded drops trailing slashes and backslashes (untrailingslashit): nothing left is the index.
    expect(await reached(request('rest[route=%5C'))).toBe('/');
    expect(await reached(request('rest_route=/tribe/events/v1/events/5/'))).toBe('/calendar/events/v1/events/{id}');
    expect(await reached(request('', form('rest.route=/tribe/events/v1/events/5')))).toBe('/calendar/events/v1/events/{id}');
  });
});
