/**
 * The conformance runner: replays the recorded requests of the legacy site (fixtures/captures/)
 * against a fresh Lintel, in the recorded order and at the recorded instants, and compares each
 * answer with the recorded one. Whatever namespaces are registered are exercised; an unregistered
 * route simply differs.
 */
import { adjustableClock } from '../../src/clock.ts';
import { edgeFor } from '../../src/namespaces/redirection/edge/registry.ts';
import { reserveId, type IdSpace } from '../../src/store/ids.ts';
import type { Mappings } from '../../src/mappings.ts';
import type { LegacyPost } from '../../src/store/legacy-posts.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { allowedBy, type Deviations, DEVIATIONS_FILE, loadDeviations, type Listing } from '../../src/compare/deviations.ts';
import { CAPTURES_DIR, loadCaptures, ORACLE_BASE, replay, type Capture } from '../support/captures.ts';
import { LEGACY_NAMES, startLegacyOrigin } from '../support/legacy-origin.ts';
import { CLOCK_SLACK_MS, COMPARED_HEADERS, diffJson, formatDifferences, headerValue, normaliseString, type Difference, type NormaliseOptions } from '../../src/compare/diff.ts';

const SEED_LAST = 41;

/**
 * The seeded legacy site's posts that are no calendar record, as `lintel import` brings them (wp/v2):
 * WordPress's first post, sample page and draft privacy page, the revisions of event 17 (sticky) and
 * event 22 (029's password change), and the theme's navigation menu. Held after the seed, as an
 * import before the cut-over would bring them.
 */
const SEEDED_LEGACY_POSTS: LegacyPost[] = [
  { id: 1, post_type: 'post', status: 'publish', author: 1, parent: 0 },
  { id: 2, post_type: 'page', status: 'publish', author: 1, parent: 0 },
  { id: 3, post_type: 'page', status: 'draft', author: 1, parent: 0 },
  { id: 18, post_type: 'revision', status: 'inherit', author: 0, parent: 17 },
  { id: 25, post_type: 'revision', status: 'inherit', author: 0, parent: 22 },
  { id: 26, post_type: 'wp_navigation', status: 'publish', author: 0, parent: 0 },
];

export { CAPTURES_DIR, DEVIATIONS_FILE, loadCaptures, loadDeviations, ORACLE_BASE, type Capture };

/**
 * matched: the answer is the recorded one; allowed: it differs only where the DEVIATIONS.md rows
 * listing the capture allow; differ: it differs anywhere else (a failure).
 */
export type Verdict = 'matched' | 'allowed' | 'differ' | 'not served';
export const VERDICTS: Verdict[] = ['matched', 'allowed', 'differ', 'not served'];

export interface Outcome {
  capture: Capture;
  group: string;
  verdict: Verdict;
  /** The DEVIATIONS.md rows listing the capture. */
  listings: Listing[];
  differences: Difference[];
  /** The differences no listing allows. */
  unexpected: Difference[];
}

export function judge(capture: Capture, group: string, differences: Difference[], listings: Listing[]): Outcome {
  const unexpected = differences.filter((d) => !allowedBy(listings, d.path));
  const verdict: Verdict = differences.length === 0 ? 'matched' : unexpected.length === 0 ? 'allowed' : 'differ';
  return { capture, group, verdict, listings, differences, unexpected };
}

export interface IndexRouteOutcome {
  pattern: string;
  group: string;
  differences: Difference[];
}

export interface Report {
  outcomes: Outcome[];
  /** Top-level keys of the site index: recorded vs served. */
  indexKeys: { expected: string[]; actual: string[] };
  /** Each recorded route of a namespace Lintel serves, compared with Lintel's index entry (methods and args). */
  indexRoutes: IndexRouteOutcome[];
}

/**
 * The namespaces Lintel answers: the site index and batch (core), those mappings/ translates, and
 * in the forwarded mode those it forwards to the recorded origin.
 */
export function servedNamespaces(mappings: Mappings, forwarding = false): Set<string> {
  const served = Object.entries(mappings.namespaces).filter(([, m]) => m.mode === 'translate' || (forwarding && m.mode === 'forward')).map(([ns]) => ns);
  return new Set(['core', 'batch/v1', 'site', ...served]);
}

