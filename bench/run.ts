/**
 * `npm run bench [-- --duration 5 --connections 10]`: req/s and p50/p99 latency of Lintel's hot
 * paths, each as a ratio to a bare node:http JSON server measured in the same run, on the same
 * machine. Prints a table and writes bench/results.json.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { Command } from 'commander';
import { measure, ratioTo, startLintel, type BenchContext, type Row } from './lib.ts';

const cli = new Command('bench')
  .option('--duration <s>', 'seconds per case', '5')
  .option('--connections <n>', 'concurrent connections', '10')
  .option('--only <text>', 'run only the case modules whose file name contains this (the built-in cases always run)')
  .parse()
  .opts<{ duration: string; connections: string; only?: string }>();
const duration = Number(cli.duration);
const connections = Number(cli.connections);

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

// The event archive of the demo data (10 events on its first page) through the whole stack,
// answered from the response cache (anonymous, the default) and with the cache off. The cached row
// is held against two bare servers: the hello one, and one sending the very answer Lintel sends
// (same headers, same 34 kB body), so that what is left is Lintel's own cost, not the bytes'.
const ARCHIVE = '/wp-json/calendar/events/v1/events';
const summary: string[] = [];
const ratioLine = (what: string, row: Row, base: Row) => summary.push(`${what}: ${Math.round(row.reqPerSec)} / ${Math.round(base.reqPerSec)} req/s = ${ratioTo(row.reqPerSec, base).toFixed(2)}`);
for (const [label, env] of [['response cache', {}], ['no cache', { LINTEL_CACHE_TTL_S: '0' }]] as const) {
  const server = await startLintel({ LINTEL_DEMO_DATA: 'true', ...env });
  try {
    const sample = await fetch(`${server.url}${ARCHIVE}`);
    const body = Buffer.from(await sample.arrayBuffer());
    const shown = (JSON.parse(body.toString()) as { events: unknown[] }).events.length;
    if (shown < 10) throw new Error(`the demo archive shows ${shown} events, expected a full page of 10: the case would measure the wrong thing`);
    const row = await ctx.measure(`GET ${ARCHIVE} (demo data, ${label})`, `${server.url}${ARCHIVE}`);
    report(row);
    if (label === 'no cache') {
      ratioLine('uncached demo archive vs bare node:http hello', row, baseline);
      continue;
    }
    const sameHeaders = Object.fromEntries([...sample.headers].filter(([k]) => !['date', 'connection', 'keep-alive', 'content-length'].includes(k)));
    const replay = await bareServer(sameHeaders, body);
    const sameBytes = await measure(`node:http sending the archive's answer (${body.length} bytes, baseline)`, replay.url, { duration, connections, baseline });
    await replay.close();
    report(sameBytes);
    ratioLine('cached demo archive vs bare node:http hello', row, baseline);
    ratioLine('cached demo archive vs bare node:http sending the same answer', row, sameBytes);
    // Cached reads whose answers are about the hello's size: a short list, and the archive
    // revalidated by a client that kept its ETag (304, no body).
    const SMALL = '/wp-json/calendar/events/v1/categories?per_page=1';
    const small = await ctx.measure(`GET ${SMALL} (response cache)`, `${server.url}${SMALL}`);
    report(small);
    ratioLine('cached short list vs bare node:http hello', small, baseline);
    const etag = sample.headers.get('etag') ?? '';
    const revalidated = await measure(`GET ${ARCHIVE} with If-None-Match (304, response cache)`, `${server.url}${ARCHIVE}`, { duration, connections, baseline, headers: { 'If-None-Match': etag } });
    report(revalidated);
    ratioLine('cached archive revalidation (304) vs bare node:http hello', revalidated, baseline);
  } finally {
    await server.close();
  }
}

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
const modules = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && f !== 'run.ts' && f !== 'lib.ts')
  .filter((f) => !cli.only || f.includes(cli.only))
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

const header = ['case', 'req/s', 'p50 ms', 'p99 ms', 'ratio', 'non-2xx', 'errors'];
const cells = rows.map((r) => [r.case, Math.round(r.reqPerSec), r.p50, r.p99, r.ratio.toFixed(2), r.non2xx, r.errors].map(String));
const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
const line = (c: string[]) => c.map((s, i) => (i === 0 ? s.padEnd(widths[i]) : s.padStart(widths[i]))).join('  ');
console.log(`\n${duration} s per case, ${connections} connections, Node ${process.version}, ${os.cpus().length} CPUs\n`);
console.log([line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n'));

console.log(`\nRatios (same run):\n${summary.map((l) => `  ${l}`).join('\n')}`);

if (moduleRows.length) {
  console.log('\nCase modules (each ratio against the baseline its module measured in the same run):');
  console.table(moduleRows);
}

const results = { date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, duration, connections, rows, ratios: summary, moduleRows };
writeFileSync(new URL('results.json', here), `${JSON.stringify(results, null, 2)}\n`);
