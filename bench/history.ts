/**
 * The audit log's read paths against the size of the log: the events list (`GET
 * /wp-json/history/v1/events`, grouped default page, a deep page, a logger filter), has-updates and
 * the stats summary, at 10k and 100k events (1M with BENCH_HISTORY_1M=1, a load of about a minute).
 * Bounded loops of `server.inject` as an administrator, with a bare `/healthz` inject of the same
 * run as the baseline (`ratio` = throughput relative to it), with bench/lib.ts's `time` and `timingRow`.
 *
 * Events go straight into the table with one set-based `insert ... select from generate_series`
 * per step (the hourly-count trigger runs once per statement), spread over the year before the
 * bench clock, each its own occasion, over five loggers. The growth lines at the end compare the
 * mean latency at the largest step with the smallest.
 */
import { performance } from 'node:perf_hooks';
import { testApp } from '../test/support/app.ts';
import { type CaseRow as Row, growthRow, runIfMain, time, timingRow } from './lib.ts';

const STEPS = process.env.BENCH_HISTORY_1M === '1' ? [10_000, 100_000, 1_000_000] : [10_000, 100_000];
const BATCH = 100_000;
const CLOCK = '2026-11-21T12:08:00Z';
const NS = '/wp-json/history/v1';
const KINDS = [
  ['SimplePostLogger', 'post_updated', 'Updated {post_type} "{post_title}"'],
  ['SimplePostLogger', 'post_created', 'Created {post_type} "{post_title}"'],
  ['Plugin_Redirection', 'redirection_redirection_added', 'Added a redirection for URL "{source_url}"'],
  ['CustomEntryLogger', 'custom_entry_added', 'Added a custom entry: {message}'],
  ['SimpleUserLogger', 'user_login_failed', 'Failed to login with username "{login}" (incorrect password entered)'],
];

/** Events `from`..`to`, dated over the 8,760 hours before the clock by a stride, so every step keeps the same spread. */
async function insertEvents(sql: { query(text: string, params?: unknown[]): Promise<unknown[]> }, from: number, to: number): Promise<void> {
  const kinds = JSON.stringify(KINDS.map(([logger, key, message]) => ({ logger, key, message })));
  for (let lo = from; lo <= to; lo += BATCH) {
    const hi = Math.min(to, lo + BATCH - 1);
    await sql.query(
      `insert into history_events (date, logger, level, message, message_key, occasions_id, initiator, user_id, context)
       select timestamp '2025-11-21 12:00:00' + ((g::int8 * 7919) % 8760) * interval '1 hour' + (g % 3600) * interval '1 second',
              k->>'logger', 'info', k->>'message', k->>'key', md5(g::text), 'wp_user', 1,
              jsonb_build_object('post_title', 'Bench record ' || g, 'post_type', 'tribe_events', 'message', 'Bench entry ' || g, '_message_key', k->>'key', '_user_id', '1', '_user_login', 'admin')
       from generate_series($1::int, $2::int) g, lateral (select $3::jsonb -> (g % ${KINDS.length}) as k) x`,
      [lo, hi, kinds],
    );
  }
}

export async function run(): Promise<Row[]> {
  const app = await testApp({ env: { LINTEL_CLOCK: CLOCK } });
  const admin = { authorization: await app.auth('administrator') };
  const rows: Row[] = [];
  const means = new Map<string, Map<number, number>>();
  try {
    const base = await time(app, () => '/healthz');
    const row = timingRow(base, app.store.kind, 'events');
    rows.push(row('GET /healthz inject (history baseline)', null, base));
    let have = 0;
    for (const total of STEPS) {
      const t0 = performance.now();
      await insertEvents(app.store.sql, have + 1, total);
      have = total;
      await app.store.sql.query('analyze history_events');
      await app.store.sql.query('analyze history_hourly');
      const [{ max }] = await app.store.sql.query<{ max: number }>('select max(id)::int8 as max from history_events');
      console.error(`  history: ${total} events loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const cases: Array<[string, (i: number) => string]> = [
        ['events, default page', () => `${NS}/events`],
        ['events, page 50 of 10', () => `${NS}/events?page=50`],
        ['events, loggers=SimpleUserLogger', () => `${NS}/events?loggers=SimpleUserLogger`],
        ['has-updates, since the 100th newest', () => `${NS}/events/has-updates?since_id=${Number(max) - 100}`],
        ['stats/summary, last 30 days', () => `${NS}/stats/summary`],
      ];
      for (const [what, url] of cases) {
        const t = await time(app, url, 200, admin);
        rows.push(row(`GET ${what}`, total, t));
        (means.get(what) ?? means.set(what, new Map()).get(what)!).set(total, t.mean_ms);
      }
    }
    const first = STEPS[0];
    const last = STEPS[STEPS.length - 1];
    console.error(`  history: mean latency at ${last} vs ${first} events (${last / first}x the events; flat = 1x, linear ~${last / first}x):`);
    for (const [what, m] of means) rows.push(growthRow(what, m, first, last, 'events', app.store.kind));
  } finally {
    await app.close();
  }
  return rows;
}

// Run directly: `node bench/history.ts`.
await runIfMain(import.meta.url, run);
