/**
 * Comparison and report: each pair of answers compared as the shadow comparator does (status, the
 * headers clients read, JSON by value after the conformance normalisation), minus the paths the
 * legacy site itself answers differently when asked twice. A request is identical, allowed (it
 * differs only in what the DEVIATIONS.md rows naming its route allow) or differs; the report gives
 * per route those counts and each distinct difference once (where, both values, a curl line per
 * side), and per namespace the totals.
 */
import { allowedBy, type Listing } from '../../src/compare/deviations.ts';
import { formatDifferences, normaliseString, type Difference, type NormaliseOptions } from '../../src/compare/diff.ts';
import { differences, generalise } from '../../src/backends/shadow.ts';
import type { Answer } from './clients.ts';

export interface Example {
  difference: Difference;
  /** The ids of the rows that allow it (none: it counts as a difference). */
  allowedBy: string[];
  legacyCurl: string;
  lintelCurl: string;
  count: number;
}

export type Verdict = 'identical' | 'allowed' | 'differs';

interface Counts {
  sent: number;
  identical: number;
  allowed: number;
  /** Of the allowed, those whose every difference a row marked `contract` allows: forced by the contract. */
  contract: number;
}

interface RouteTally extends Counts {
  namespace: string;
  /** Distinct differences by route-independent key (generalised path, and the values for status and headers). */
  classes: Map<string, Example>;
}

export class Tally {
  readonly routes = new Map<string, RouteTally>();
  /** Per request feature (`rest_route (query)`, `NUL`, `_envelope`...), the verdicts of the requests that have it. */
  readonly features = new Map<string, Counts>();
  /** Per DEVIATIONS.md row, per namespace, the requests counted as allowed that the row allowed a difference of. */
  readonly rows = new Map<string, Map<string, number>>();
  /** Per route, the paths the legacy site answers differently when asked the same read twice. */
  readonly noise = new Map<string, Set<string>>();
  skipped = 0;
  /** Batch items the legacy site refused and Lintel ran, sent to the legacy site on their own. */
  replayedItems = 0;

  /** Reads asked twice so far, per route. */
  private readonly asked = new Map<string, number>();

  /** Whether to ask the legacy site this read twice: the first two of a route, then one in 20. */
  shouldLearn(route: string): boolean {
    const n = (this.asked.get(route) ?? 0) + 1;
    this.asked.set(route, n);
    return n <= 2 || n % 20 === 0;
  }

  learn(route: string, first: Answer, again: Answer, opts: NormaliseOptions): void {
    const learned = this.noise.get(route) ?? new Set<string>();
    for (const d of differences(first, again, opts)) learned.add(generalise(d.path));
    this.noise.set(route, learned);
  }

  /** The differences that count for one pair of answers (Lintel's body already in legacy IDs). */
  compare(route: string, legacy: Answer, lintel: Answer, opts: NormaliseOptions): Difference[] {
    const learned = this.noise.get(route);
    return differences(contractKeys(legacy, opts), lintel, opts).filter((d) => !learned?.has(generalise(d.path)));
  }

