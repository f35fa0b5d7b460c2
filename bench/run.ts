/**
 * `npm run bench [-- --duration 5 --connections 10 --rounds 3 --postgres postgres://... --legacy http://127.0.0.1:8092 --all | --only calendar]`:
 * first the cases as a client sees them (bench/outside.ts: wrk against `bin/lintel.js serve` and
 * bare node:http servers, each a process of its own, the cached cases in rounds interleaved with
 * their bare server, medians), with the server's resident memory per case,
 * the command line's start time and the restart time), then req/s and p50/p99 latency of Lintel's
 * hot paths in process, each as a ratio to a bare node:http JSON server measured in the same run; the
 * case modules (bench/*.ts: sizes up to 1M rows, minutes each) only with --all or --only, so the default
 * run stays a few minutes.
 * Prints tables and writes bench/results.json.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { Command } from 'commander';
import { runOutside, type OutsideReport } from './outside.ts';
import { measure, ratioTo, startLintel, type BenchContext, type Row } from './lib.ts';

const cli = new Command('bench')
  .option('--duration <s>', 'seconds per case', '5')
  .option('--connections <n>', 'concurrent connections', '10')
  .option('--rounds <n>', 'rounds of a case compared with a bare server of its own (baseline, case, baseline, case...; medians)', '3')
  .option('--only <text>', 'also run the case modules whose file name contains this (the built-in cases always run)')
  .option('--all', 'also run every case module')
  .option('--postgres <url>', 'also run the outside-the-process cases on a throwaway database of this PostgreSQL server')
  .option('--legacy <origin>', 'also measure the live legacy site\'s archive (e.g. http://127.0.0.1:8092)')
  .parse()
  .opts<{ duration: string; connections: string; rounds: string; only?: string; all?: boolean; postgres?: string; legacy?: string }>();
const duration = Number(cli.duration);
const connections = Number(cli.connections);
const rounds = Number(cli.rounds);

/** A bare node:http server that answers every request with these headers and body. */
async function bareServer(
  headers: Record<string, string> = { 'Content-Type': 'application/json; charset=UTF-8' },
  body: Buffer = Buffer.from(JSON.stringify({ hello: 'world' })),
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { ...headers, 'Content-Length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

// First, as a client sees it: the server and the baselines in processes of their own, loaded by wrk.
console.error('outside the process (wrk, bin/lintel.js serve as a child)');
const outside: OutsideReport[] = [await runOutside({ seconds: duration, connections, rounds, legacy: cli.legacy })];
// The PostgreSQL cases compare with the legacy rate the embedded run measured.
if (cli.postgres) outside.push(await runOutside({ seconds: duration, connections, rounds, postgres: cli.postgres, legacyBaseline: outside[0].legacy }));

const rows: Row[] = [];
const report = (row: Row) => {
  rows.push(row);
  console.error(`  ${row.case}: ${Math.round(row.reqPerSec)} req/s`);
};

const bare = await bareServer();
const baseline = await measure('node:http JSON hello (baseline)', bare.url, { duration, connections });
await bare.close();
report(baseline);

const ctx: BenchContext = {
  duration,
  connections,
  baseline,
  startLintel,
  measure: (name, url, opts) => measure(name, url, { ...opts, duration, connections, baseline }),
};

const summary: string[] = [];
const ratioLine = (what: string, row: Row, base: Row) => summary.push(`${what}: ${Math.round(row.reqPerSec)} / ${Math.round(base.reqPerSec)} req/s = ${ratioTo(row.reqPerSec, base).toFixed(2)}`);

const lintel = await startLintel();
try {
  report(await ctx.measure('GET /wp-json/ (site index, response cache)', `${lintel.url}/wp-json/`));
  // A trivial route: the oEmbed namespace index once oEmbed is registered, rest_no_route before.
  const trivial = (await fetch(`${lintel.url}/wp-json/oembed/1.0`)).ok ? '/wp-json/oembed/1.0 (namespace index)' : '/wp-json/nothing (rest_no_route)';
  report(await ctx.measure(`GET ${trivial}`, `${lintel.url}${trivial.split(' ')[0]}`));
} finally {
  await lintel.close();
}

// Basic auth against the same request made anonymously, both without the response cache (an
// authenticated read is never cached): the difference is what checking the credentials costs.
const uncached = await startLintel({ LINTEL_CACHE_TTL_S: '0' });
try {
  const anonymous = await ctx.measure('GET /wp-json/oembed/1.0 anonymous (no cache)', `${uncached.url}/wp-json/oembed/1.0`);
  report(anonymous);
  const admin = await uncached.app.auth('administrator');
  const authed = await ctx.measure('GET /wp-json/oembed/1.0 with Basic auth (no cache)', `${uncached.url}/wp-json/oembed/1.0`, { headers: { Authorization: admin } });
  report(authed);
  ratioLine('Basic auth vs anonymous, same route', authed, anonymous);
} finally {
  await uncached.close();
}

const here = new URL('./', import.meta.url);
/** The harness's own files and tools run on their own (cpu.ts); every other bench/*.ts is a case module. */
const HARNESS = ['run.ts', 'lib.ts', 'outside.ts', 'bare-server.ts', 'cpu.ts'];
const modules = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !HARNESS.includes(f))
  .filter((f) => cli.all || (cli.only !== undefined && f.includes(cli.only)))
  .sort();
// Case modules measure in their own way (in-process loops against their own baseline, or
// autocannon through ctx); rows without the load-test columns are printed as their module gave them.
const moduleRows: Record<string, unknown>[] = [];
for (const file of modules) {
  const mod = (await import(new URL(file, here).href)) as { run?: (ctx: BenchContext) => Promise<Array<Row | Record<string, unknown>>> };
  if (typeof mod.run !== 'function') continue;
  console.error(`bench/${file}`);
  for (const row of await mod.run(ctx)) {
    if (typeof (row as Row).ratio === 'number' && typeof (row as Row).reqPerSec === 'number' && 'case' in row) report(row as Row);
    else moduleRows.push({ module: file, ...row });
  }
}

/** A table of text cells: the first column to the left, the figures to the right; an empty cell is blank. */
function table(header: string[], cells: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((s, i) => (i === 0 ? s.padEnd(widths[i]) : s.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}
const load = os.loadavg().map((n) => n.toFixed(1)).join(' ');
console.log(`\n${duration} s per case, ${connections} connections, Node ${process.version}, ${os.cpus().length} CPUs, load average now ${load}\n`);
console.log(`As a client sees it (wrk in its own process, 2 threads; server and baselines are child processes; ratio against the baseline named, same run; a case with a bare server of its own ran ${rounds} rounds interleaved with it, its figures are medians and CPU ratio is the bare server's CPU per request over the case's):`);
// A figure a row does not have (the live legacy site's memory and CPU, a CPU ratio without a bare server of its own) is a blank cell.
const fixed = (n: number | undefined, digits: number) => (n === undefined ? '' : n.toFixed(digits));
console.log(table(
  ['case', 'req/s', 'p50 ms', 'p99 ms', 'ratio', 'CPU ratio', 'baseline', 'CPU ms/req', 'RSS MB', 'peak MB', 'bad'],
  outside.flatMap((o) => o.rows.map((r) => [r.case, Math.round(r.reqPerSec), r.p50, r.p99, fixed(r.ratio, 2), fixed(r.cpuRatio, 2), r.baseline, r.cpuMsPerReq ?? '', r.rssMB ?? '', r.hwmMB ?? '', r.bad].map(String))),
));
for (const o of outside) console.log(`[${o.store}] first start to ready ${o.firstStartMs} ms${o.restartMs === undefined ? '' : `, restart to ready ${o.restartMs} ms`}; lintel --version ${o.cliMs['--version']} ms, lintel --help ${o.cliMs['--help']} ms (whole processes, median of 5)`);
console.log('\nIn process (autocannon in a worker thread of this process, the app on this thread):');
console.log(table(['case', 'req/s', 'p50 ms', 'p99 ms', 'ratio', 'non-2xx', 'errors'], rows.map((r) => [r.case, Math.round(r.reqPerSec), r.p50, r.p99, r.ratio.toFixed(2), r.non2xx, r.errors].map(String))));

console.log(`\nRatios (same run):\n${summary.map((l) => `  ${l}`).join('\n')}`);

if (moduleRows.length) {
  console.log('\nCase modules (each ratio against the baseline its module measured in the same run):');
  console.table(moduleRows);
}

const results = { date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, loadAverage: os.loadavg(), duration, connections, rounds, outside, rows, ratios: summary, moduleRows };
writeFileSync(new URL('results.json', here), `${JSON.stringify(results, null, 2)}\n`);
