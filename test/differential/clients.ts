/**
 * The two sides of the differential tester: the legacy site (over HTTP, under its own namespace
 * names) and an in-process Lintel (Fastify's `inject`, with the oracle's Host so its links name the
 * same site). Each side has one user per role with an application password.
 */
import { request } from 'undici';
import type { TestApp } from '../support/app.ts';
import { ORACLE_BASE } from '../support/captures.ts';
import { ROLES, type Caller, type Role } from './requests.ts';

export interface Sent {
  method: string;
  /** Path and query, from `/`. */
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

export interface Answer {
  status: number;
  /** Lower-case names, repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** In the order sent (for recording). */
  headerList: [string, string][];
  body: string;
  elapsedS: number;
}

export interface Side {
  name: 'legacy' | 'lintel';
  /** The `Authorization` header of a caller. */
  auth(caller: Caller): string | undefined;
  send(r: Sent): Promise<Answer>;
  /** The same request as a curl command line. */
  curl(r: Sent): string;
}

/** The contract's names as the legacy site spells them (plain and JSON-escaped): the oracle serves only these. */
export function toLegacyNames(s: string): string {
  return s.replace(/(?<![\w-])history(\\?\/)v1/g, 'simple-history$1v1').replace(/calendar(\\?\/)events(\\?\/)v1/g, 'tribe$1events$2v1');
}

/**
 * The User-Agent both sides get: the legacy client sends none of its own and Lintel's in-process one
 * `lightMyRequest`, which Redirection would log (a 404 row's `agent`) and its rules could match.
 */
export const AGENT = 'lintel-differential';

/** The Redirection log lists: each row names the request it logged. */
const LOG_LISTS = new Set(['/redirection/v1/log', '/redirection/v1/404']);

/**
 * Lintel's answer to a Redirection log list as the oracle's to the same requests: the tester sends a
 * locale prefix (`/fr`) to Lintel only (the oracle has no language plugin), so a request Lintel logged
 * under it (a row's `url`, a grouped row's `id`, a redirect's `sent_to`) is read without it; the
 * contract's names against the oracle's are the comparator's (its namespace aliases).
 */
export function withoutLoggedLocale(template: string, json: unknown, locales: readonly string[]): unknown {
  if (!LOG_LISTS.has(template) || locales.length === 0) return json;
  const prefixed = new RegExp(`^(${ORACLE_BASE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})?/(?:${locales.join('|')})(?=[/?])`);
  const strip = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(prefixed, (_m, base: string | undefined) => base ?? '');
    if (Array.isArray(v)) return v.map(strip);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strip(x)]));
    return v;
  };
  return strip(json);
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The login of a Basic header, the password left out. */
const loginOf = (authorization: string) => Buffer.from(authorization.replace(/^Basic /, ''), 'base64').toString().split(':')[0];

function curlLine(base: string, r: Sent): string {
  const h = Object.entries(r.headers)
    .filter(([k]) => k.toLowerCase() !== 'authorization')
    .map(([k, v]) => ` -H ${quote(`${k}: ${v}`)}`)
    .join('');
  const auth = r.headers.authorization ? ` -u ${quote(`${loginOf(r.headers.authorization)}:<application password>`)}` : '';
  const data = r.payload !== undefined ? ` --data-binary ${quote(r.payload.slice(0, 2000))}` : '';
  return `curl -g -X ${r.method}${auth}${h}${data} ${quote(base + r.url)}`;
}

/**
 * The legacy site, with the admin's application password; `setUp` adds a user per other role
 * through wp/v2 (users, then their application passwords). A copy of the site on another port names
 * its own address in links: its answers are read as if from the captures' address, where Lintel's are.
 */
export async function legacySide(origin: string, user: string, appPassword: string): Promise<Side> {
  const [own, recorded] = [new URL(origin).host, new URL(ORACLE_BASE).host];
  const asRecorded = (s: string) => (own === recorded ? s : s.replaceAll(own, recorded));
  const creds = new Map<Caller, { login: string; password: string }>([['administrator', { login: user, password: appPassword }]]);
  const admin = basic(user, appPassword);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await request(`${origin}/wp-json${path}`, { method: method as 'POST', headers: { authorization: admin, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path} on the legacy site: ${res.statusCode} ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  for (const role of ROLES.filter((r) => r !== 'administrator')) {
    const created = await call('POST', '/wp/v2/users', { username: role, email: `${role}@example.test`, password: `differential-${role}-${Date.now()}`, roles: [role] });
    const app = await call('POST', `/wp/v2/users/${created.id}/application-passwords`, { name: `differential ${role}` });
    creds.set(role, { login: role, password: String(app.password) });
  }
  return {
    name: 'legacy',
    auth: (caller) => {
      const c = creds.get(caller);
      return c && basic(c.login, c.password);
    },
    async send(r) {
      const started = performance.now();
      const res = await request(origin + toLegacyNames(r.url), { method: r.method as 'GET', headers: { ...r.headers }, body: r.payload === undefined ? undefined : toLegacyNames(r.payload) });
      const body = asRecorded(await res.body.text());
      const headerList: [string, string][] = [];
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        const items = (Array.isArray(v) ? v : [v ?? '']).map(asRecorded);
        for (const item of items) headerList.push([k, item]);
        headers[k.toLowerCase()] = items.join(', ');
      }
      return { status: res.statusCode, headers, headerList, body, elapsedS: (performance.now() - started) / 1000 };
    },
    curl: (r) => curlLine(origin, { ...r, url: toLegacyNames(r.url), payload: r.payload && toLegacyNames(r.payload) }),
  };
}

/** The in-process Lintel, with a user per role made in its store (`TestApp.auth`). */
export async function lintelSide(app: TestApp): Promise<Side> {
  const creds = new Map<Caller, string>();
  for (const role of ROLES) creds.set(role, await app.auth(role as Role));
  const host = new URL(ORACLE_BASE).host;
  return {
    name: 'lintel',
    auth: (caller) => creds.get(caller),
    async send(r) {
      const started = performance.now();
      const res = await app.server.inject({ method: r.method as 'GET', url: r.url, headers: { host, ...r.headers }, payload: r.payload });
      const headers: Record<string, string> = {};
      const headerList: [string, string][] = [];
      for (const [k, v] of Object.entries(res.headers)) {
        const value = Array.isArray(v) ? v.join(', ') : String(v ?? '');
        headers[k.toLowerCase()] = value;
        headerList.push([k, value]);
      }
      return { status: res.statusCode, headers, headerList, body: res.body, elapsedS: (performance.now() - started) / 1000 };
    },
    curl: (r) => curlLine('http://localhost:8080', r),
  };
}
