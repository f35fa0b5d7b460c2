/**
 * The recorded requests of the legacy site (`fixtures/captures/`) and the deviations listed for
 * them (DEVIATIONS.md): one harness that loads them and replays a recorded request into a test app,
 * for the conformance runner, the recorded origin and the namespaces' capture tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Deviations, loadDeviations } from '../../src/compare/deviations.ts';
import type { TestApp } from './app.ts';

export const CAPTURES_DIR = fileURLToPath(new URL('../../fixtures/captures', import.meta.url));
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

let listed: Deviations | undefined;
/** The ids of the deviations DEVIATIONS.md lists for a capture. */
export const deviationsOf = (c: Capture): string[] => (listed ??= loadDeviations()).forCapture(c.seq, c.response).map((l) => l.id);

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
