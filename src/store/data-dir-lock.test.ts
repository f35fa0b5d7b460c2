import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLocked, LOCK_FILE, lockDataDir } from './data-dir-lock.ts';
import { storeConfig } from '../../test/support/store.ts';
import { copyPgliteTemplate } from '../../test/support/templates.ts';
import { openStore } from './store.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'lintel-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('data directory lock', () => {
  it('refuses a second open of the same folder, naming the running pid, until the first is released', () => {
    const first = lockDataDir(dir);
    expect(readFileSync(path.join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    expect(() => lockDataDir(dir)).toThrow(DataDirLocked);
    expect(() => lockDataDir(dir)).toThrow(`Lintel is running on this data directory (${dir}, pid ${process.pid}): stop it`);
    first.release();
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    lockDataDir(dir).release();
  });

  it('refuses while another live process holds it', () => {
    // This test runner's parent is alive for the whole run.
    writeFileSync(path.join(dir, LOCK_FILE), `${process.ppid}\n`);
    expect(() => lockDataDir(dir)).toThrow(`pid ${process.ppid}`);
    expect(readFileSync(path.join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.ppid));
  });

  it('takes over a stale lock whose process is gone, and one left by an earlier process with our pid', () => {
    writeFileSync(path.join(dir, LOCK_FILE), `${deadPid()}\n`);
    const lock = lockDataDir(dir);
    expect(readFileSync(path.join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    // A container restarted after a kill often gets the same pid as before.
    writeFileSync(path.join(dir, LOCK_FILE), `${process.pid}\n`);
    lockDataDir(dir).release();
  });

  it('locks the PGlite folder from openStore until close, and opens no database when refused', async () => {
    const config = storeConfig({ databaseUrl: undefined, dataDir: dir, poolSize: 1 });
    // Started from the run's migrated folder, as test/support/process.ts does: the lock is the subject, not initdb and the migrations.
    copyPgliteTemplate(dir);
    const store = await openStore(config);
    try {
      await expect(openStore(config)).rejects.toThrow(DataDirLocked);
    } finally {
      await store.close();
    }
    const again = await openStore(config);
    await again.close();
  });
});
