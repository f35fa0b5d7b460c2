/** The recorded requests of the legacy site (`fixtures/captures/`), as the conformance runner and the recorded origin read them. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