/** Legacy names (aliases in mappings/) mapped to the contract's names. */
export function aliasNames(mappings: Mappings): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [ns, m] of Object.entries(mappings.namespaces)) for (const a of m.aliases) out[a] = ns;
  return out;
}

function restRoute(c: Capture): string | null {
  const { path: p, query_string: qs } = c.request;
  // The query's rest_route names the route before the path does (locateRest).
  const rr = new URLSearchParams(qs).get('rest_route');
  // An empty one makes the request the front page's (frontPage).
  if (rr === '' || rr === '0') return null;
  if (p === '/wp-json' || p.startsWith('/wp-json/')) return rr || p.slice('/wp-json'.length) || '/';
  return p === '/' && rr ? rr : null;
}

/**
 * The table row a capture counts under: its route's namespace; the site index and rest_no_route
 * (050, whose path merely borrows a calendar prefix) are core; pages outside the REST prefix are "site".
 */
export function groupOf(c: Capture, known: string[]): string {
  const route = restRoute(c);
  if (route === null) return 'site';
  if (route === '/' || c.seq === '050') return 'core';
  const ns = [...known].sort((a, b) => b.length - a.length).find((n) => route === `/${n}` || route.startsWith(`/${n}/`));
  return ns ?? route.split('/').slice(1, 3).join('/');
}

/** Capture 029 set the event password through wp/v2, which Lintel does not serve: the contract's route does the same. */
function requestOf(c: Capture): Capture['request'] {
  if (c.seq !== '029') return c.request;
  return { ...c.request, path: '/wp-json/calendar/events/v1/events/22', body: { password: 'secret' } };
}

/** The ID space a recorded create drew its IDs from, by its route. */
const CREATED_IN: [RegExp, IdSpace][] = [
  [/\/(events|venues|organizers)$/, 'post_id_seq'],
  [/\/(categories|tags)$/, 'term_id_seq'],
];

/** The IDs of the records a create answers with: the record's own, and an event's venue and organizers (created inline or not). */
function recordIds(answer: unknown): number[] {
  if (!isRecord(answer)) return [];
  const linked = [answer.venue, ...(Array.isArray(answer.organizer) ? answer.organizer : [])];
  return [answer.id, ...linked.map((l) => (isRecord(l) ? l.id : undefined))].filter((id): id is number => typeof id === 'number');
}

/**
 * The legacy site spent IDs on records no capture shows (revisions on updates, the revisions of 029's
 * wp/v2 password change, the stray term of calendar-write-terms-by-slug): before a recorded create,
 * Lintel's ID space is moved up to the first recorded ID it has not given out yet, so it creates the
 * records under the recorded IDs.
 */
async function alignCreatedIds(app: TestApp, c: Capture): Promise<void> {
  const space = CREATED_IN.find(([route]) => route.test(c.request.path))?.[1];
  if (c.response.status !== 201 || c.request.method !== 'POST' || !space) return;
  const [{ last }] = await app.store.sql.query<{ last: number }>(`select last_value::int8 as last from ${space}`);
  const fresh = recordIds(c.response.body_json).filter((id) => id > Number(last));
  if (fresh.length) await reserveId(app.store.sql, space, Math.min(...fresh) - 1);
}

/** The legacy seed's own front-end requests, made after the redirection seeds (capture 038). */
const SEED_FRONT_END_AFTER = '038';

/**
 * reference-site.md: "The seed then requested /old-page ×2, /blog/hello-world, /promo, /gone-page,
 * /summer and five 404 URLs". Those requests are not captures, but their hits, log rows and 404 rows
 * are in every later answer; they are replayed here through the site, with the agent and referrer the
 * recorded log (243) and 404 list (248, whose rows in ID order are the five URLs) show.
 */
