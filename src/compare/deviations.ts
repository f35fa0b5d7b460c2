/**
 * DEVIATIONS.md as data: what each listed difference from the legacy site allows, and where. The
 * conformance runner applies a row to the captures its `captures` column names; the differential
 * tester and the shadow comparator apply it to the requests of the routes its `allows` column names
 * (`routes: GET /calendar/events/v1/venues, * /redirection/v1/export/*`). One file, read the same way
 * by all three, so a difference is either listed there or counted.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DEVIATIONS_FILE = fileURLToPath(new URL('../../DEVIATIONS.md', import.meta.url));

/**
 * What a row allows to differ, from its `allows` column: `status`, `header: Allow, Cache-Control`,
 * `body: $.id, $.events[*].description`, `routes: GET /namespace/route/{id}` and `legacy: 500`, joined
 * by `;`. A body path covers everything below it; `*` stands for any run of characters (an array index,
 * a key or part of one, a route segment). A text body (iCal, exports) is the single value `$`. With
 * `legacy:`, the row applies only where the legacy site answered one of those statuses (its PHP
 * crashes: a 500 is never behaviour to keep, whatever Lintel answers instead). `contract` marks a
 * difference the contract forces; the differential report counts the requests only such rows allow.
 */
export interface Allowance {
  status: boolean;
  /** Lower-case header names. */
  headers: string[];
  body: string[];
  /** `METHOD /route/{template}` patterns (method `*` for any), in the contract's namespace names. */
  routes: string[];
  /** The legacy answer's statuses the row is limited to; empty: any. */
  legacy: number[];
  /** `contract`: the difference is forced by the contract (what it documents and the legacy site lacks), not chosen over a legacy bug. */
  contract: boolean;
}

export interface Listing {
  id: string;
  allows: Allowance;
}

export function parseAllows(cell: string): Allowance {
  const out: Allowance = { status: false, headers: [], body: [], routes: [], legacy: [], contract: false };
  for (const part of cell.replace(/`/g, '').split(';').map((p) => p.trim())) {
    if (part === '' || /^[-–—]$/.test(part)) continue;
    const m = /^(status|contract|header|body|routes|legacy)\s*(?::\s*(.*))?$/.exec(part);
    if (!m) throw new Error(`DEVIATIONS.md: cannot read "${part}" in an allows cell (status; header: A, B; body: $.x, $.y[*].z; routes: GET /a/{id}; legacy: 500; contract)`);
    if (m[1] === 'status') out.status = true;
    else if (m[1] === 'contract') out.contract = true;
    // Header names and routes hold no commas; body paths may (quoted keys), so they are split only before the next `$`.
    else if (m[1] === 'header') out.headers.push(...list(m[2]).map((h) => h.toLowerCase()));
    else if (m[1] === 'routes') out.routes.push(...list(m[2]).map(routePattern));
    else if (m[1] === 'legacy') out.legacy.push(...list(m[2]).map(statusCode));
    else out.body.push(...(m[2] ?? '').split(/,\s*(?=\$)/).map((b) => b.trim()).filter(Boolean));
  }
  return out;
}

const list = (s: string | undefined) => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean);

function routePattern(s: string): string {
  const m = /^(\*|GET|POST|PUT|PATCH|DELETE|OPTIONS|HEAD)\s+(\/\S*)$/i.exec(s);
  if (!m) throw new Error(`DEVIATIONS.md: cannot read the route "${s}" (METHOD /namespace/route, method * for any)`);
  return `${m[1].toUpperCase()} ${m[2]}`;
}

function statusCode(s: string): number {
  if (!/^[1-5]\d\d$/.test(s)) throw new Error(`DEVIATIONS.md: cannot read the legacy status "${s}" (legacy: 500)`);
  return Number(s);
}

const glob = (pattern: string, tail: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}${tail}`);
const pathGlob = (pattern: string) => glob(pattern, '(?:$|[.[])');

/** Whether a difference (a `status`, `header Name` or JSON path) is one the listings allow. */
export function allowedBy(listings: Listing[], path: string): boolean {
  if (path === 'status') return listings.some((l) => l.allows.status);
  if (path.startsWith('header ')) {
    const name = path.slice('header '.length).replace(/ \(.*\)$/, '').toLowerCase();
    return listings.some((l) => l.allows.headers.includes(name));
  }
  // A text body's difference (the shadow comparison's `body (text)`) is the whole body, `$`.
  const at = path === 'body (text)' ? '$' : path;
  return listings.some((l) => l.allows.body.some((p) => pathGlob(p).test(at)));
}

/** What a row's `legacy:` condition reads of the legacy site's answer (inside `_envelope`: the enveloped status). */
export interface LegacyAnswer {
  status: number;
}

const applies = (l: Listing, legacy: LegacyAnswer) => l.allows.legacy.length === 0 || l.allows.legacy.includes(legacy.status);

/** The rows of DEVIATIONS.md, looked up by capture or by route. */
export class Deviations {
  readonly #byCapture = new Map<string, Listing[]>();
  readonly #byRoute: { pattern: RegExp; listing: Listing }[] = [];

  constructor(rows: { id: string; captures: string; allows: string }[]) {
    for (const row of rows) {
      const listing = { id: row.id, allows: parseAllows(row.allows) };
      // "all" marks an encoding-level difference that the structural comparison already ignores.
      for (const token of row.captures.split(/[,\s]+/)) {
        const m = /^(\d{3})(?:[-–](\d{3}))?$/.exec(token);
        if (!m) continue;
        for (let n = Number(m[1]); n <= Number(m[2] ?? m[1]); n++) {
          const seq = String(n).padStart(3, '0');
          this.#byCapture.set(seq, [...(this.#byCapture.get(seq) ?? []), listing]);
        }
      }
      for (const route of listing.allows.routes) {
        const [method, template] = route.split(' ');
        this.#byRoute.push({ pattern: glob(`${method === '*' ? '*' : method} ${template}`, '$'), listing });
      }
    }
  }

  /** The rows naming a capture (`"050"`) in their `captures` column, as far as they apply to its recorded answer. */
  forCapture(seq: string, legacy: LegacyAnswer): Listing[] {
    return (this.#byCapture.get(seq) ?? []).filter((l) => applies(l, legacy));
  }

  /**
   * The rows whose `routes:` name a request's method and route template (`/calendar/events/v1/events/{id}`),
   * as far as they apply to the legacy site's answer.
   */
  forRoute(method: string, template: string, legacy: LegacyAnswer): Listing[] {
    const key = `${method.toUpperCase()} ${template}`;
    return this.#byRoute.filter((r) => r.pattern.test(key) && applies(r.listing, legacy)).map((r) => r.listing);
  }
}

/** Reads the tables of DEVIATIONS.md (every table has `id`, `captures` and `allows` columns). */
export function loadDeviations(file = DEVIATIONS_FILE): Deviations {
  const rows: { id: string; captures: string; allows: string }[] = [];
  let columns: string[] | null = null;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('|')) {
      columns = null;
      continue;
    }
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (!columns) {
      columns = cells;
      continue;
    }
    if (cells.every((c) => /^-*$/.test(c))) continue;
    const header = columns;
    const cell = (name: string) => cells[header.indexOf(name)] ?? '';
    rows.push({ id: cell('id'), captures: cell('captures'), allows: cell('allows') });
  }
  return new Deviations(rows);
}
