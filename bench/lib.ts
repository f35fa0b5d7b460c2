/**
 * Shared pieces of the bench: the row every case reports, the context a case module gets,
 * helpers to start a Lintel on an in-memory store and to measure a URL with autocannon, and the
 * in-process timing (bounded `server.inject` loops) with its rows, used by bench/calendar.ts and
 * bench/history.ts.
 * A case module is any `bench/*.ts` besides the harness's (run.ts, lib.ts, outside.ts, bare-server.ts) and cpu.ts (a tool of its own) exporting `run(ctx): Promise<Row[]>`.
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { seedDemoOnce } from '../src/bootstrap.ts';
import { testApp, type TestApp } from '../test/support/app.ts';

export interface Row {
  case: string;
  reqPerSec: number;
  /** Latency in milliseconds. */
  p50: number;
  p99: number;
  /** Throughput relative to the bare node:http baseline of the same run (1 = as fast). */
  ratio: number;
  /** Answers that were not 2xx, or failed: a case that errors measures the wrong thing. */
  non2xx: number;
  errors: number;
}

export interface MeasureOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface BenchContext {
  /** Seconds per case. */
  duration: number;
  connections: number;
  /** The bare node:http row every ratio is relative to. */
  baseline: Row;
  /** A Lintel listening on 127.0.0.1 (random port) over a fresh in-memory store; close it when done. */
  startLintel(env?: Record<string, string>): Promise<RunningLintel>;
  /** Load `url` for `duration` seconds and report it as `name`. */
  measure(name: string, url: string, opts?: MeasureOptions): Promise<Row>;
}

export interface RunningLintel {
  app: TestApp;
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
}

/** With `LINTEL_DEMO_DATA: 'true'` the store gets the demo content, as `npm start` seeds it on a first start. */
export async function startLintel(env: Record<string, string> = {}): Promise<RunningLintel> {
  const app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:08:00Z', ...env } });
  if (app.config.demoData) await seedDemoOnce(app.store, app.services.clock);
  await app.server.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.server.address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

/**
 * The load generator runs in its own worker thread (autocannon `workers: 1`), so the servers,
 * which live on this thread, do not share their event loop with it.
 */
export async function measure(name: string, url: string, opts: MeasureOptions & { duration: number; connections: number; baseline?: Row }): Promise<Row> {
  const r = await autocannon({
    url,
    method: opts.method ?? 'GET',
    headers: opts.headers,
    body: opts.body,
    duration: opts.duration,
    connections: opts.connections,
    workers: 1,
  });
  const reqPerSec = r.requests.average;
  return {
    case: name,
    reqPerSec,
    p50: r.latency.p50,
    p99: r.latency.p99,
    ratio: opts.baseline ? ratioTo(reqPerSec, opts.baseline) : 1,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

export function ratioTo(reqPerSec: number, baseline: Row): number {
  return baseline.reqPerSec > 0 ? reqPerSec / baseline.reqPerSec : 0;
}

/**
 * A context for running a case module on its own (no bench/run.ts, so no bare node:http
 * baseline): its baseline is `GET /healthz` (a trivial route through the whole Fastify stack) of a
 * Lintel on a fresh store, measured by autocannon with the same duration and connections as the
 * cases, so a ratio is throughput relative to that route, not to node:http.
 */
export async function standaloneContext(duration: number, connections: number): Promise<BenchContext> {
  const lintel = await startLintel();
  let baseline: Row;
  try {
    baseline = await measure(`GET /healthz, ${connections} connections (standalone baseline) [${lintel.app.store.kind}]`, `${lintel.url}/healthz`, { duration, connections });
  } finally {
    await lintel.close();
  }
  return {
    duration,
    connections,
    baseline,
    startLintel,
    measure: (name, url, opts) => measure(name, url, { ...opts, duration, connections, baseline }),
  };
}

/** Lets a case module run on its own (`node bench/<name>.ts`): prints its rows and the time taken. */
export async function runIfMain(moduleUrl: string, run: () => Promise<unknown[]>): Promise<void> {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  const t = performance.now();
  console.table(await run());
  console.log(`total ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

/** A case module's row as it gives it: a case name and any columns. */
export type CaseRow = Record<string, unknown> & { case: string };

/** Each in-process timing stops at whichever comes first. */
const MAX_REQUESTS = 400;
const MAX_MS = 1_500;

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

/**
 * The row of an in-process timing, its ratio against the baseline timing of the same run; a row
 * with a size names it and the store (`... @ 10,000 events [pglite]`), so the steps are told apart,
 * a row without one (the baseline) names the store only.
 */
export function timingRow(base: Timing, store: string, unit: string) {
  return (name: string, size: number | null, t: Timing, extra: Record<string, unknown> = {}): CaseRow => ({
    case: size === null ? `${name} [${store}]` : `${name} @ ${size.toLocaleString('en')} ${unit} [${store}]`,
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
export function growthRow(what: string, means: Map<number, number>, first: number, last: number, unit: string, store: string): CaseRow {
  const growth = means.get(last)! / means.get(first)!;
  console.error(`    ${what}: ${means.get(first)} ms -> ${means.get(last)} ms = ${growth.toFixed(2)}x`);
  return { case: `latency growth, ${first.toLocaleString('en')} -> ${last.toLocaleString('en')} ${unit} [${store}]: ${what}`, growth: Math.round(growth * 100) / 100 };
}
