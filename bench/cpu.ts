/**
 * `node bench/cpu.ts [--seconds 5] [--connections 8] [--postgres postgres://...] [--profile dir]`: what
 * one request costs the server, as a figure a busy machine does not change much. `bin/lintel.js serve`
 * runs as a child (response cache off), wrk loads it from its own process, and for each case the
 * server's CPU time (/proc/<pid>/stat, user + system) and the statements it ran (`lintel_store_queries_total`
 * from /metrics) are divided by the requests answered. req/s is printed too, but on a shared machine
 * only CPU ms per request and queries per request compare between runs. With --profile, the server
 * writes a V8 CPU profile (node --cpu-prof) into that folder when it stops.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { throwawayDatabase } from '../test/support/store.ts';
import { cpuMsOf, memoryOf, startServer, wrk } from './outside.ts';

const cli = new Command('cpu')
  .option('--seconds <s>', 'seconds per case', '5')
  .option('--connections <n>', 'concurrent connections', '8')
  .option('--postgres <url>', 'run on a throwaway database of this PostgreSQL server instead of PGlite')
  .option('--only <text>', 'only the cases whose name contains this')
  .option('--profile <dir>', 'write the server\'s CPU profile (node --cpu-prof) into this folder')
  .parse()
  .opts<{ seconds: string; connections: string; postgres?: string; only?: string; profile?: string }>();

const ARCHIVE = '/wp-json/calendar/events/v1/events';
const TOKEN = 'bench-cpu-metrics-token';

/** The statements the server ran and the requests it answered (every route) so far, from one read of /metrics. */
async function counts(url: string): Promise<{ queries: number; requests: number }> {
  const text = await (await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
  let requests = 0;
  for (const m of text.matchAll(/^lintel_http_requests_total\{.*\} (\d+)$/gm)) requests += Number(m[1]);
  return { queries: Number(/^lintel_store_queries_total (\d+)/m.exec(text)?.[1] ?? Number.NaN), requests };
}

const dir = mkdtempSync(path.join(tmpdir(), 'lintel-cpu-'));
const db = cli.postgres ? await throwawayDatabase(cli.postgres) : null;
try {
  const seed = await startServer({ dataDir: dir, databaseUrl: db?.url });
  await seed.stop();
  const server = await startServer({
    dataDir: dir,
    databaseUrl: db?.url,
    env: { LINTEL_CACHE_TTL_S: '0', LINTEL_METRICS_TOKEN: TOKEN, ...(cli.profile ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(cli.profile)}` } : {}) },
  });
  const rows: Record<string, unknown>[] = [];
  try {
    const sample = (await (await fetch(`${server.url}${ARCHIVE}`)).json()) as { events: Array<{ id: number }> };
    const auth = seed.adminAuth;
    const cases: Array<[string, string, { headers?: Record<string, string>; fresh?: boolean }]> = [
      ['archive, same URL', ARCHIVE, {}],
      ['archive, new URL each request', ARCHIVE, { fresh: true }],
      ['single event', `${ARCHIVE}/${sample.events[0].id}`, {}],
      ...(auth ? [['redirect list (admin)', '/wp-json/redirection/v1/redirect', { headers: { Authorization: auth } }] as [string, string, { headers: Record<string, string> }]] : []),
      ['healthz', '/healthz', {}],
    ];
    for (const [name, url, extra] of cases) {
      if (cli.only && !name.includes(cli.only)) continue;
      wrk(`${server.url}${url}`, { seconds: 2, connections: Number(cli.connections), dir, ...extra }); // warm-up
      const [cpu0, before] = [cpuMsOf(server.pid), await counts(server.url)];
      const r = wrk(`${server.url}${url}`, { seconds: Number(cli.seconds), connections: Number(cli.connections), dir, ...extra });
      const [cpu1, after] = [cpuMsOf(server.pid), await counts(server.url)];
      const n = after.requests - before.requests - 1; // less the /metrics read counted in between
      const row = { case: name, 'req/s': Math.round(r.reqPerSec), 'CPU ms/req': Number(((cpu1 - cpu0) / n).toFixed(3)), 'queries/req': Number(((after.queries - before.queries) / n).toFixed(2)), requests: n, bad: r.bad, 'RSS MB': memoryOf(server.pid).rssMB };
      rows.push(row);
      console.error(JSON.stringify(row));
    }
  } finally {
    await server.stop();
  }
  console.table(rows);
} finally {
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
}

