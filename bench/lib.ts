/**
 * Shared pieces of the bench: the row every case reports, the context a case module gets, and
 * helpers to start a Lintel on an in-memory store and to measure a URL with autocannon.
 * A case module is any `bench/*.ts` besides run.ts and lib.ts exporting `run(ctx): Promise<Row[]>`.
 */
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
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

export async function startLintel(env: Record<string, string> = {}): Promise<RunningLintel> {
  const app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:08:00Z', ...env } });
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

/** Lets a case module run on its own (`npx tsx bench/<name>.ts`): prints its rows and the time taken. */
export async function runIfMain(moduleUrl: string, run: () => Promise<unknown[]>): Promise<void> {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  const t = performance.now();
  console.table(await run());
  console.log(`total ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
