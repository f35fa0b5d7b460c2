/**
 * Imports larger than one batch: positions, duplicate checks and overwrites carry across batches as
 * they would row by row, and a 30k-row import leaves the server answering other requests meanwhile.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RedirectRepo } from '../../src/store/redirection/redirects.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { scaled } from '../support/time.ts';

const API = '/wp-json/redirection/v1';
let app: TestApp;
let admin: string;

beforeAll(async () => {
  app = await testApp();
  admin = await app.auth('administrator');
});
afterAll(() => app.close());
beforeEach(() => app.store.redirection.wipe());

function multipart(content: string, fields: Record<string, string> = {}) {
  const b = 'lintelboundary';
  const parts = Object.entries(fields).map(([k, v]) => `--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  parts.push(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="rows.csv"\r\nContent-Type: text/csv\r\n\r\n${content}\r\n`);
  return { payload: `${parts.join('')}--${b}--\r\n`, headers: { authorization: admin, 'content-type': `multipart/form-data; boundary=${b}` } };
}

/** Uploads the lines as `rows.csv` (the `format` field names another format). */
async function importCsv(lines: string[], fields: Record<string, string> = {}, group = 1) {
  const res = await app.server.inject({ method: 'POST', url: `${API}/import/file/${group}`, ...multipart(`${lines.join('\n')}\n`, fields) });
  expect(res.statusCode).toBe(200);
  return res.json() as { imported: number; skipped?: number };
}

const rows = (from: number, n: number, prefix = '/bulk') => Array.from({ length: n }, (_, i) => `${prefix}-${from + i},/to-${from + i}`);
const items = (where: string, params: unknown[] = []) =>
  app.store.sql.query<{ url: string; position: number; group_id: number; action_data: { url: string } }>(
    `select url, position, group_id, action_data from redirection_items where ${where} order by id`, params);

describe('imports over several batches', () => {
  it('new redirects take the next positions of their group, in file order', async () => {
    await importCsv(rows(0, 3, '/first'));
    expect((await importCsv(rows(0, 2500))).imported).toBe(2500);
    const bulk = await items(`url like '/bulk-%'`);
    expect(bulk.map((r) => r.url)).toEqual(rows(0, 2500).map((l) => l.split(',')[0]));
    expect(bulk.map((r) => r.position)).toEqual(Array.from({ length: 2500 }, (_, i) => 3 + i));
  });

  it('deduplicate keeps the first of a source repeated in a later batch', async () => {
    const lines = rows(0, 2100);
    lines[2050] = '/bulk-5,/second';
    expect(await importCsv(lines, { deduplicate: 'true' })).toEqual({ imported: 2099, skipped: 1 });
    expect((await items(`url = '/bulk-5'`)).map((r) => r.action_data.url)).toEqual(['/to-5']);
  });

  it('skip leaves every source that existed before the import, in every batch', async () => {
    await importCsv(rows(0, 1500));
    expect(await importCsv(rows(0, 3000), { duplicate_mode: 'skip' })).toEqual({ imported: 1500, skipped: 1500 });
    expect(await items('true')).toHaveLength(3000);
    // Sources the import itself added are not duplicates of each other: allow mode adds both.
    expect(await importCsv(['/twice,/a', '/twice,/b'], { duplicate_mode: 'skip' })).toEqual({ imported: 2 });
  });

  it('overwrite replaces the existing redirect in place, moves it into the import group, and later positions count it', async () => {
    await importCsv(['/moved,/old-target'], {}, 2);
    await importCsv(rows(0, 10, '/first'));
    const lines = rows(0, 1500);
    lines[1200] = '/moved,/new-target';
    expect(await importCsv(lines, { duplicate_mode: 'overwrite' })).toEqual({ imported: 1500 });
    const [moved] = await items(`url = '/moved'`);
    expect(moved).toMatchObject({ group_id: 1, position: 0, action_data: { url: '/new-target' } });
    expect(await items('true')).toHaveLength(1 + 10 + 1499);
    // Group 1 held 10 + 1200 new rows when the redirect moved in: the next row is the 1212th.
    expect((await items(`url = '/bulk-1201'`))[0]!.position).toBe(10 + 1200 + 1);
    // Group 2 is empty again: its next redirect is at position 0.
    await importCsv(['/into-two,/x'], {}, 2);
    expect((await items(`url = '/into-two'`))[0]!.position).toBe(0);
  });
});

describe('values that array literals treat specially', () => {
  it('are stored as sent: quotes, backslashes, braces, commas and the word NULL', async () => {
    const doc = {
      groups: [{ id: 1, name: 'Redirections', module_id: 1, enabled: true }],
      redirects: [
        { url: '/a"b\\c,{d}', match_type: 'url', action_type: 'url', action_code: 301, action_data: { url: '/x"y' }, title: 'NULL', group_id: 1 },
        { url: '/plain', match_type: 'url', action_type: 'url', action_code: 301, action_data: { url: '/p' }, title: '{"quoted"}', group_id: 1 },
      ],
    };
    expect(await importCsv([JSON.stringify(doc)], { format: 'json' })).toEqual({ imported: 2 });
    const stored = await app.store.sql.query<{ url: string; title: string | null; action_data: { url: string } }>(
      `select url, title, action_data from redirection_items order by id`);
    expect(stored).toEqual([
      { url: '/a"b\\c,{d}', title: 'NULL', action_data: { url: '/x"y' } },
      { url: '/plain', title: '{"quoted"}', action_data: { url: '/p' } },
    ]);
  });
});

describe('a 30k-row import and other requests', () => {
  it('/healthz answers while the import is still running', { timeout: scaled(120_000) }, async () => {
    await app.server.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.server.address() as AddressInfo;
    const order: string[] = [];
    // The import is under way once its first batch is written; only then is /healthz asked.
    let firstBatch!: () => void;
    const written = new Promise<void>((resolve) => (firstBatch = resolve));
    const insert = RedirectRepo.prototype.insertMany;
    const spy = vi.spyOn(RedirectRepo.prototype, 'insertMany').mockImplementation(function (this: RedirectRepo, batch) {
      firstBatch();
      return insert.call(this, batch);
    });
    try {
      const body = multipart(`${rows(0, 30_000, '/h').join('\n')}\n`);
      const imported = send(port, 'POST', `${API}/import/file/1`, body.headers, body.payload).then((res) => {
        order.push('import');
        return res;
      });
      await written;
      const health = await send(port, 'GET', '/healthz', {});
      order.push('healthz');
      expect(health).toEqual({ status: 200, body: '{"status":"ok"}' });
      const res = await imported;
      expect([res.status, JSON.parse(res.body)]).toEqual([200, { imported: 30_000 }]);
      expect(order).toEqual(['healthz', 'import']);
    } finally {
      spy.mockRestore();
    }
  });
});

/** One HTTP request over a real socket; resolves with the status and body. */
function send(port: number, method: string, path: string, headers: Record<string, string>, payload?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}