async function seedFrontEnd(app: TestApp, captures: Capture[]): Promise<void> {
  type Row = { id: number; url: string; agent: string | null; referrer: string | null };
  const rows = (seq: string) => ((captures.find((c) => c.seq === seq)?.response.body_json as { items?: Row[] })?.items ?? []).toSorted((a, b) => a.id - b.id);
  const logged = rows('243');
  const notFound = rows('248');
  const first = logged[0] ?? notFound[0];
  if (!first) return;
  const redirected = ['/old-page', '/old-page', '/blog/hello-world', '/promo', '/gone-page', '/summer'].map((url) => ({ ...first, url }));
  for (const row of [...redirected, ...notFound]) {
    const headers: Record<string, string> = { Host: ORACLE_HOST, Accept: 'text/html' };
    if (row.agent) headers['User-Agent'] = row.agent;
    if (row.referrer) headers.Referer = row.referrer;
    await app.server.inject({ method: 'GET', url: row.url, headers });
  }
  await edgeFor(app.services).flush();
}

interface Served {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** The recorded requests were sent to the oracle: its host is what the legacy site saw (and logged as the domain). */
const ORACLE_HOST = new URL(ORACLE_BASE).host;

async function send(app: TestApp, r: Capture['request'], admin: string): Promise<Served> {
  const res = await replay(app, r, { authorization: admin, host: ORACLE_HOST });
  return { status: res.statusCode, headers: res.headers, body: res.body };
}

function recordedHeader(headers: Record<string, string>, name: string): string | undefined {
  const k = Object.keys(headers).find((h) => h.toLowerCase() === name.toLowerCase());
  return k === undefined ? undefined : headers[k];
}

function servedHeader(headers: Served['headers'], name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return v === undefined ? undefined : Array.isArray(v) ? v.join(', ') : String(v);
}

/** iCal stamps that carry the moment of the request or of the record's creation. */
function normaliseText(s: string): string {
  return s.replace(/\r\n/g, '\n').replace(/^(DTSTAMP|CREATED|LAST-MODIFIED):.*$/gm, '$1:*');
}

/** Redirection's `installed` is the site's folder on disk: any absolute folder path stands for the recorded one. */
function hostFolder(recorded: unknown, served: unknown): unknown {
  const folder = (v: unknown) => typeof v === 'string' && /^\/.*\/$/.test(v);
  if (!isRecord(recorded) || !isRecord(served) || !folder(recorded.installed) || !folder(served.installed)) return served;
  return { ...served, installed: recorded.installed };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function compare(c: Capture, served: Served, opts: NormaliseOptions): Difference[] {
  const out: Difference[] = [];
  const rec = c.response;
  if (rec.status !== served.status) out.push({ path: 'status', expected: rec.status, actual: served.status });
  for (const name of COMPARED_HEADERS) {
    const expected = headerValue(name, recordedHeader(rec.headers, name), opts);
    const actual = headerValue(name, servedHeader(served.headers, name), opts);
    if (expected !== actual) out.push({ path: `header ${name}`, expected, actual });
  }
  // What browsers and proxies may keep, and the calendar's discovery on pages. A cached redirect's
  // Expires counts from the request instant, which the replay reaches within the clock slack.
  for (const name of ['Cache-Control', 'Expires', 'X-TEC-API-VERSION', 'X-TEC-API-ROOT', 'X-TEC-API-ORIGIN']) {
    const expected = recordedHeader(rec.headers, name);
    const actual = servedHeader(served.headers, name);
    const slack = name === 'Expires' && expected && actual && Math.abs(Date.parse(expected) - Date.parse(actual)) <= CLOCK_SLACK_MS;
    if (expected !== actual && !slack) out.push({ path: `header ${name}`, expected, actual });
  }

  if ('body_json' in rec) {
    let actual: unknown;
    try {
      actual = JSON.parse(served.body);
    } catch {
      out.push({ path: '$', expected: 'a JSON body', actual: served.body.slice(0, 200) });
      return out;
    }
    diffJson(rec.body_json, hostFolder(rec.body_json, actual), opts, '$', out);
    return out;
  }
  const type = recordedHeader(rec.headers, 'Content-Type') ?? '';
  // HTML pages are the legacy theme's markup, not part of the contract; HEAD has no body.
  if (c.request.method === 'HEAD' || /text\/html/i.test(type)) return out;
  if (normaliseText(normaliseString(rec.body, opts)) !== normaliseText(normaliseString(served.body, opts))) {
    out.push({ path: '$', expected: rec.body.slice(0, 200), actual: served.body.slice(0, 200) });
  }
  return out;
}

function indexGroup(pattern: string, namespace: string): string {
  if (namespace !== '') return namespace;
  return pattern === '/' ? 'core' : pattern.replace(/^\//, '');
}

type IndexBody = { routes?: Record<string, { namespace: string; methods: unknown; endpoints?: { methods: unknown; args: unknown }[] }> };

/** Methods and argument descriptors of each recorded route in a namespace Lintel serves. */
export function compareIndex(recorded: IndexBody, served: IndexBody, namespaces: Set<string>, opts: NormaliseOptions): IndexRouteOutcome[] {
  const out: IndexRouteOutcome[] = [];
  const shape = (e: NonNullable<IndexBody['routes']>[string] | undefined) =>
    e && { methods: e.methods, endpoints: (e.endpoints ?? []).map((x) => ({ methods: x.methods, args: x.args })) };
  for (const [pattern, entry] of Object.entries(recorded.routes ?? {})) {
    const group = indexGroup(pattern, opts.aliases[entry.namespace] ?? entry.namespace);
    if (!namespaces.has(group)) continue;
    out.push({ pattern, group, differences: diffJson(shape(entry), shape(served.routes?.[pattern]), opts) });
  }
  return out;
}

export interface RunOptions {
  captures?: Capture[];
  deviations?: Deviations;
  /** Called after each capture (progress output). */
  onOutcome?: (o: Outcome) => void;
  /**
   * The forwarded mode: these namespaces are forwarded (under their legacy names) to a recorded
   * legacy origin answering from the same captures, so their captures count as served.
   */
  forward?: string[];
  /** Called with the replayed app and its clock before the app closes (the differential tester continues from this state). */
  afterReplay?: (app: TestApp, clock: ReturnType<typeof adjustableClock>) => Promise<void>;
}

/** Mappings with the given namespaces forwarded under their legacy names. */
function forwarding(namespaces: string[]) {
  return (m: Mappings): Mappings => {
    const out = { ...m, namespaces: { ...m.namespaces } };
    for (const ns of namespaces) {
      const upstream = LEGACY_NAMES.find((r) => r.requested === ns)?.upstream ?? ns;
      const aliases = [...new Set([...(m.namespaces[ns]?.aliases ?? []), ...(upstream === ns ? [] : [upstream])])];
      out.namespaces[ns] = { mode: 'forward', aliases, batch: m.namespaces[ns]?.batch ?? true, upstream };
    }
    return out;
  };
}

/**
 * When a recorded create wrote its record: the answer's `date_utc`. The capture's time is when the
 * request started, in whole seconds, and the legacy write may fall in the next second (capture 012):
 * records the legacy site saved in one second must be saved in one second here too, as lists order
 * such ties by ID.
 */
function writtenAt(c: Capture): string | null {
  const at = (c.response.body_json as { date_utc?: unknown } | null)?.date_utc;
  if (c.response.status !== 201 || typeof at !== 'string' || !/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(at) || at.startsWith('0000')) return null;
  const written = `${at.replace(' ', 'T')}Z`;
  return written > c.captured_at ? written : null;
}

export async function runConformance(opts: RunOptions = {}): Promise<Report> {
  const captures = opts.captures ?? loadCaptures();
  const deviations = opts.deviations ?? loadDeviations();
  const seeds = captures.filter((c) => Number(c.seq) <= SEED_LAST);
  const rest = captures.filter((c) => Number(c.seq) > SEED_LAST);
  const origin = opts.forward?.length ? await startLegacyOrigin({ captures }) : null;
  const app = await testApp({
    env: { LINTEL_BASE_URL: ORACLE_BASE, LINTEL_CLOCK: captures[0].captured_at, ...(origin ? { LINTEL_LEGACY_ORIGIN: origin.url } : {}) },
    mappings: origin ? forwarding(opts.forward!) : undefined,
  });
  try {
    // buildApp pins its clock from the config; every part shares that one object, so moving it moves them all.
    const clock = adjustableClock(captures[0].captured_at);
    Object.assign(app.services.clock, { now: () => clock.now() });
    await app.store.options.setSite({ name: 'Oracle Site', description: 'Reference oracle', timezone: 'America/New_York' });
    // The recorded site's administrator (user 1), whose login and email the history log records.
    await app.store.users.create({ id: 1, login: 'admin', email: 'admin@example.com', displayName: 'admin', role: 'administrator', passwordHash: null });
    const admin = await app.auth('administrator');
    // Redirection's token is drawn at random when the plugin is activated, before the captures; it is the recorded one here.
    const token = (captures.find((c) => c.seq === '264')?.response.body_json as { settings?: { token?: string } } | undefined)?.settings?.token;
    if (token) await app.store.redirection.settings.save({ token });
    const served = servedNamespaces(app.services.mappings, origin !== null);
    const known = [...Object.keys(app.services.mappings.namespaces), 'batch/v1', 'oembed/1.0', 'wp/v2'];
    const norm: NormaliseOptions = { aliases: aliasNames(app.services.mappings) };

    const outcomes: Outcome[] = [];
    let index: { recorded: IndexBody; served: IndexBody } | null = null;
    for (const c of [...seeds, ...rest]) {
      const group = c.seq === '029' ? 'calendar/events/v1' : groupOf(c, known);
      let outcome: Outcome;
      if (!served.has(group)) {
        outcome = { capture: c, group, verdict: 'not served', listings: [], differences: [], unexpected: [] };
      } else {
        clock.set(writtenAt(c) ?? c.captured_at);
        await alignCreatedIds(app, c);
        const res = await send(app, requestOf(c), admin);
        // The site writes hits and log rows behind the answer; the legacy site had written them before answering.
        if (group === 'site') await edgeFor(app.services).flush();
        if (c.seq === '042') index = { recorded: c.response.body_json as IndexBody, served: safeJson(res.body) as IndexBody };
        // 029's recorded answer is a wp/v2 post: only the status says whether the password was set.
        const differences = c.seq === '029' ? (res.status === 200 ? [] : [{ path: 'status', expected: 200, actual: res.status }]) : compare(c, res, norm);
        outcome = judge(c, group, differences, deviations.forCapture(c.seq, c.response));
      }
      if (c.seq === SEED_FRONT_END_AFTER) await seedFrontEnd(app, captures);
      if (Number(c.seq) === SEED_LAST) await app.store.legacyPosts.importPosts(SEEDED_LEGACY_POSTS);
      outcomes.push(outcome);
      opts.onOutcome?.(outcome);
    }
    await opts.afterReplay?.(app, clock);
    const recordedIndex = (captures.find((c) => c.seq === '042')?.response.body_json ?? {}) as Record<string, unknown>;
    const servedIndex = (index?.served ?? {}) as Record<string, unknown>;
    return {
      outcomes,
      indexKeys: { expected: Object.keys(recordedIndex), actual: Object.keys(servedIndex) },
      indexRoutes: compareIndex(recordedIndex, servedIndex, served, norm),
    };
  } finally {
    await app.close();
    await origin?.close();
  }
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return {};
  }
}

export type Counts = Record<Verdict, number>;

/** Per namespace: how many captures matched, differed only where allowed, differed elsewhere, or were not served. */
export function countByGroup(outcomes: Outcome[]): Map<string, Counts> {
  const table = new Map<string, Counts>();
  for (const o of outcomes) {
    const row = table.get(o.group) ?? { matched: 0, allowed: 0, differ: 0, 'not served': 0 };
    row[o.verdict]++;
    table.set(o.group, row);
  }
  return table;
}

/** Per namespace: recorded index routes whose methods and args Lintel's index reproduces. */
export function countIndexRoutes(routes: IndexRouteOutcome[]): Map<string, { matched: number; differ: number }> {
  const table = new Map<string, { matched: number; differ: number }>();
  for (const r of routes) {
    const row = table.get(r.group) ?? { matched: 0, differ: 0 };
    if (r.differences.length === 0) row.matched++;
    else row.differ++;
    table.set(r.group, row);
  }
  return table;
}

export { formatDifferences };
