/**
 * Calendar read paths against the number of published events: the event archive
 * (`GET /wp-json/calendar/events/v1/events`, default list and date/category filters), a single
 * event by ID and by slug, at 1k, 10k and 100k events. Each case is a bounded loop of
 * `server.inject` (like bench/edge.ts), with a bare `/healthz` inject of the same run as the
 * baseline: `ratio` is throughput relative to it (1 = as fast), as in the harness's rows.
 * The response cache is off (LINTEL_CACHE_TTL_S=0), so every request runs its queries (bench/run.ts
 * measures the cached archive against bare node:http); the ID and slug lookups
 * rotate over many events so they do not hit one hot row (the slug cache still works as it would).
 *
 * Events go straight into the tables with multi-row `insert ... select from generate_series`,
 * IDs from `post_id_seq` (the column default), spread over three years around the bench clock
 * (2026-11-21), each with one of 5 categories, one of 2 tags and one of 4 venues.
 * The archive counts every matching event for X-WP-Total, so its cost follows the number of
 * matches, not only the page size: the growth line printed at the end shows how much.
 */
import { performance } from 'node:perf_hooks';
import { testApp, type TestApp } from '../test/support/app.ts';
import { runIfMain } from './lib.ts';

type Row = Record<string, unknown> & { case: string };

const STEPS = [1_000, 10_000, 100_000];
const BATCH = 10_000;
const CATEGORIES = 5;
const TAGS = 2;
const VENUES = 4;
/** Each measurement stops at whichever comes first. */
const MAX_REQUESTS = 400;
const MAX_MS = 1_500;
const CLOCK = '2026-11-21T12:08:00Z';
const NS = '/wp-json/calendar/events/v1';

export interface Timing { requests: number; mean_ms: number; p50: number; p99: number; body: unknown }

/** Mean, p50 and p99 ms of a bounded loop of injects (after a short warm-up); `url(i)` may rotate. */
export async function time(app: TestApp, url: (i: number) => string, expectStatus = 200, headers: Record<string, string> = {}): Promise<Timing> {
  for (let i = 0; i < 5; i++) await app.server.inject({ method: 'GET', url: url(i), headers });
  const first = await app.server.inject({ method: 'GET', url: url(0), headers });
  if (first.statusCode !== expectStatus) throw new Error(`${url(0)}: ${first.statusCode}, expected ${expectStatus}: ${first.body.slice(0, 300)}`);
  const ms: number[] = [];
  const start = performance.now();
  let bad = 0;
  while (ms.length < MAX_REQUESTS && performance.now() - start < MAX_MS) {
    const t = performance.now();
    const res = await app.server.inject({ method: 'GET', url: url(ms.length + 1), headers });
    ms.push(performance.now() - t);
    if (res.statusCode !== expectStatus) bad++;
  }
  if (bad) throw new Error(`${url(1)}: ${bad} answers were not ${expectStatus}`);
  ms.sort((a, b) => a - b);
  const r = (n: number) => Math.round(n * 1000) / 1000;
  return {
    requests: ms.length,
    mean_ms: r(ms.reduce((a, b) => a + b, 0) / ms.length),
    p50: r(ms[Math.floor(ms.length * 0.5)]),
    p99: r(ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))]),
    body: first.json(),
  };
}

async function seedFixtures(app: TestApp): Promise<{ categories: string[]; venues: number[] }> {
  const sql = app.store.sql;
  await sql.query(`insert into calendar_terms (taxonomy, name, slug)
    select 'category', 'Bench category ' || g, 'bench-cat-' || g from generate_series(0, ${CATEGORIES - 1}) g`);
  await sql.query(`insert into calendar_terms (taxonomy, name, slug)
    select 'tag', 'Bench tag ' || g, 'bench-tag-' || g from generate_series(0, ${TAGS - 1}) g`);
  await sql.query(`insert into calendar_venues (slug, name, address, city, country, latitude, longitude, created, modified)
    select 'bench-venue-' || g, 'Bench venue ' || g, g || ' Main Street', 'Springfield', 'United States', 40 + g, -75 - g, $1::timestamptz, $1::timestamptz
    from generate_series(0, ${VENUES - 1}) g`, [CLOCK]);
  const venues = await sql.query<{ id: number }>(`select id from calendar_venues where slug like 'bench-venue-%' order by slug`);
  return { categories: Array.from({ length: CATEGORIES }, (_, i) => `bench-cat-${i}`), venues: venues.map((v) => Number(v.id)) };
}

/**
 * Events `from`..`to` (inclusive numbers, slug `bench-event-N`), start times scattered over
 * 2025-11-21 .. 2028-11-20 by a stride through the 26,280 hours of those three years, so every
 * step keeps the same spread. Each event gets a category, a tag and a venue in the same statement.
 */
async function insertEvents(app: TestApp, from: number, to: number): Promise<void> {
  for (let lo = from; lo <= to; lo += BATCH) {
    const hi = Math.min(to, lo + BATCH - 1);
    await app.store.sql.query(`
      with e as (
        insert into calendar_events (slug, title, description, excerpt, start_date, end_date, utc_start_date, utc_end_date, timezone, cost, created, modified)
        select 'bench-event-' || g, 'Bench event ' || g, '<p>A bench event, number ' || g || '.</p>', 'Bench event ' || g,
          s, s + interval '2 hours', s, s + interval '2 hours', 'UTC', '10', $3::timestamptz, $3::timestamptz
        from generate_series($1::int, $2::int) g,
          lateral (select timestamp '2025-11-21 00:00:00' + ((g::int8 * 7919) % 26280) * interval '1 hour' + (g % 4) * interval '15 minutes' as s) d
        returning id, split_part(slug, '-', 3)::int as n
      ),
      t as (
        insert into calendar_event_terms (event_id, term_id)
        select e.id, c.id from e join calendar_terms c on c.taxonomy = 'category' and c.slug = 'bench-cat-' || (e.n % ${CATEGORIES})
        union all
        select e.id, c.id from e join calendar_terms c on c.taxonomy = 'tag' and c.slug = 'bench-tag-' || (e.n % ${TAGS})
      )
      insert into calendar_event_venues (event_id, venue_id, position)
      select e.id, v.id, 0 from e join calendar_venues v on v.slug = 'bench-venue-' || (e.n % ${VENUES})`, [lo, hi, CLOCK]);
  }
}