  /**
   * Counts one compared request; `listings` are the rows naming its route, read inside the envelope
   * when the request asked for one. Returns its verdict and the classes of difference seen for the first time.
   */
  add(route: string, namespace: string, found: Difference[], listings: Listing[], curls: { legacy: string; lintel: string }, enveloped = false, features: readonly string[] = []): { verdict: Verdict; fresh: Example[] } {
    const t = this.routes.get(route) ?? { namespace, sent: 0, identical: 0, allowed: 0, contract: 0, classes: new Map() };
    this.routes.set(route, t);
    const fresh: Example[] = [];
    let unlisted = 0;
    let forced = 0;
    const allowing = new Set<string>();
    for (const d of found) {
      const where = enveloped ? unenveloped(d.path) : d.path;
      const allowers = listings.filter((l) => allowedBy([l], where));
      const rows = allowers.map((l) => l.id);
      if (rows.length === 0) unlisted++;
      if (allowers.some((l) => l.allows.contract)) forced++;
      for (const id of rows) allowing.add(id);
      // The rows are part of the class: a path some rows allow on one request and none on another is two classes, so the unlisted one shows.
      const k = `${classKey(d)} ${rows.join(',')}`;
      const known = t.classes.get(k);
      if (known) known.count++;
      else {
        const e = { difference: d, allowedBy: rows, legacyCurl: curls.legacy, lintelCurl: curls.lintel, count: 1 };
        t.classes.set(k, e);
        fresh.push(e);
      }
    }
    const verdict: Verdict = found.length === 0 ? 'identical' : unlisted === 0 ? 'allowed' : 'differs';
    if (verdict === 'allowed') {
      for (const id of allowing) {
        const perNamespace = this.rows.get(id) ?? new Map<string, number>();
        perNamespace.set(namespace, (perNamespace.get(namespace) ?? 0) + 1);
        this.rows.set(id, perNamespace);
      }
    }
    for (const c of [t, ...(features.length ? features : ['(none)']).map((f) => this.#feature(f))]) {
      c.sent++;
      if (verdict === 'identical') c.identical++;
      if (verdict === 'allowed') c.allowed++;
      if (verdict === 'allowed' && forced === found.length) c.contract++;
    }
    return { verdict, fresh };
  }

  #feature(name: string): Counts {
    const c = this.features.get(name) ?? { sent: 0, identical: 0, allowed: 0, contract: 0 };
    this.features.set(name, c);
    return c;
  }

  byNamespace(): Map<string, Counts> {
    const out = new Map<string, Counts>();
    for (const t of this.routes.values()) {
      const row = out.get(t.namespace) ?? { sent: 0, identical: 0, allowed: 0, contract: 0 };
      row.sent += t.sent;
      row.identical += t.identical;
      row.allowed += t.allowed;
      row.contract += t.contract;
      out.set(t.namespace, row);
    }
    return out;
  }
}

/** The indexes key routes by pattern (`/tribe/events/v1/events`): legacy names in keys are read as the contract's, as in values. */
function contractKeys(a: Answer, opts: NormaliseOptions): Answer {
  const rename = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(rename);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [normaliseString(k, opts), rename(x)]));
  };
  try {
    return { ...a, body: JSON.stringify(rename(JSON.parse(a.body))) };
  } catch {
    return a;
  }
}

/** `_envelope` moves status, headers and body into the body: a row's `status`, `header: X` and `$.x` name them there too. */
function unenveloped(path: string): string {
  if (path === '$.status') return 'status';
  const header = /^\$\.headers(?:\.([\w-]+)|\["([^"]+)"\])$/.exec(path);
  if (header) return `header ${header[1] ?? header[2]}`;
  return path.startsWith('$.body') ? `$${path.slice('$.body'.length)}` : path;
}

/** Status and header differences are told apart by their values; body differences by where they are. */
function classKey(d: Difference): string {
  const path = generalise(d.path);
  return d.path === 'status' || d.path.startsWith('header ') ? `${path} ${JSON.stringify(d.expected)} ${JSON.stringify(d.actual)}` : path;
}

const pct = (m: number, n: number) => (n === 0 ? '-' : `${((100 * m) / n).toFixed(1)}%`);

/** `identical / allowed / differs of sent`, each with its share. */
function counts(c: Counts): string {
  const differs = c.sent - c.identical - c.allowed;
  return `${c.identical} identical (${pct(c.identical, c.sent)}), ${c.allowed} allowed (${pct(c.allowed, c.sent)}), ${differs} differ (${pct(differs, c.sent)})`;
}

/** The unlisted classes of difference over all routes, most requests first: what to fix (or list) first. */
function classesAcrossRoutes(tally: Tally, top: number): string[] {
  const all = new Map<string, { example: Example; count: number; routes: number }>();
  for (const t of tally.routes.values()) {
    for (const [k, e] of t.classes) {
      if (e.allowedBy.length) continue;
      const c = all.get(k) ?? { example: e, count: 0, routes: 0 };
      c.count += e.count;
      c.routes++;
      all.set(k, c);
    }
  }
  const cut = (s: string) => (s.length > 400 ? `${s.slice(0, 400)}…` : s);
  const lines = ['', `unlisted differences over all routes (${Math.min(top, all.size)} of ${all.size} classes, most requests first)`];
  for (const c of [...all.values()].sort((a, b) => b.count - a.count).slice(0, top)) {
    const [what] = formatDifferences([c.example.difference]);
    lines.push(`  ×${c.count} on ${c.routes} route${c.routes === 1 ? '' : 's'}: ${what}`, `    legacy: ${cut(c.example.legacyCurl)}`);
  }
  return lines;
}

