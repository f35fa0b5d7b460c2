/**
 * The recorded requests of the legacy site (`fixtures/captures/`) and the deviations listed for
 * them (DEVIATIONS.md): one harness that loads them and replays a recorded request into a test app,
 * for the conformance runner, the recorded origin and the namespaces' capture tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestApp } from './app.ts';

export const CAPTURES_DIR = fileURLToPath(new URL('../../fixtures/captures', import.meta.url));
export const DEVIATIONS_FILE = fileURLToPath(new URL('../../DEVIATIONS.md', import.meta.url));
/** The legacy site the captures were recorded on: its address is in their links. */
export const ORACLE_BASE = 'http://127.0.0.1:8088';

export interface Capture {
  file: string;
  /** The three-digit number, e.g. "050". */
  seq: string;
  captured_at: string;
  /** How long the legacy site took to answer, in seconds. */
  elapsed_s?: number;
  request: {
    method: string;
    path: string;
    query_string: string;
    body: unknown;
    body_encoding: 'json' | 'form' | 'raw' | null;
    auth: boolean;
    headers: Record<string, string>;
  };
  response: { status: number; headers: Record<string, string>; header_list?: [string, string][]; body: string; body_json?: unknown };
}

export function loadCaptures(dir = CAPTURES_DIR): Capture[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}-.*\.json$/.test(f))
    .sort()
    .map((file) => ({ ...JSON.parse(readFileSync(path.join(dir, file), 'utf8')), file, seq: file.slice(0, 3) }));
}

/**
 * What a DEVIATIONS.md row allows a listed capture to differ in, from its `allows` column:
 * `status`, `header: Allow, Cache-Control` and `body: $.id, $.events[*].description`, joined by `;`.
 * A body path covers everything below it; `*` stands for any run of characters (an array index, a key
 * or part of one). A text body (iCal, exports) is the single value `$`.
 */
export interface Allowance {
  status: boolean;
  /** Lower-case header names. */
  headers: string[];
  body: string[];
}

export interface Listing {
  id: string;
  allows: Allowance;
}

export function parseAllows(cell: string): Allowance {
  const out: Allowance = { status: false, headers: [], body: [] };
  for (const part of cell.replace(/`/g, '').split(';').map((p) => p.trim())) {
    if (part === '' || /^[-–—]$/.test(part)) continue;
    const m = /^(status|header|body)\s*(?::\s*(.*))?$/.exec(part);
    if (!m) throw new Error(`DEVIATIONS.md: cannot read "${part}" in an allows cell (status; header: A, B; body: $.x, $.y[*].z)`);
    if (m[1] === 'status') out.status = true;
    // Header names hold no commas; body paths may (quoted keys), so they are split only before the next `$`.
    else if (m[1] === 'header') out.headers.push(...(m[2] ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean));
    else out.body.push(...(m[2] ?? '').split(/,\s*(?=\$)/).map((b) => b.trim()).filter(Boolean));
  }
  return out;
}

const globRegex = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}(?:$|[.[])`);

/** Whether a difference (a `status`, `header Name` or JSON path) is one the listings allow. */
export function allowedBy(listings: Listing[], path: string): boolean {
  if (path === 'status') return listings.some((l) => l.allows.status);
  if (path.startsWith('header ')) {
    const name = path.slice('header '.length).replace(/ \(.*\)$/, '').toLowerCase();
    return listings.some((l) => l.allows.headers.includes(name));
  }
  return listings.some((l) => l.allows.body.some((p) => globRegex(p).test(path)));
}

/** The DEVIATIONS.md rows naming each capture in their `captures` column, with what each allows. */
export function loadDeviations(file = DEVIATIONS_FILE): Map<string, Listing[]> {
  const byCapture = new Map<string, Listing[]>();
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
    const id = cells[columns.indexOf('id')] ?? '';
    const allows = parseAllows(cells[columns.indexOf('allows')] ?? '');
    // "all" marks an encoding-level difference that the structural comparison already ignores.
    for (const token of (cells[columns.indexOf('captures')] ?? '').split(/[,\s]+/)) {
      const m = /^(\d{3})(?:[-–](\d{3}))?$/.exec(token);
      if (!m) continue;
      for (let n = Number(m[1]); n <= Number(m[2] ?? m[1]); n++) {
        const seq = String(n).padStart(3, '0');
        byCapture.set(seq, [...(byCapture.get(seq) ?? []), { id, allows }]);
      }
    }
  }
  return byCapture;
}

let listed: Map<string, Listing[]> | undefined;
/** The ids of the deviations DEVIATIONS.md lists for a capture. */
export const deviationsOf = (c: Capture): string[] => ((listed ??= loadDeviations()).get(c.seq) ?? []).map((l) => l.id);

/** A fix per deviation id: the recorded answer with the legacy quirk taken out (it may change its argument, a copy). */
export type DeviationFixes = Record<string, (recorded: any) => unknown>;

/** The recorded answer of a capture with the fixes of the deviations listed for it applied. */
export function recordedAnswer(c: Capture, fixes: DeviationFixes): unknown {
  return deviationsOf(c).reduce((answer, id) => fixes[id]?.(answer) ?? answer, structuredClone(c.response.body_json));
}

export function encodeBody(r: Capture['request']): string | undefined {
  if (r.body === null || r.body === undefined) return undefined;
  if (r.body_encoding === 'json') return JSON.stringify(r.body);
  if (r.body_encoding === 'form') {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(r.body as Record<string, unknown>)) {
      for (const item of Array.isArray(v) ? v : [v]) form.append(k, String(item));
    }
    return form.toString();
  }
  return String(r.body);
}

/**
 * Sends a recorded request to the app with its recorded headers; `authorization` stands for the
 * recorded credentials, and `host` is the Host header (the oracle's, where links must name it).
 */
export function replay(app: TestApp, r: Capture['request'], opts: { authorization: string; host?: string }) {
  const headers: Record<string, string> = opts.host ? { Host: opts.host } : {};
  for (const [k, v] of Object.entries(r.headers)) if (k.toLowerCase() !== 'authorization') headers[k] = v;
  if (r.auth) headers.Authorization = opts.authorization;
  return app.server.inject({
    method: r.method as 'GET',
    url: r.path + (r.query_string ? `?${r.query_string}` : ''),
    headers,
    payload: encodeBody(r),
  });
}
