/**
 * Forwarding overhead: the same request sent straight to the recorded legacy origin (a process of
 * its own) and through Lintel (history/v1 forwarded as simple-history/v1), as req/s and latency, and their ratio
 * (direct req/s ÷ forwarded req/s; the goal is at most 1.3). A small answer that needs no
 * rewriting, and a list whose body names the origin (read whole, rewritten, re-encoded); each
 * with the origin answering at once and at the speed the legacy site answered when recorded.
 */
import type { Row } from './lib.ts';
import { measure, runIfMain, startLintel, type BenchContext } from './lib.ts';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { FORWARD_HISTORY, mappingsDir } from '../test/support/mappings.ts';

const CASES = [
  ['stats summary (passed as is)', '/stats/summary'],
  ['event list, 5 events (rewritten)', '/events?per_page=5&page=2'],
] as const;

/** The recorded legacy origin in a process of its own, as a real origin does not share Lintel's event loop. */
async function originProcess(recordedTiming: boolean): Promise<{ url: string; close(): Promise<void> }> {
  const script = fileURLToPath(new URL('../test/support/legacy-origin.ts', import.meta.url));
  const child = spawn(process.execPath, [script, ...(recordedTiming ? ['--recorded-timing'] : [])], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [first] = (await once(child.stdout!, 'data')) as [Buffer];
  return {
    url: first.toString().trim(),
    close: async () => {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

export async function run(ctx: BenchContext): Promise<Array<Row | Record<string, unknown>>> {
  const rows: Array<Row | Record<string, unknown>> = [];
  // At once: the origin costs next to nothing, so Lintel's own cost shows whole. At the recorded
  // speed (each capture's elapsed_s, 50-100 ms, as the legacy site answered): what a client sees.
  for (const [speed, recordedTiming] of [['instant origin', false], ['origin at recorded speed', true]] as const) {
    const origin = await originProcess(recordedTiming);
    const mappings = mappingsDir(FORWARD_HISTORY);
    const lintel = await startLintel({ LINTEL_LEGACY_ORIGIN: origin.url, LINTEL_MAPPINGS_DIR: mappings.dir });
    // The origin checks that credentials are present, and Lintel passes them on without checking them.
    const headers = { Authorization: `Basic ${Buffer.from('admin:origin password').toString('base64')}` };
    try {
      for (const [name, route] of CASES) {
        const direct = await ctx.measure(`forward (${speed}): ${name}, direct`, `${origin.url}/wp-json/simple-history/v1${route}`, { headers });
        const forwarded = await ctx.measure(`forward (${speed}): ${name}, through Lintel`, `${lintel.url}/wp-json/history/v1${route}`, { headers });
        rows.push(direct, forwarded, {
          name: `forwarding overhead (${speed}), ${name}`,
          'direct req/s': Math.round(direct.reqPerSec),
          'forwarded req/s': Math.round(forwarded.reqPerSec),
          overhead: Math.round((direct.reqPerSec / forwarded.reqPerSec) * 100) / 100,
          goal: 1.3,
        });
      }
    } finally {
      await lintel.close();
      await origin.close();
      mappings.remove();
    }
  }
  return rows;
}

// Run directly: `node bench/forward.ts` (3 s per case, 10 connections, no node:http baseline).
await runIfMain(import.meta.url, () => {
  const none: Row = { case: 'none', reqPerSec: 0, p50: 0, p99: 0, ratio: 1, non2xx: 0, errors: 0 };
  return run({ duration: 3, connections: 10, baseline: none, startLintel, measure: (n, url, o) => measure(n, url, { ...o, duration: 3, connections: 10 }) });
});
