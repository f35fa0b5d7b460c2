/**
 * The bench as a client sees Lintel: the server under test is `bin/lintel.js serve` as a child
 * process (as a user starts it, on a fresh PGlite folder with the demo data, or on a throwaway
 * PostgreSQL database with --postgres), the baselines are bare node:http servers in child processes
 * of their own, and the load generator is wrk (its own process; 2 threads). Every figure is printed
 * as a ratio to its baseline measured in the same run, with the server's resident memory
 * (/proc/<pid>/status VmRSS and its peak VmHWM) at the end of each case; then the command line's
 * start time (whole processes) and the embedded server's restart-to-ready time.
 * The server logs at its default level (info: a line per request) to a file, as a deployment would.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { throwawayDatabase } from '../test/support/store.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin/lintel.js');
const ARCHIVE = '/wp-json/calendar/events/v1/events';
/** The legacy site's event archive, measured with wrk (2 threads, 8 connections) on this machine (issue 20): the baseline when no live legacy site is given. */
export const LEGACY_ARCHIVE_RATE = 18;

/** What the uncached cases are compared with: the legacy archive's rate, live or recorded. */
export interface LegacyBaseline { name: string; reqPerSec: number }

export interface WrkResult { reqPerSec: number; p50: number; p99: number; bad: number; requests: number }
/**
 * `cpuMsPerReq`: the server's CPU time (user + system) over the case divided by the requests answered;
 * a loaded machine changes it far less than req/s. A row compared in rounds with a bare server of its
 * own (`rounds`) gives medians, and `cpuRatio`: the bare server's CPU time per request over the case's
 * (1 = as cheap).
 */
export interface OutsideRow { case: string; reqPerSec: number; p50: number; p99: number; baseline: string; ratio: number; bad: number; rssMB?: number; hwmMB?: number; cpuMsPerReq?: number; cpuRatio?: number; rounds?: number }

const ENV_PATH = `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`;

function ms(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!m) return Number.NaN;
  return Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as 'us' | 'ms' | 's' | 'm'];
}

/** One wrk run; `fresh` makes every request's URL new (a counter in a harmless query parameter). */
export function wrk(url: string, opts: { seconds: number; connections: number; headers?: Record<string, string>; fresh?: boolean; dir: string }): WrkResult {
  const args = ['-t2', `-c${opts.connections}`, `-d${opts.seconds}s`, '--latency'];
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}: ${v}`);
  if (opts.fresh) {
    const script = path.join(opts.dir, 'fresh.lua');
    // Each thread counts from its own random start, so the two threads never send the same URL.
    writeFileSync(script, `local n = 0