/**
 * Per row, the allowed requests it allowed a difference of, per namespace, most first: the rows to
 * attack first. A request allowed by two rows counts for both.
 */
function rowTable(tally: Tally, namespaces: string[]): string[] {
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const used = namespaces.filter((ns) => [...tally.rows.values()].some((m) => m.has(ns)));
  const width = Math.max(...[...tally.rows.keys()].map((id) => id.length), 'row allowing'.length);
  const lines = [`${'row allowing'.padEnd(width)}  ${'total'.padStart(6)}  ${used.map((ns) => ns.padStart(Math.max(ns.length, 6))).join('  ')}`];
  for (const [id, m] of [...tally.rows].sort(([a, x], [b, y]) => sum(y) - sum(x) || a.localeCompare(b))) {
    lines.push(`${id.padEnd(width)}  ${String(sum(m)).padStart(6)}  ${used.map((ns) => String(m.get(ns) ?? '-').padStart(Math.max(ns.length, 6))).join('  ')}`);
  }
  return lines;
}

const HEADER = (first: string) => `${first.padEnd(20)} requests  identical  allowed  contract  as contract  differ`;

export function printReport(tally: Tally, opts: { examples: number; classes?: number }): string[] {
  const lines: string[] = [];
  const routes = [...tally.routes].sort(([a, x], [b, y]) => x.namespace.localeCompare(y.namespace) || a.localeCompare(b));
  for (const [route, t] of routes) {
    lines.push(`${route}  ${t.sent}: ${counts(t)}`);
    // Unlisted classes first: they are what is left to fix or list.
    const classes = [...t.classes.values()].sort((a, b) => Number(a.allowedBy.length > 0) - Number(b.allowedBy.length > 0) || b.count - a.count);
    for (const e of classes.slice(0, opts.examples)) {
      const [what] = formatDifferences([e.difference]);
      const listed = e.allowedBy.length ? ` [allowed: ${e.allowedBy.join(', ')}]` : '';
      lines.push(`  ×${e.count} ${what}${listed}`, `    legacy: ${e.legacyCurl}`, `    lintel: ${e.lintelCurl}`);
    }
  }
  if (opts.classes) lines.push(...classesAcrossRoutes(tally, opts.classes));
  // `contract`: the share of requests allowed only by rows the contract forces (marked `contract`), part of `allowed`;
  // `as contract`: identical or contract, the requests a client of the contract sees answered as the legacy site or as the contract says.
  lines.push('', HEADER('namespace'));
  const total: Counts = { sent: 0, identical: 0, allowed: 0, contract: 0 };
  const row = (name: string, c: Counts) =>
    `${name.padEnd(20)} ${String(c.sent).padStart(8)}  ${pct(c.identical, c.sent).padStart(9)}  ${pct(c.allowed, c.sent).padStart(7)}  ${pct(c.contract, c.sent).padStart(8)}  ${pct(c.identical + c.contract, c.sent).padStart(11)}  ${pct(c.sent - c.identical - c.allowed, c.sent).padStart(6)}`;
  const namespaces = [...tally.byNamespace()].sort(([a], [b]) => a.localeCompare(b));
  for (const [ns, c] of namespaces) {
    lines.push(row(ns, c));
    total.sent += c.sent;
    total.identical += c.identical;
    total.allowed += c.allowed;
    total.contract += c.contract;
  }
  lines.push(row('total', total), '');
  if (tally.rows.size) lines.push(...rowTable(tally, namespaces.map(([ns]) => ns)), '');
  if (tally.features.size) {
    lines.push(HEADER('request feature'));
    for (const [f, c] of [...tally.features].sort(([, a], [, b]) => b.sent - b.identical - b.allowed - (a.sent - a.identical - a.allowed))) lines.push(row(f, c));
    lines.push('');
  }
  for (const [ns, c] of namespaces) lines.push(`${ns}: ${c.sent} requests, ${counts(c)}`);
  if (tally.skipped) lines.push(`(${tally.skipped} generated writes skipped: no record made during the run to change yet)`);
  if (tally.replayedItems) lines.push(`(${tally.replayedItems} batch items the legacy site refused and Lintel ran sent to the legacy site on their own)`);
  return lines;
}
