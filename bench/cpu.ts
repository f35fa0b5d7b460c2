/**
 * `node bench/cpu.ts [--seconds 5] [--connections 8] [--postgres postgres://...] [--cached] [--profile dir]`:
 * what one request costs the server, as a figure a busy machine does not change much. `bin/lintel.js
 * serve` runs as a child (response cache off; with --cached on, for the cached archive and its 304),
 * wrk loads it from its own process, and for each case the server's CPU time (/proc/<pid>/stat, user
 * + system) and the statements it ran (`lintel_store_queries_total` from /metrics) are divided by the
 * requests answered. req/s is printed too, but on a shared machine
 * only CPU ms per request and queries per request compare between runs. With --profile, the server
 * writes a V8 CPU profile (node --cpu-prof) into that folder when it stops.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { throwawayDatabase } from '../test/support/store.ts';
import { type Case, cachedCases, cpuMsOf, firstEventId, memoryOf, startServer, uncachedCases, wrk } from './outside.ts';

const cli = new Command('cpu')
  .option('--seconds <s>', 'seconds per case', '5')
  .option('--connections <n>', 'concurrent connections', '8')
  .option('--postgres <url>', 'run on a throwaway database of this PostgreSQL server instead of PGlite')
  .option('--only <text>', 'only the cases whose name contains this')
  .option('--cached', 'the response cache on, and the cases it answers (the archive and its 304 revalidation) instead')
  .option('--profile <dir>', 'write the server\'s CPU profile (node --cpu-prof) into this folder')
  .parse()
  .opts<{ seconds: string; connections: string; postgres?: string; only?: string; cached?: boolean; profile?: string }>();

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
    env: { ...(cli.cached ? {} : { LINTEL_CACHE_TTL_S: '0' }), LINTEL_METRICS_TOKEN: TOKEN, ...(cli.profile ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${path.resolve(cli.profile)}` } : {}) },
  });
  const rows: Record<string, unknown>[] = [];
  try {
    // The bench's cases on that server, and a trivial route through the whole Fastify stack.
    const served = cli.cached ? await cachedCases(server.url).then((c) => [c.cached, c.revalidated]) : uncachedCases(await firstEventId(server.url), seed.adminAuth);
    const cases: Case[] = [...served, { name: 'GET /healthz', url: '/healthz' }];
    for (const { name, url, ...extra } of cases) {
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

