/**
 * Redirection import: ms per 10k rows of a CSV import through `POST import/file/{group}` (the whole
 * request: upload, parse, sanitize, duplicate checks, writes), into an empty store and against as
 * many existing redirects (`duplicate_mode=skip`, so every row is looked up), each as a ratio to a
 * raw multi-row SQL insert of the same rows measured in the same run. In-memory store.
 * `IMPORT_ROWS` (default 30000) sets the file size.
 */
import { performance } from 'node:perf_hooks';
import { testApp, type TestApp } from '../test/support/app.ts';
import { runIfMain } from './lib.ts';

type Row = Record<string, unknown> & { name: string };

const ROWS = Number(process.env.IMPORT_ROWS ?? 30_000);
const RAW_CHUNK = 1_000;

const csv = (from: number, n: number) => Array.from({ length: n }, (_, i) => `/import-${from + i},/target-${from + i}`).join('\n') + '\n';

function upload(content: string, fields: Record<string, string>, authorization: string) {
  const b = 'benchboundary';
  const parts = Object.entries(fields).map(([k, v]) => `--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  parts.push(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="bench.csv"\r\nContent-Type: text/csv\r\n\r\n${content}\r\n`);
  return { payload: `${parts.join('')}--${b}--\r\n`, headers: { authorization, 'content-type': `multipart/form-data; boundary=${b}` } };
}

async function timedImport(app: TestApp, content: string, fields: Record<string, string> = {}, rows = ROWS): Promise<number> {
  // The file is larger than the default body limit; the bench app raises it.
  const req = upload(content, fields, await app.auth('administrator'));
  const start = performance.now();
  const res = await app.server.inject({ method: 'POST', url: '/wp-json/redirection/v1/import/file/1', ...req });
  const ms = performance.now() - start;
  if (res.statusCode !== 200 || res.json().imported !== rows) throw new Error(`import: ${res.statusCode} ${res.body.slice(0, 200)}`);
  return ms;
}

/** The same rows as one multi-row INSERT per 1000 rows in one transaction: the floor an import can approach. */
async function rawInsert(app: TestApp, rows = ROWS): Promise<number> {
  const start = performance.now();
  await app.store.transaction(async (s) => {
    for (let from = 0; from < rows; from += RAW_CHUNK) {
      const n = Math.min(RAW_CHUNK, rows - from);
      const values: unknown[] = [];
      const tuples = Array.from({ length: n }, (_, i) => {
        const url = `/import-${from + i}`;
        values.push(url, JSON.stringify({ url: `/target-${from + i}` }), i);
        const p = values.length;
        return `($${p - 2}, $${p - 2}, null, false, $${p}, 0, null, 1, true, 'url', 301, $${p - 1}::jsonb, null, 'url')`;
      });
      await s.sql.query(`insert into redirection_items (url, match_url, match_data, regex, position, hits, last_access, group_id, enabled,
        action_type, action_code, action_data, title, match_type) values ${tuples.join(', ')}`, values);
    }
  });
  return performance.now() - start;
}

const per10k = (ms: number) => Math.round((ms / ROWS) * 10_000);

export async function run(): Promise<Row[]> {
  const env = { LINTEL_BODY_LIMIT: String(16 * 1024 * 1024) };
  const rows: Row[] = [];
  // Each store first takes a small load and is emptied again, so neither side pays the warm-up.
  const WARM_UP = 1_000;
  const raw = await testApp({ env });
  let rawMs: number;
  try {
    await rawInsert(raw, WARM_UP);
    await raw.store.redirection.wipe();
    rawMs = await rawInsert(raw);
  } finally {
    await raw.close();
  }
  rows.push({ name: `raw multi-row INSERT, ${ROWS} rows (baseline)`, ms: Math.round(rawMs), ms_per_10k: per10k(rawMs), ratio: 1 });
  const app = await testApp({ env });
  try {
    await timedImport(app, csv(0, WARM_UP), {}, WARM_UP);
    await app.store.redirection.wipe();
    const empty = await timedImport(app, csv(0, ROWS));
    rows.push({ name: `redirection import ${ROWS} rows (empty)`, ms: Math.round(empty), ms_per_10k: per10k(empty), ratio: Math.round((empty / rawMs) * 100) / 100 });
    const against = await timedImport(app, csv(ROWS, ROWS), { duplicate_mode: 'skip' });
    rows.push({ name: `redirection import ${ROWS} rows (against ${ROWS} existing, skip duplicates)`, ms: Math.round(against), ms_per_10k: per10k(against), ratio: Math.round((against / rawMs) * 100) / 100 });
  } finally {
    await app.close();
  }
  return rows;
}

// Run directly: `node bench/redirection-import.ts`.
await runIfMain(import.meta.url, run);
