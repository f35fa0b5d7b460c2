/**
 * The cut-over against a running legacy site, as an operations team does it (docs/migration.md),
 * with Lintel started as users start it (`bin/lintel.js`, a child process) on a fresh store: embedded
 * PGlite, and with `--postgres` a throwaway database on that server too. Not part of CI (it needs the
 * legacy site: `../shared/oracle/`, or a clone of it); it leaves the legacy site as it found it but for
 * one event it creates and then trashes. Run:
 *
 *   node test/cutover/against-legacy.ts --origin http://127.0.0.1:8092 --user admin --app-password '...' \
 *     [--postgres postgres://postgres@127.0.0.1:5432/postgres] [--lanes pglite,postgres]
 *
 * Steps, per store: forward everything (`lintel mode ... forward`, then `lintel serve`) and compare the
 * forwarded reads with the origin's; `lintel import` (records/s, peak resident memory) then
 * `lintel import --verify`; shadow calendar and redirection and read the match rate per namespace
 * (`GET /wp-json/lintel/v1/shadow`, as the legacy administrator); switch the calendar to translate and
 * serve a legacy client with its legacy application password on the calendar and on the index; trash an
 * event on the legacy site and see it disappear after the next sync. The reads are the recorded GET
 * requests of the three namespaces (`fixtures/captures/`), under their legacy names, with the
 * administrator's credentials where the recording had credentials. A table of the figures ends the run.
 */
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { Command } from 'commander';
import { differences } from '../../src/backends/shadow.ts';
import { locateRest } from '../../src/http/rest-request.ts';
import { parseQueryString } from '../../src/lib/php-params.ts';
import type { ShadowAnswer } from '../../src/store/shadow.ts';
import { loadCaptures } from '../support/captures.ts';
import { listening, sandbox, type Sandbox } from '../support/process.ts';
import { throwawayDatabase } from '../support/store.ts';

const opts = new Command()
  .name('node test/cutover/against-legacy.ts')
  .requiredOption('--origin <url>', 'the legacy site, e.g. http://127.0.0.1:8092')
  .requiredOption('--user <login>', 'its administrator')
  .requiredOption('--app-password <password>', "the administrator's application password on the legacy site")
  .option('--postgres <url>', 'a PostgreSQL server: also run the cut-over on a throwaway database there')
  .option('--lanes <lanes>', 'which stores: pglite, postgres (default: pglite, and postgres with --postgres)')
  .option('--shadow-reads <n>', 'times each calendar and redirection read is sent while shadowed', (v) => Number.parseInt(v, 10), 1)
  .parse()
  .opts<{ origin: string; user: string; appPassword: string; postgres?: string; lanes?: string; shadowReads: number }>();

const ORIGIN = opts.origin.replace(/\/+$/, '');

function namesNoRoute(url: string): boolean {
  const q = url.indexOf('?');
  return Boolean(locateRest(q < 0 ? url : url.slice(0, q), parseQueryString(q < 0 ? '' : url.slice(q + 1)), { restPrefix: 'wp-json', locales: [] })?.routeNotString);
}
const LEGACY_AUTH = `Basic ${Buffer.from(`${opts.user}:${opts.appPassword}`).toString('base64')}`;
const METRICS_TOKEN = 'against-legacy-metrics';
/** The contract's names and the legacy site's (mappings/namespaces.json `upstream`). */
const LEGACY_NAME: Record<string, string> = { 'calendar/events/v1': 'tribe/events/v1', 'redirection/v1': 'redirection/v1', 'history/v1': 'simple-history/v1' };
const NAMESPACES = Object.keys(LEGACY_NAME);
const SHADOWED = ['calendar/events/v1', 'redirection/v1'];

interface Read {
  namespace: string;
  /** Path and query under the legacy name, as a legacy client sends it. */
  url: string;
  auth: boolean;
}

