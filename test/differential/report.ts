/**
 * Comparison and report: each pair of answers compared as the shadow comparator does (status, the
 * headers clients read, JSON by value after the conformance normalisation), minus the paths the
 * legacy site itself answers differently when asked twice; then per route the match rate and each
 * distinct difference once (where, both values, a curl line per side), and per namespace totals.
 */
import { formatDifferences, normaliseString, type Difference, type NormaliseOptions } from '../../src/compare/diff.ts';
import { differences, generalise } from '../../src/backends/shadow.ts';
import type { Answer } from './clients.ts';

export interface Example {
  difference: Difference;
  legacyCurl: string;
  lintelCurl: string;
  count: number;
}

interface RouteTally {
  namespace: string;
  sent: number;
  matched: number;
  /** Distinct differences by route-independent key (generalised path, and the values for status and headers). */
  classes: Map<string, Example>;
}

export class Tally {
  readonly routes = new Map<string, RouteTally>();
  /** Per route, the paths the legacy site answers differently when asked the same read twice. */
  readonly noise = new Map<string, Set<string>>();
  skipped = 0;

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

  add(route: string, namespace: string, found: Difference[], curls: { legacy: string; lintel: string }): Example[] {
    const t = this.routes.get(route) ?? { namespace, sent: 0, matched: 0, classes: new Map() };
    this.routes.set(route, t);
    t.sent++;
    if (found.length === 0) t.matched++;
    const fresh: Example[] = [];
    for (const d of found) {
      const k = classKey(d);
      const known = t.classes.get(k);
      if (known) known.count++;
      else {
        const e = { difference: d, legacyCurl: curls.legacy, lintelCurl: curls.lintel, count: 1 };
        t.classes.set(k, e);
        fresh.push(e);
      }
    }
    return fresh;
  }

  byNamespace(): Map<string, { sent: number; matched: number }> {
    const out = new Map<string, { sent: number; matched: number }>();
    for (const t of this.routes.values()) {
      const row = out.get(t.namespace) ?? { sent: 0, matched: 0 };
      row.sent += t.sent;
      row.matched += t.matched;
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

/** Status and header differences are told apart by their values; body differences by where they are. */
function classKey(d: Difference): string {
  const path = generalise(d.path);
  return d.path === 'status' || d.path.startsWith('header ') ? `${path} ${JSON.stringify(d.expected)} ${JSON.stringify(d.actual)}` : path;
}

const pct = (m: number, n: number) => (n === 0 ? '-' : `${((100 * m) / n).toFixed(1)}%`);

export function printReport(tally: Tally, opts: { examples: number }): string[] {
  const lines: string[] = [];
  const routes = [...tally.routes].sort(([a, x], [b, y]) => x.namespace.localeCompare(y.namespace) || a.localeCompare(b));
  for (const [route, t] of routes) {
    lines.push(`${route}  ${t.matched}/${t.sent} (${pct(t.matched, t.sent)})`);
    for (const e of [...t.classes.values()].sort((a, b) => b.count - a.count).slice(0, opts.examples)) {
      const [what] = formatDifferences([e.difference]);
      lines.push(`  ×${e.count} ${what}`, `    legacy: ${e.legacyCurl}`, `    lintel: ${e.lintelCurl}`);
    }
  }
  lines.push('', 'namespace            identical / sent');
  let sent = 0;
  let matched = 0;
  for (const [ns, row] of [...tally.byNamespace()].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`${ns.padEnd(20)} ${String(row.matched).padStart(6)} / ${String(row.sent).padEnd(6)} ${pct(row.matched, row.sent)}`);
    sent += row.sent;
    matched += row.matched;
  }
  lines.push(`${'total'.padEnd(20)} ${String(matched).padStart(6)} / ${String(sent).padEnd(6)} ${pct(matched, sent)}`);
  if (tally.skipped) lines.push(`(${tally.skipped} generated writes skipped: no record made during the run to change yet)`);
  return lines;
}
