/**
 * Calendar read paths against the number of published events: the event archive
 * (`GET /wp-json/calendar/events/v1/events`, default list and date/category filters), a single
 * event by ID and by slug, at 1k, 100k and 1M events on PostgreSQL (LINTEL_TEST_DATABASE_URL set)
 * and at 1k and 100k on PGlite (in memory). Each case is a bounded loop of `server.inject` (like
 * bench/edge.ts), with a bare `/healthz` inject of the same run as the baseline: `ratio` is
 * throughput relative to it (1 = as fast). The response cache is off (LINTEL_CACHE_TTL_S=0), so
 * every request runs its queries (bench/run.ts measures the cached archive against bare node:http);
 * the ID and slug lookups rotate over many events so they do not hit one hot row (the slug cache
 * still works as it would).
 *
 * At the 100k step (or the largest step up to 100k), the app goes on a real port and the default
 * archive is loaded by autocannon at 50 concurrent connections for the context's duration: that
 * row reports p99 and errors (timeouts count as errors) and its `ratio` is throughput relative to
 * the context's baseline: bare node:http (at the harness's --connections) under bench/run.ts,
 * `GET /healthz` through Lintel at 50 connections when this file runs on its own (that baseline
 * row is printed first). The PostgreSQL lane's test store has a pool of 4 connections.
 *
 * Events go straight into the tables with multi-row `insert ... select from generate_series`
 * (batches of 50k on PostgreSQL, 10k on PGlite), IDs from `post_id_seq` (the column default),
 * spread over three years around the bench clock (2026-11-21), each with one of 5 categories, one
 * of 2 tags and one of 4 venues; the terms' published counts are recounted once per step (their
 * per-link trigger is off during the load, see insertEvents) and the tables analyzed. Loading 200k
 * on PostgreSQL took ~12 s on 2 cores, so the 1M step should load in about a minute.
 * The archive counts every matching event for X-WP-Total, so its cost follows the number of
 * matches, not only the page size: the growth lines at the end (first step -> last, 1k -> 1M on
 * PostgreSQL) show how much.
 *
 * LINTEL_BENCH_CALENDAR_STEPS=1000,20000 replaces the steps (comma-separated event counts), e.g.
 * for a quick run. Run:
 *   node bench/calendar.ts                                   (PGlite)
 *   LINTEL_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/calendar.ts
 * or through the harness: `npm run bench -- --only calendar`.
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { testApp, type TestApp } from '../test/support/app.ts';
import { type BenchContext, type CaseRow, growthRow, measure, type Row, runIfMain, standaloneContext, time, timingRow } from './lib.ts';

const CATEGORIES = 5;
const TAGS = 2;
const VENUES = 4;
const CLOCK = '2026-11-21T12:08:00Z';
const NS = '/wp-json/calendar/events/v1';
/** The concurrent archive load: at this many connections, at the largest step up to CONCURRENT_AT events. */
const CONCURRENT_CONNECTIONS = 50;
const CONCURRENT_AT = 100_000;