/**
 * The row of an in-process timing, its ratio against the baseline timing of the same run; a row
 * with a size names it and the store (`... @ 10,000 events [pglite]`), so the steps are told apart.
 */
export function timingRow(base: Timing, store: string, unit: string) {
  return (name: string, size: number | null, t: Timing, extra: Record<string, unknown> = {}): Row => ({
    case: size === null ? name : `${name} @ ${size.toLocaleString('en')} ${unit} [${store}]`,
    [unit]: size,
    reqPerSec: Math.round(1000 / t.mean_ms),
    mean_ms: t.mean_ms,
    p50: t.p50,
    p99: t.p99,
    ratio: Math.round((base.mean_ms / t.mean_ms) * 1000) / 1000,
    requests: t.requests,
    non2xx: 0,
    errors: 0,
    ...extra,
  });
}

/**
 * The growth of a case's mean latency from the first size to the last, printed as it is measured;
 * not a load-test row (no req/s of its own): bench/run.ts prints it in the case modules' table.
 */
export function growthRow(what: string, means: Map<number, number>, first: number, last: number, unit: string, store: string): Row {
  const growth = means.get(last)! / means.get(first)!;
  console.error(`    ${what}: ${means.get(first)} ms -> ${means.get(last)} ms = ${growth.toFixed(2)}x`);
  return { case: `latency growth, ${first.toLocaleString('en')} -> ${last.toLocaleString('en')} ${unit} [${store}]: ${what}`, growth: Math.round(growth * 100) / 100 };
}

export async function run(): Promise<Row[]> {
  const app = await testApp({ env: { LINTEL_CLOCK: CLOCK, LINTEL_CACHE_TTL_S: '0' } });
  const rows: Row[] = [];
  const archiveMeans = new Map<string, Map<number, number>>();
  try {
    const base = await time(app, () => '/healthz');
    const row = timingRow(base, app.store.kind, 'events');
    rows.push(row('GET /healthz inject (baseline)', null, base));

    const { categories } = await seedFixtures(app);
    let have = 0;
    for (const total of STEPS) {
      const t0 = performance.now();
      await insertEvents(app, have + 1, total);
      have = total;
      for (const t of ['calendar_events', 'calendar_event_terms', 'calendar_event_venues']) await app.store.sql.query(`analyze ${t}`);
      const [{ n }] = await app.store.sql.query<{ n: number }>(`select count(*)::int8 as n from calendar_events where status = 'publish'`);
      if (Number(n) !== total) throw new Error(`expected ${total} events, found ${n}`);
      const [{ lo, hi }] = await app.store.sql.query<{ lo: number; hi: number }>(`select min(id)::int8 as lo, max(id)::int8 as hi from calendar_events`);
      console.error(`  calendar: ${total} events loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

      const archive: Array<[string, (i: number) => string]> = [
        ['archive, default list', () => `${NS}/events`],
        ['archive, one quarter, per_page=10', () => `${NS}/events?start_date=2027-01-01&end_date=2027-03-31&per_page=10`],
        ['archive, one quarter + category, per_page=10', (i) => `${NS}/events?start_date=2027-01-01&end_date=2027-03-31&categories=${categories[i % CATEGORIES]}&per_page=10`],
      ];
      for (const [what, url] of archive) {
        const t = await time(app, url);
        const matched = (t.body as { total?: number }).total;
        rows.push(row(`GET ${NS}/events ${what}`, total, t, { matched }));
        (archiveMeans.get(what) ?? archiveMeans.set(what, new Map()).get(what)!).set(total, t.mean_ms);
      }
      // IDs and slugs rotate through the loaded events with a stride (events are contiguous in post_id_seq).
      const pick = (i: number) => Number(lo) + ((i * 7919) % (Number(hi) - Number(lo) + 1));
      const byId = await time(app, (i) => `${NS}/events/${pick(i)}`);
      rows.push(row(`GET ${NS}/events/{id}`, total, byId));
      const slugOf = (i: number) => `bench-event-${1 + ((i * 7919) % total)}`;
      const bySlug = await time(app, (i) => `${NS}/events/by-slug/${slugOf(i)}`);
      rows.push(row(`GET ${NS}/events/by-slug/{slug}`, total, bySlug));
    }

    const first = STEPS[0];
    const last = STEPS[STEPS.length - 1];
    console.error(`  calendar: archive mean latency at ${last} vs ${first} events (${last / first}x the events;`
      + ` logarithmic growth would be a small constant factor, linear ~${last / first}x):`);
    for (const [what, means] of archiveMeans) {
      rows.push(growthRow(what, means, first, last, 'events', app.store.kind));
    }
  } finally {
    await app.close();
  }
  return rows;
}

// Run directly: `npx tsx bench/calendar.ts`.
await runIfMain(import.meta.url, run);