init = function(args) math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16)); n = math.random(1, 1000000000) end
request = function() n = n + 1; return wrk.format(nil, wrk.path .. (wrk.path:find("?", 1, true) and "&" or "?") .. "bench=" .. n) end
`);
    args.push('-s', script);
  }
  const out = spawnSync('wrk', [...args, url], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`wrk failed: ${out.stderr || out.error}`);
  const text = out.stdout;
  const num = (re: RegExp) => Number(re.exec(text)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  return {
    reqPerSec: num(/Requests\/sec:\s+([\d.]+)/),
    requests: num(/(\d+) requests in/),
    p50: ms(/ 50%\s+(\S+)/.exec(text)?.[1] ?? ''),
    p99: ms(/ 99%\s+(\S+)/.exec(text)?.[1] ?? ''),
    bad: num(/Non-2xx or 3xx responses: (\d+)/) + (socketErrors ? socketErrors.slice(1).reduce((a, b) => a + Number(b), 0) : 0),
  };
}

/** CPU time (ms, user + system) the process has used so far, from /proc/<pid>/stat (USER_HZ 100). */
export function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export function memoryOf(pid: number): { rssMB: number; hwmMB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rssMB: Math.round(kb('VmRSS') / 1024), hwmMB: Math.round(kb('VmHWM') / 1024) };
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, child: ChildProcess, log: () => string, timeoutMs = 300_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (child.exitCode !== null) throw new Error(`${what}: the process exited (${child.exitCode}):\n${log()}`);
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms:\n${log()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface ServerChild { url: string; pid: number; adminAuth: string | null; readyMs: number; stop(): Promise<void> }

/** `bin/lintel.js serve` on `dataDir` (PGlite) or `databaseUrl`, ready once it logged "Lintel ready" and its port. */
export async function startServer(opts: { dataDir: string; databaseUrl?: string; env?: Record<string, string> }): Promise<ServerChild> {
  const logFile = path.join(opts.dataDir, `serve-${Date.now()}.log`);
  const fd = openSync(logFile, 'w');
  const t = performance.now();
  const child = spawn(BIN, ['serve'], {
    cwd: ROOT,
    env: { PATH: ENV_PATH, HOME: process.env.HOME ?? opts.dataDir, PORT: '0', HOST: '127.0.0.1', LINTEL_DATA_DIR: opts.dataDir, LINTEL_CLOCK: '2026-11-21T12:08:00Z', ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}), ...opts.env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const log = () => readFileSync(logFile, 'utf8');
  const url = await until('lintel serve', () => {
    const text = log();
    if (!text.includes('"msg":"Lintel ready"')) return undefined;
    return /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
  }, child, log);
  const readyMs = performance.now() - t;
  // Without a terminal, the first start leaves the administrator's credentials in a 0600 file of the data folder.
  const credentials = path.join(opts.dataDir, 'first-start-credentials.txt');
  const password = existsSync(credentials) ? /application password: (.+)/.exec(readFileSync(credentials, 'utf8'))?.[1].trim() : undefined; // grouped in fours, with spaces
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    pid: child.pid!,
    readyMs,
    adminAuth: password ? `Basic ${Buffer.from(`admin:${password}`).toString('base64')}` : null,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A bare node:http child answering every request with these headers and body. */
async function bareServer(dir: string, name: string, headers: Record<string, string>, body: Buffer): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const spec = path.join(dir, `${name}.json`);
  writeFileSync(spec, JSON.stringify({ headers, body: body.toString('base64') }));
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/bare-server.ts'), spec], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const port = await until(name, () => /^(\d+)\n/.exec(out)?.[1], child, () => out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: async () => { child.kill('SIGTERM'); await exited; } };
}

/** Median wall time (ms) of running `bin/lintel.js ...args` to completion as a whole process. */
function commandMs(args: string[], runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = spawnSync(BIN, args, { cwd: ROOT, env: { PATH: ENV_PATH, HOME: process.env.HOME ?? tmpdir() }, stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`lintel ${args.join(' ')} exited ${r.status}`);
    times.push(performance.now() - t);
  }
  return Math.round(times.sort((a, b) => a - b)[Math.floor(runs / 2)]);
}

/**
 * `legacy`: measure the live legacy archive first and compare the uncached cases with its rate;
 * `legacyBaseline`: the rate another run of the same bench measured (otherwise the recorded one).
 */
export interface OutsideOptions { seconds: number; connections: number; rounds: number; postgres?: string; legacy?: string; legacyBaseline?: LegacyBaseline }

export interface OutsideReport { rows: OutsideRow[]; store: string; cliMs: Record<string, number>; restartMs?: number; firstStartMs: number; legacy: LegacyBaseline }

/** What a case sends: a path, request headers, a new URL each request. */
export interface Load { headers?: Record<string, string>; fresh?: boolean }
export interface Case extends Load { name: string; url: string }

/**
 * The cases on the store with the response cache off (the bench's and bench/cpu.ts's), given an
 * event of the demo archive and the administrator's Basic credentials (none: the redirect list is left out).
 */
export function uncachedCases(eventId: number, adminAuth: string | null): Case[] {
  return [
    { name: `GET ${ARCHIVE} (same URL, cache off)`, url: ARCHIVE },
    { name: `GET ${ARCHIVE}?bench=N (new URL each request, cache off)`, url: ARCHIVE, fresh: true },
    { name: `GET ${ARCHIVE}/${eventId} (single event, cache off)`, url: `${ARCHIVE}/${eventId}` },
    ...(adminAuth ? [{ name: 'GET /wp-json/redirection/v1/redirect (admin, response cache never used)', url: '/wp-json/redirection/v1/redirect', headers: { Authorization: adminAuth } }] : []),
  ];
}

/** The first event of the demo archive's first page (which must be full: the bench measures a page of 10). */
export async function firstEventId(serverUrl: string): Promise<number> {
  const sample = (await (await fetch(`${serverUrl}${ARCHIVE}`)).json()) as { events: Array<{ id: number }> };
  if (sample.events.length < 10) throw new Error(`the demo archive shows ${sample.events.length} events, expected a full page of 10`);
  return sample.events[0].id;
}

/**
 * The archive as the response cache answers it and its revalidation (If-None-Match with the ETag of
 * that answer), with the answer's headers (those a bare server can send as they are) and body.
 */
export async function cachedCases(serverUrl: string): Promise<{ cached: Case; revalidated: Case; headers: Record<string, string>; body: Buffer }> {
  const res = await fetch(`${serverUrl}${ARCHIVE}`);
  const body = Buffer.from(await res.arrayBuffer());
  const headers = Object.fromEntries([...res.headers].filter(([k]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(k)));
  return {
    cached: { name: `GET ${ARCHIVE} (response cache)`, url: ARCHIVE },
    revalidated: { name: `GET ${ARCHIVE} If-None-Match (304, response cache)`, url: ARCHIVE, headers: { 'If-None-Match': res.headers.get('etag') ?? '' } },
    headers,
    body,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Every outside-the-process case on one store (PGlite, or PostgreSQL with opts.postgres). */
export async function runOutside(opts: OutsideOptions): Promise<OutsideReport> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lintel-bench-'));
  const db = opts.postgres ? await throwawayDatabase(opts.postgres) : null;
  const store = db ? 'postgres' : 'pglite';
  const rows: OutsideRow[] = [];
  const load = (url: string, extra: Load = {}) => wrk(url, { seconds: opts.seconds, connections: opts.connections, dir, ...extra });
  /** One wrk run against a process, with the CPU time it took per request answered. */
  const loadOf = (pid: number, url: string, extra: Load = {}): WrkResult & { cpuMsPerReq: number } => {
    const cpu0 = cpuMsOf(pid);
    const r = load(url, extra);
    return { ...r, cpuMsPerReq: r.requests > 0 ? (cpuMsOf(pid) - cpu0) / r.requests : Number.NaN };
  };
  const row = (name: string, r: Omit<WrkResult, 'requests'> & { cpuMsPerReq?: number }, baseline: { name: string; reqPerSec: number }, pid?: number, more: Partial<OutsideRow> = {}): OutsideRow => {
    const out: OutsideRow = {
      case: `${name} [${store}]`, reqPerSec: r.reqPerSec, p50: r.p50, p99: r.p99, bad: r.bad, baseline: baseline.name, ratio: baseline.reqPerSec > 0 ? r.reqPerSec / baseline.reqPerSec : 0, ...(pid ? memoryOf(pid) : {}),
      ...(r.cpuMsPerReq !== undefined ? { cpuMsPerReq: Number(r.cpuMsPerReq.toFixed(3)) } : {}),
      ...more,
    };
    rows.push(out);
    console.error(`  ${out.case}: ${Math.round(r.reqPerSec)} req/s = ${out.ratio.toFixed(2)} x ${baseline.name}${out.cpuRatio !== undefined ? ` (CPU per request: ${out.cpuRatio.toFixed(2)} x; medians of ${out.rounds} rounds)` : ''}${out.cpuMsPerReq !== undefined ? `, ${out.cpuMsPerReq} CPU ms/req` : ''}${out.rssMB ? `, RSS ${out.rssMB} MB (peak ${out.hwmMB})` : ''}`);
    return out;
  };
  /** A case on a Lintel server: its row with the server's CPU per request and memory at the end. */
  const serverRow = (c: Case, server: ServerChild, baseline: { name: string; reqPerSec: number }): OutsideRow =>
    row(c.name, loadOf(server.pid, `${server.url}${c.url}`, c), baseline, server.pid);
  /**
   * A case against a bare server of its own, in rounds: baseline, case, baseline, case..., so that a
   * machine whose speed moves during the run moves both sides alike. The row gives the medians: req/s
   * as a ratio to the baseline's, and the baseline's CPU time per request over the case's (cpuRatio).
   */
  const comparedRow = (c: Case, server: ServerChild, bare: { name: string; url: string; pid: number }): OutsideRow => {
    const base: Array<ReturnType<typeof loadOf>> = [];
    const mine: Array<ReturnType<typeof loadOf>> = [];
    for (let i = 0; i < opts.rounds; i++) {
      base.push(loadOf(bare.pid, bare.url, c));
      mine.push(loadOf(server.pid, `${server.url}${c.url}`, c));
    }
    const m = (rs: typeof base, k: 'reqPerSec' | 'p50' | 'p99' | 'cpuMsPerReq') => median(rs.map((r) => r[k]));
    const baseline = { name: bare.name, reqPerSec: m(base, 'reqPerSec') };
    console.error(`  ${bare.name}: ${Math.round(baseline.reqPerSec)} req/s, ${m(base, 'cpuMsPerReq').toFixed(3)} CPU ms/req (medians of ${opts.rounds} rounds)`);
    const r = { reqPerSec: m(mine, 'reqPerSec'), p50: m(mine, 'p50'), p99: m(mine, 'p99'), cpuMsPerReq: m(mine, 'cpuMsPerReq'), bad: mine.reduce((a, x) => a + x.bad, 0) };
    return row(c.name, r, baseline, server.pid, { rounds: opts.rounds, cpuRatio: m(base, 'cpuMsPerReq') / r.cpuMsPerReq });
  };
  let legacy: LegacyBaseline = opts.legacyBaseline ?? { name: `legacy archive, recorded ${LEGACY_ARCHIVE_RATE} req/s`, reqPerSec: LEGACY_ARCHIVE_RATE };
  const storeEnv = { dataDir: dir, databaseUrl: db?.url };
  const helloBody = Buffer.from(JSON.stringify({ hello: 'world' }));
  const hello = await bareServer(dir, 'hello', { 'Content-Type': 'application/json; charset=UTF-8' }, helloBody);
  try {
    if (opts.legacy) {
      const helloRow = { name: 'bare node:http hello', reqPerSec: load(hello.url).reqPerSec };
      console.error(`  bare node:http hello: ${Math.round(helloRow.reqPerSec)} req/s`);
      const live = row('legacy site archive (live)', load(`${opts.legacy}/wp-json/tribe/events/v1/events`), helloRow);
      legacy = { name: `legacy archive, live ${Math.round(live.reqPerSec)} req/s`, reqPerSec: live.reqPerSec };
    }

    // The first start migrates and seeds the demo data; the uncached server is the same store restarted.
    const first = await startServer({ ...storeEnv, env: { LINTEL_CACHE_TTL_S: '0' } });
    const firstStartMs = Math.round(first.readyMs);
    try {
      for (const c of uncachedCases(await firstEventId(first.url), first.adminAuth)) serverRow(c, first, legacy);
    } finally {
      await first.stop();
    }

    const cached = await startServer(storeEnv);
    const restartMs = db ? undefined : Math.round(cached.readyMs);
    try {
      const c = await cachedCases(cached.url);
      const same = await bareServer(dir, 'same-bytes', c.headers, c.body);
      try {
        comparedRow(c.cached, cached, { name: `bare node:http sending the same ${c.body.length} bytes`, ...same });
      } finally {
        await same.stop();
      }
      comparedRow(c.revalidated, cached, { name: 'bare node:http hello', ...hello });
      serverRow({ name: `GET ${ARCHIVE}?bench=N (new URL each request, response cache on)`, url: ARCHIVE, fresh: true }, cached, legacy);
    } finally {
      await cached.stop();
    }
    const cliMs = { '--version': commandMs(['--version'], 5), '--help': commandMs(['--help'], 5) };
    return { rows, store, cliMs, restartMs, firstStartMs, legacy };
  } finally {
    await hello.stop();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}