/** The event counts to measure at: LINTEL_BENCH_CALENDAR_STEPS if set, else by store. */
function steps(store: string): number[] {
  const env = process.env.LINTEL_BENCH_CALENDAR_STEPS?.trim();
  if (!env) return store === 'postgres' ? [1_000, 100_000, 1_000_000] : [1_000, 100_000];
  const list = env.split(',').map((s) => Number(s.trim().replace(/_/g, '')));
  if (!list.length || list.some((n) => !Number.isSafeInteger(n) || n < 1)) throw new Error(`LINTEL_BENCH_CALENDAR_STEPS: expected comma-separated positive integers, got "${env}"`);
  return [...new Set(list)].sort((a, b) => a - b);
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
 *
 * The row trigger that keeps a term's `published_count` (migration 011) is off during the load
 * and the counts are recounted once after it: the trigger updates one of the 7 term rows per link,
 * and every update of a row within one statement adds a version to that row's chain, which the next
 * update walks, so a batch's cost grows with its square (20k events took ~10 s on PostgreSQL).
 */
async function insertEvents(app: TestApp, from: number, to: number): Promise<void> {
  const sql = app.store.sql;
  const batch = app.store.kind === 'postgres' ? 50_000 : 10_000;
  await sql.query('alter table calendar_event_terms disable trigger calendar_event_terms_count');
  try {
    for (let lo = from; lo <= to; lo += batch) {
      const hi = Math.min(to, lo + batch - 1);
      await insertBatch(sql, lo, hi);
    }
  } finally {
    await sql.query('alter table calendar_event_terms enable trigger calendar_event_terms_count');
  }
  await sql.query(`
    with c as (
      select et.term_id, count(*) as n from calendar_event_terms et join calendar_events e on e.id = et.event_id
      where e.status = 'publish' group by et.term_id
    )
    update calendar_terms t set published_count = coalesce((select n from c where c.term_id = t.id), 0)`);
}

async function insertBatch(sql: TestApp['store']['sql'], lo: number, hi: number): Promise<void> {
  await sql.query(`
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

export async function run(ctx: BenchContext): Promise<Array<Row | CaseRow>> {
  const app = await testApp({ env: { LINTEL_CLOCK: CLOCK, LINTEL_CACHE_TTL_S: '0' } });
  const store = app.store.kind;
  const STEPS = steps(store);
  const concurrentAt = Math.max(0, ...STEPS.filter((n) => n <= CONCURRENT_AT));
  const rows: Array<Row | CaseRow> = [];
  const archiveMeans = new Map<string, Map<number, number>>();
  try {
    const base = await time(app, () => '/healthz');
    const row = timingRow(base, store, 'events');
    rows.push(row('GET /healthz inject (calendar baseline)', null, base));

    const { categories } = await seedFixtures(app);
    let have = 0;
    for (const total of STEPS) {
      const t0 = performance.now();
      await insertEvents(app, have + 1, total);
      have = total;
      for (const t of ['calendar_events', 'calendar_event_terms', 'calendar_event_venues']) await app.store.sql.query(`analyze ${t}`);
      const [{ n }] = await app.store.sql.query<{ n: number }>(`select count(*)::int8 as n from calendar_events where status = 'publish'`);
      if (Number(n) !== total) throw new Error(`expected ${total} events, found ${n}`);
      const [{ counted }] = await app.store.sql.query<{ counted: number }>(`select sum(published_count)::int8 as counted from calendar_terms where taxonomy = 'category'`);
      if (Number(counted) !== total) throw new Error(`expected the categories to count ${total} published events, they count ${counted}`);
      const [{ lo, hi }] = await app.store.sql.query<{ lo: number; hi: number }>(`select min(id)::int8 as lo, max(id)::int8 as hi from calendar_events`);
      console.error(`  calendar: ${total} events loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s [${store}]`);

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

      if (total === concurrentAt) {
        // The default archive, uncached, through a real socket at 50 concurrent connections.
        await app.server.listen({ host: '127.0.0.1', port: 0 });
        const { port } = app.server.server.address() as AddressInfo;
        const name = `GET ${NS}/events, ${CONCURRENT_CONNECTIONS} connections @ ${total.toLocaleString('en')} events [${store}]`;
        const r = await measure(name, `http://127.0.0.1:${port}${NS}/events`, { duration: ctx.duration, connections: CONCURRENT_CONNECTIONS, baseline: ctx.baseline });
        console.error(`  calendar: ${name}: ${Math.round(r.reqPerSec)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.non2xx} non-2xx, ${r.errors} errors/timeouts`);
        rows.push(r);
      }
    }

    const first = STEPS[0];
    const last = STEPS[STEPS.length - 1];
    if (last > first) {
      console.error(`  calendar: archive mean latency at ${last} vs ${first} events [${store}] (${last / first}x the events;`
        + ` logarithmic growth would be a small constant factor, linear ~${last / first}x):`);
      for (const [what, means] of archiveMeans) rows.push(growthRow(what, means, first, last, 'events', store));
    }
  } finally {
    await app.close();
  }
  return rows;
}

// Run directly: `node bench/calendar.ts` (5 s for the concurrent case; its ratio is
// against `GET /healthz` at 50 connections, the first row).
await runIfMain(import.meta.url, async () => {
  const ctx = await standaloneContext(5, CONCURRENT_CONNECTIONS);
  return [ctx.baseline, ...(await run(ctx))];
});