/** The recorded GETs of the three namespaces, once each. */
function recordedReads(): Read[] {
  const seen = new Set<string>();
  const reads: Read[] = [];
  for (const c of loadCaptures()) {
    if (c.request.method !== 'GET') continue;
    const namespace = NAMESPACES.find((ns) => c.request.path.startsWith(`/wp-json/${ns}/`) || c.request.path === `/wp-json/${ns}`);
    if (!namespace) continue;
    const url = c.request.path.replace(`/wp-json/${namespace}`, `/wp-json/${LEGACY_NAME[namespace]}`) + (c.request.query_string ? `?${c.request.query_string}` : '');
    const key = `${c.request.auth} ${url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    reads.push({ namespace, url, auth: c.request.auth });
  }
  return reads;
}

async function get(base: string, url: string, authorization?: string, method = 'GET'): Promise<ShadowAnswer> {
  const res = await fetch(base + url, { method, redirect: 'manual', headers: { accept: 'application/json, */*;q=0.1', ...(authorization ? { authorization } : {}) } });
  const headers: Record<string, string> = {};
  for (const [k, v] of res.headers) headers[k] = v;
  return { status: res.status, headers, body: await res.text() };
}

async function send(base: string, method: string, url: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(base + url, { method, headers: { authorization: LEGACY_AUTH, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: await res.json().catch(() => null) };
}

const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

/** A port nothing listens on now (the server keeps it across its restarts, so its links stay the same). */
function freePort(): Promise<number> {
  const server = createServer();
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    server.close(() => resolve(port));
  }));
}

const percent = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)}%` : 'n/a');

/** One lane's run: a fresh store, a Lintel child, the steps of the guide. */
class Lane {
  readonly figures: Record<string, string> = {};
  private server: ReturnType<Sandbox['start']> | null = null;
  base = '';
  readonly name: string;
  private readonly box: Sandbox;
  /** Embedded PGlite belongs to one process: `lintel serve` stops while the import runs. */
  private readonly embedded: boolean;
  constructor(name: string, box: Sandbox, embedded: boolean) {
    this.name = name;
    this.box = box;
    this.embedded = embedded;
  }

  log(line: string) {
    console.log(`[${this.name}] ${line}`);
  }

  async lintel(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const r = await this.box.run(args);
    if (r.code !== 0 && r.code !== 1) throw new Error(`lintel ${args.join(' ')} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
    return r;
  }

  async start() {
    this.server = this.box.start(['serve']);
    this.base = await listening(this.server);
  }

  async stop() {
    if (!this.server) return;
    this.server.child.kill('SIGTERM');
    await this.server.exited;
    this.server = null;
  }

  async mode(namespace: string, mode: string, ...extra: string[]) {
    const r = await this.lintel(['mode', namespace, mode, ...extra]);
    if (r.code !== 0) throw new Error(`lintel mode ${namespace} ${mode}: ${r.stderr}`);
    if (this.server) await until(`${namespace} in ${mode}`, async () => (JSON.parse((await get(this.base, '/readyz')).body) as { modes: Record<string, string> }).modes[namespace] === mode);
  }

  /** The store is free for the import: PGlite's server stops, PostgreSQL's keeps serving. */
  async whileStoreFree<T>(fn: () => Promise<T>): Promise<T> {
    const wasServing = this.server !== null;
    if (this.embedded) await this.stop();
    try {
      return await fn();
    } finally {
      if (this.embedded && wasServing) await this.start();
    }
  }

  sync(args: string[]): Promise<{ code: number | null; stdout: string; peakMb: number }> {
    return this.whileStoreFree(() => this.importing(args));
  }

  /** `lintel import` with these options: its output and its peak resident memory. */
  private async importing(args: string[]): Promise<{ code: number | null; stdout: string; peakMb: number }> {
    const run = this.box.start(['import', '--from', ORIGIN, '--user', opts.user, '--app-password', opts.appPassword, ...args]);
    // VmHWM is the process's peak resident set so far; the last reading before exit is the peak.
    let peakKb = 0;
    const poll = setInterval(() => {
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${run.child.pid}/status`, 'utf8'))?.[1] ?? 0);
        peakKb = Math.max(peakKb, kb);
      } catch {
        // Exited between two readings.
      }
    }, 50);
    const code = await run.exited;
    clearInterval(poll);
    return { code, stdout: run.stdout() + run.stderr(), peakMb: Math.round(peakKb / 1024) };
  }

  async run(reads: Read[]) {
    // 1. Forward everything.
    for (const ns of NAMESPACES) await this.mode(ns, 'forward');
    await this.start();
    this.log(`serving at ${this.base}, every namespace forwarded to ${ORIGIN}`);
    // Lintel writes its own address where the origin wrote its.
    const norm = { aliases: { [ORIGIN]: this.base } };
    for (const ns of NAMESPACES) {
      const mine = reads.filter((r) => r.namespace === ns);
      let same = 0;
      for (const r of mine) {
        const auth = r.auth ? LEGACY_AUTH : undefined;
        const [legacy, lintel] = [await get(ORIGIN, r.url, auth), await get(this.base, r.url, auth)];
        let found = differences(legacy, lintel, norm);
        // What differs between two answers of the origin itself (a `rest_url` naming the current second) is its noise.
        if (found.length) {
          const noise = new Set(differences(legacy, await get(ORIGIN, r.url, auth), norm).map((d) => d.path));
          found = found.filter((d) => !noise.has(d.path));
        }
        if (found.length === 0) same++;
        else this.log(`forwarded ${r.url} differs: ${found.slice(0, 3).map((d) => `${d.path} ${JSON.stringify(d.expected)} → ${JSON.stringify(d.actual)}`).join(', ')}`);
      }
      this.figures[`forwarded ${ns} identical`] = `${same}/${mine.length}`;
    }

    // An event the legacy site will trash at the end: imported now, gone after the last sync.
    const created = await send(ORIGIN, 'POST', '/wp-json/tribe/events/v1/events', { title: `Cut-over check ${new Date().toISOString()}`, start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 12:00:00', status: 'publish' });
    if (created.status !== 201 && created.status !== 200) throw new Error(`creating an event on the legacy site: ${created.status} ${JSON.stringify(created.json)}`);
    const eventId = created.json.id as number;

    // 2. Import, then verify.
    const imported = await this.sync([]);
    const rate = /^read (\d+) records in ([\d.]+) s \((\d+) records\/s\)$/m.exec(imported.stdout);
    this.figures['import exit code'] = String(imported.code);
    this.figures['import records, seconds'] = rate ? `${rate[1]} in ${rate[2]} s` : '?';
    this.figures['import records/s'] = rate?.[3] ?? '?';
    this.figures['import peak RSS (VmHWM)'] = `${imported.peakMb} MB`;
    if (imported.code !== 0) this.log(`import failed:\n${imported.stdout.slice(-2000)}`);
    const verified = await this.sync(['--verify']);
    this.figures['import --verify exit code'] = String(verified.code);
    if (verified.code !== 0) this.log(`verify:\n${verified.stdout.split('\n').slice(0, 30).join('\n')}`);

    // 3. Shadow calendar and redirection (the legacy site answers), 4. read the rates.
    for (const ns of SHADOWED) await this.mode(ns, 'shadow');
    // A read whose rest_route is no string names no route: Lintel refuses it before any namespace, so it is not shadowed.
    const shadowed = reads.filter((x) => SHADOWED.includes(x.namespace) && !namesNoRoute(x.url));
    for (let round = 0; round < opts.shadowReads; round++) {
      for (const r of shadowed) await get(this.base, r.url, r.auth ? LEGACY_AUTH : undefined);
    }
    const sent = shadowed.length * opts.shadowReads;
    const counted = async () => {
      const text = (await get(this.base, '/metrics', `Bearer ${METRICS_TOKEN}`)).body;
      const byResult: Record<string, number> = {};
      for (const m of text.matchAll(/^lintel_shadow_comparisons_total\{namespace="([^"]+)",result="([^"]+)"\} (\d+)/gm)) byResult[`${m[1]} ${m[2]}`] = Number(m[3]);
      return byResult;
    };
    await until('the shadow comparisons', async () => Object.values(await counted()).reduce((a, b) => a + b, 0) >= sent, 120_000);
    const results = await counted();
    for (const ns of SHADOWED) {
      const matched = results[`${ns} match`] ?? 0;
      const compared = matched + (results[`${ns} mismatch`] ?? 0);
      this.figures[`shadow ${ns} match`] = `${percent(matched, compared)} (${matched}/${compared}; skipped ${results[`${ns} skipped`] ?? 0}, failed ${results[`${ns} failed`] ?? 0})`;
    }
    const report = await this.whileStoreFree(() => this.lintel(['shadow', 'report', '--limit', '30']));
    this.log(`lintel shadow report:\n${report.stdout}`);

    // 5. Switch the calendar; a legacy client with its legacy application password.
    await this.mode('calendar/events/v1', 'translate');
    const drafts = await get(this.base, '/wp-json/tribe/events/v1/events?status=draft', LEGACY_AUTH);
    const index = await get(this.base, '/wp-json/', LEGACY_AUTH);
    const wrong = await get(this.base, '/wp-json/tribe/events/v1/events?status=draft', `Basic ${Buffer.from(`${opts.user}:not the password`).toString('base64')}`);
    this.figures['legacy password, switched calendar (drafts)'] = `${drafts.status} (${(JSON.parse(drafts.body) as { events?: unknown[] }).events?.length ?? 0} drafts; a wrong password: ${wrong.status})`;
    this.figures['legacy password, index'] = String(index.status);

    // 6. Keep syncing: the event trashed on the legacy site disappears.
    const before = await get(this.base, `/wp-json/tribe/events/v1/events/${eventId}`, LEGACY_AUTH);
    const trashed = await send(ORIGIN, 'DELETE', `/wp-json/tribe/events/v1/events/${eventId}`);
    const synced = await this.sync(['--only', 'calendar']);
    const removed = synced.stdout.split('\n').some((l) => l.startsWith('{"type":"removed","resource":"calendar.events"') && (JSON.parse(l) as { ids: number[] }).ids.includes(eventId));
    const after = await get(this.base, `/wp-json/tribe/events/v1/events/${eventId}`, LEGACY_AUTH);
    const legacyAfter = await get(ORIGIN, `/wp-json/tribe/events/v1/events/${eventId}`, LEGACY_AUTH);
    const listed = (JSON.parse((await get(this.base, '/wp-json/tribe/events/v1/events?per_page=50&start_date=2031-04-30', LEGACY_AUTH)).body) as { events?: { id: number }[] }).events?.some((e) => e.id === eventId);
    this.figures['deletion carried by the next sync'] =
      `event ${eventId}: ${before.status} before; legacy DELETE ${trashed.status}; sync exit ${synced.code}, removed ${removed ? 'reported' : 'not reported'}; after: ${after.status} (legacy ${legacyAfter.status}), ${listed ? 'still listed' : 'not listed'}`;
    await this.stop();
  }
}

const lanes = (opts.lanes ?? (opts.postgres ? 'pglite,postgres' : 'pglite')).split(',');
const reads = recordedReads();
console.log(`${reads.length} recorded reads: ${NAMESPACES.map((ns) => `${ns} ${reads.filter((r) => r.namespace === ns).length}`).join(', ')}`);
const done: Lane[] = [];
for (const lane of lanes) {
  const db = lane === 'postgres' ? await throwawayDatabase(opts.postgres) : null;
  const port = await freePort();
  const box = await sandbox({
    LINTEL_LEGACY_ORIGIN: ORIGIN,
    LINTEL_DEMO_DATA: 'false',
    PORT: String(port),
    LINTEL_BASE_URL: `http://127.0.0.1:${port}`,
    LINTEL_LOG_LEVEL: 'info',
    LINTEL_METRICS_TOKEN: METRICS_TOKEN,
    // Every shadowed read is compared (none skipped for a full lane), and no noise is learned: the rate is the data's.
    LINTEL_SHADOW_CONCURRENCY: '64',
    LINTEL_SHADOW_NOISE_SAMPLE: '0',
    ...(db ? { DATABASE_URL: db.url } : {}),
  });
  const l = new Lane(lane === 'postgres' ? 'PostgreSQL' : 'PGlite', box, db === null);
  try {
    await l.run(reads);
    done.push(l);
  } catch (e) {
    await l.stop();
    throw e;
  } finally {
    await box.remove();
    await db?.drop();
  }
}

const rows = Object.keys(done[0]?.figures ?? {});
const width = Math.max(...rows.map((r) => r.length));
console.log(`\n${'figure'.padEnd(width)}  ${done.map((l) => l.name).join('  |  ')}`);
for (const row of rows) console.log(`${row.padEnd(width)}  ${done.map((l) => l.figures[row]).join('  |  ')}`);
