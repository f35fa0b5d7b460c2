/**
 * Structural comparison of two answers (a recorded legacy answer and Lintel's in the conformance
 * runner; the primary's and the shadow's in shadow mode): JSON compared by value (key order
 * ignored) after normalising what legitimately differs between two runs, reported as a compact
 * list of JSON paths.
 */

export interface Difference {
  path: string;
  expected: unknown;
  actual: unknown;
}

/** Keys whose values are the moving timestamps of records created during the run. */
const MOVING_TIME_KEY = /^(date|modified|date_local)$|_(utc|gmt)$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}/;
/** A record created during the run carries the replay instant, which may fall a few seconds off the recorded one. */
export const CLOCK_SLACK_MS = 5_000;

const ENTITY = /&#(x[0-9a-f]+|\d+);/gi;
const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[a-z]{2,}$/i;

/** WordPress's antispambot() turns random characters of an email into entities on every request. */
function deobfuscateEmail(s: string): string {
  if (!s.includes('&#')) return s;
  const plain = s.replace(ENTITY, (_m, code: string) =>
    String.fromCodePoint(code[0].toLowerCase() === 'x' ? parseInt(code.slice(1), 16) : parseInt(code, 10)),
  );
  return EMAIL.test(plain) ? plain : s;
}

export interface NormaliseOptions {
  /** Legacy namespace names and the contract names they were rewritten to. */
  aliases: Record<string, string>;
}

/** The string rules that apply to every value, recorded or served. */
export function normaliseString(s: string, opts: NormaliseOptions): string {
  let out = deobfuscateEmail(s);
  // oEmbed's iframe/blockquote pair shares a random secret.
  out = out.replace(/data-secret="[^"]*"/g, 'data-secret="*"').replace(/#\?secret=[A-Za-z0-9]+/g, '#?secret=*');
  for (const [legacy, contract] of Object.entries(opts.aliases)) {
    if (out.includes(legacy)) out = out.split(legacy).join(contract);
    const escaped = legacy.replace(/\//g, '\\/');
    if (out.includes(escaped)) out = out.split(escaped).join(contract.replace(/\//g, '\\/'));
  }
  return out;
}

function sameMovingTime(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string' || !DATETIME.test(a) || !DATETIME.test(b)) return false;
  const ta = Date.parse(a.replace(' ', 'T') + (a.length <= 19 ? 'Z' : ''));
  const tb = Date.parse(b.replace(' ', 'T') + (b.length <= 19 ? 'Z' : ''));
  return Number.isFinite(ta) && Number.isFinite(tb) && Math.abs(ta - tb) <= CLOCK_SLACK_MS;
}

const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));

function key(path: string, k: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`;
}

const HTTP_DATE = /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}\b/g;

/**
 * Exports stamp the moment they were written ("# Sat, 21 Nov 2026 12:08:25 +0000"), which may fall a
 * second or two after the recorded request instant the replay runs at: each served stamp within the
 * clock slack of the recorded one in the same place is taken as that one.
 */
function alignStamps(expected: string, actual: string): string {
  const rec = expected.match(HTTP_DATE) ?? [];
  const got = actual.match(HTTP_DATE) ?? [];
  if (rec.length === 0 || rec.length !== got.length) return actual;
  let i = 0;
  return actual.replace(HTTP_DATE, (m) => {
    const r = rec[i++];
    return Math.abs(Date.parse(r) - Date.parse(m)) <= CLOCK_SLACK_MS ? r : m;
  });
}

/** Every difference between the recorded value and the served one, depth first. */
export function diffJson(expected: unknown, actual: unknown, opts: NormaliseOptions, path = '$', out: Difference[] = [], leaf = ''): Difference[] {
  if (MOVING_TIME_KEY.test(leaf) && sameMovingTime(expected, actual)) return out;
  if (typeof expected === 'string' && typeof actual === 'string') {
    if (normaliseString(expected, opts) !== normaliseString(alignStamps(expected, actual), opts)) out.push({ path, expected, actual });
    return out;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const n = Math.max(expected.length, actual.length);
    for (let i = 0; i < n; i++) diffJson(expected[i], actual[i], opts, `${path}[${i}]`, out);
    return out;
  }
  if (isObject(expected) && isObject(actual)) {
    for (const k of Object.keys(expected)) diffJson(expected[k], actual[k], opts, key(path, k), out, k);
    for (const k of Object.keys(actual)) if (!(k in expected)) out.push({ path: key(path, k), expected: undefined, actual: actual[k] });
    return out;
  }
  if (!Object.is(expected, actual)) out.push({ path, expected, actual });
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Headers clients read; the rest (Date, Host, X-Powered-By, CORS lists, ...) belong to the web server. */
export const COMPARED_HEADERS = ['Content-Type', 'Allow', 'Location', 'X-Redirect-By', 'X-TEC-Total', 'X-TEC-TotalPages', 'X-WP-Total', 'X-WP-TotalPages'];

export function headerValue(name: string, v: string | undefined, opts: NormaliseOptions): string | undefined {
  if (v === undefined) return undefined;
  if (name === 'Content-Type') return v.toLowerCase().replace(/\s+/g, '');
  // The order of Allow follows registration order, which clients cannot rely on.
  if (name === 'Allow') return v.split(',').map((m) => m.trim()).filter(Boolean).sort().join(', ');
  return normaliseString(v, opts);
}

export function formatDifferences(diffs: Difference[], limit = 25): string[] {
  const clip = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}...` : s);
  const lines = diffs.slice(0, limit).map((d) => `${d.path}: expected ${clip(show(d.expected))}, got ${clip(show(d.actual))}`);
  if (diffs.length > limit) lines.push(`... and ${diffs.length - limit} more`);
  return lines;
}
