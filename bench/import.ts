/**
 * `lintel import` at scale, measured from outside the importing process: 100k events (with a
 * venue, an organizer, a category and a tag each) from a generated legacy origin
 * (test/support/generated-origin.ts, in this process: its own cost is not the importer's), imported
 * by `node bin/lintel.js import` into a migrated empty store, on PGlite and, when
 * LINTEL_TEST_DATABASE_URL is set, on PostgreSQL (a throwaway database). Peak memory is the child's
 * maximum resident set size as `/usr/bin/time -v` reports it; records per second is the child's own
 * figure (records read from the origin over the run's time, the store's opening left out).
 * `LINTEL_BENCH_EVENTS` changes the size.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startGeneratedOrigin } from '../test/support/generated-origin.ts';
import { throwawayDatabase } from '../test/support/store.ts';
import { runIfMain } from './lib.ts';

const EVENTS = Number(process.env.LINTEL_BENCH_EVENTS ?? 100_000);
const BIN = path.join(import.meta.dirname, '../bin/lintel.js');
/** The Node flags and the environment of the bin file's shebang line (`#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --liftoff-only ...`), as `npx lintel` runs it. */
const SHEBANG = readFileSync(BIN, 'utf8').split('\n', 1)[0].split(' ');
const NODE_FLAGS = SHEBANG.filter((a) => a.startsWith('--'));
const NODE_ENV = Object.fromEntries(SHEBANG.filter((a) => /^[A-Z_]+=/.test(a)).map((a) => a.split('=', 2)));

/** Runs `lintel` under `/usr/bin/time -v`: its output and its peak resident set in MB. */
function lintel(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; peakMb: number }> {
  const child = spawn('/usr/bin/time', ['-v', process.execPath, ...NODE_FLAGS, BIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LINTEL_LOG_LEVEL: 'warn', ...NODE_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('exit', (code) => {
    const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? Number.NaN);
    resolve({ code, stdout, peakMb: Math.round(kb / 1024) });
  }));
}

async function importInto(lane: string, env: Record<string, string>, from: string): Promise<Record<string, unknown>> {
  await lintel(['migrate'], env);
  const run = await lintel(['import', '--from', from, '--user', 'admin', '--app-password', 'generated', '--only', 'calendar'], env);
  const summary = /^read (\d+) records in ([\d.]+) s \((\d+) records\/s\)$/m.exec(run.stdout);
  if (run.code !== 0 || !summary) throw new Error(`${lane}: lintel import exited ${run.code}: ${run.stdout.slice(-500)}`);
  return { case: `lintel import, ${EVENTS} events, ${lane}`, records: Number(summary[1]), seconds: Number(summary[2]), recordsPerSec: Number(summary[3]), peakRssMb: run.peakMb };
}

export async function run(): Promise<Array<Record<string, unknown>>> {
  const origin = await startGeneratedOrigin(EVENTS);
  const rows: Array<Record<string, unknown>> = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'lintel-import-bench-'));
  try {
    rows.push(await importInto('PGlite', { LINTEL_DATA_DIR: dir, LINTEL_DEMO_DATA: 'false' }, origin.url));
    if (process.env.LINTEL_TEST_DATABASE_URL) {
      const db = await throwawayDatabase();
      try {
        rows.push(await importInto('PostgreSQL', { LINTEL_DATA_DIR: dir, DATABASE_URL: db.url, LINTEL_DEMO_DATA: 'false' }, origin.url));
      } finally {
        await db.drop();
      }
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await origin.close();
  }
}

// Run directly: `node bench/import.ts`.
await runIfMain(import.meta.url, run);
