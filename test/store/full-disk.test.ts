/**
 * Embedded PGlite on a full disk (issue 19 item 1): PGlite spins forever inside a statement whose
 * checkpoint or WAL write fails with ENOSPC, so Lintel never runs one while the data directory's
 * file system is nearly full: requests answer 503 rest_store_unavailable, the server keeps
 * answering, and writes succeed again once space returns. Needs a small file system of its own
 * (a tmpfs), so it runs as root only.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openStore } from '../../src/store/store.ts';
import { testApp, type TestApp } from '../support/app.ts';

const isRoot = process.getuid?.() === 0;

describe.skipIf(!isRoot)('embedded PGlite on a full disk (needs root, to mount a tmpfs)', () => {
  let mount: string;
  let app: TestApp;
  let admin: string;
  beforeAll(async () => {
    mount = mkdtempSync(path.join(tmpdir(), 'lintel-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=160m', 'tmpfs', mount]);
    const env = { LINTEL_DATA_DIR: mount, LINTEL_DATA_DIR_MIN_FREE_MB: '32', LINTEL_DEMO_DATA: 'false' };
    app = await testApp({ env, store: await openStore(loadConfig(env)) });
    admin = await app.auth('administrator');
  });
  afterAll(async () => {
    await app?.close();
    execFileSync('umount', [mount]);
    rmSync(mount, { recursive: true, force: true });
  });

  const write = (url: string) =>
    app.server.inject({ method: 'POST', url: '/wp-json/redirection/v1/redirect', headers: { authorization: admin }, payload: { url, match_type: 'url', action_type: 'url', action_code: 301, action_data: { url: '/x/' }, group_id: 1 } });

  it('answers 503 rest_store_unavailable while the disk is full, keeps serving, and writes again once space returns', async () => {
    expect((await write('/before-full')).statusCode).toBe(200);
    const fs = statfsSync(mount);
    // Leaves 8 MB: below the 32 MB Lintel keeps, enough for PGlite to be harmed if it were asked to write.
    writeFileSync(path.join(mount, 'filler'), Buffer.alloc(fs.bavail * fs.bsize - 8 * 1024 * 1024));
    const refused = await write('/while-full');
    expect(refused.statusCode).toBe(503);
    expect(refused.json().code).toBe('rest_store_unavailable');
    expect((await app.server.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect((await app.server.inject({ url: '/readyz' })).statusCode).toBe(503);
    rmSync(path.join(mount, 'filler'));
    expect((await write('/after-full')).statusCode).toBe(200);
    const urls = (await app.store.sql.query<{ url: string }>(`select url from redirection_items where url like '%full'`)).map((r) => r.url).sort();
    expect(urls).toEqual(['/after-full', '/before-full']);
  });
});
