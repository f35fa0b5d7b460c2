/**
 * Lintel as a child process, started the way users start it (`node bin/lintel.js ...`), on a
 * throwaway store: a PGlite folder, or in the PostgreSQL lane a throwaway database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { storeLane, throwawayDatabase } from './store.ts';
import { copyPgliteTemplate } from './templates.ts';
import { scaled } from './time.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'bin/lintel.js');

export interface Sandbox {
  env: Record<string, string>;
  /** Runs a command to completion. */
  run(args: string[], extraEnv?: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Starts a long-running command; `output()` is everything it printed so far. */
  start(args: string[], extraEnv?: Record<string, string>): { child: ChildProcess; stdout(): string; stderr(): string; exited: Promise<number | null> };
  remove(): Promise<void>;
}

/**
 * A data folder (and in the PostgreSQL lane a database) for Lintel processes. Its store starts migrated, a copy
 * of the run's template (templates.ts), as the PostgreSQL lane's databases do; `fresh` leaves the data folder
 * empty, for the first start a user gets (initdb and every migration, in the process itself).
 */
export async function sandbox(extra: Record<string, string> = {}, opts: { fresh?: boolean } = {}): Promise<Sandbox> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lintel-'));
  const db = storeLane === 'postgres' ? await throwawayDatabase(undefined, { empty: opts.fresh }) : null;
  if (!db && !opts.fresh) copyPgliteTemplate(dir);
  // Only what Lintel needs: nothing of the test runner's own environment leaks into the process.
  const env: Record<string, string> = {
    PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    HOME: process.env.HOME ?? dir,
    LINTEL_DATA_DIR: dir,
    HOST: '127.0.0.1',
    ...(db ? { DATABASE_URL: db.url } : {}),
    ...extra,
  };
  const running = new Set<ChildProcess>();
  const start = (args: string[], extraEnv: Record<string, string> = {}) => {
    // The bin file itself, as a user's shell runs it (its shebang line and Node flags): PATH finds this Node first.
    const child = spawn(BIN, args, { cwd: ROOT, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    child.on('exit', () => running.delete(child));
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, stdout: () => out, stderr: () => err, exited };
  };
  return {
    env,
    start,
    async run(args, extraEnv) {
      const p = start(args, extraEnv);
      const code = await p.exited;
      return { code, stdout: p.stdout(), stderr: p.stderr() };
    },
    async remove() {
      // A test that failed or timed out before stopping its server leaves it running: it would outlive the run.
      await Promise.all([...running].map((child) => new Promise((resolve) => child.once('exit', resolve).kill('SIGKILL'))));
      await db?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until a started server is ready (its "Lintel ready" log line) and returns the address it listens at. */
export async function listening(proc: ReturnType<Sandbox['start']>, timeoutMs = scaled(60_000)): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const messages = proc
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => String((JSON.parse(line) as { msg?: string }).msg));
    const address = messages.map((m) => m.match(/^Server listening at (http:\/\/127\.0\.0\.1:\d+)$/)?.[1]).find(Boolean);
    if (address && messages.includes('Lintel ready')) return address;
    if (proc.child.exitCode !== null) throw new Error(`lintel exited (${proc.child.exitCode}) before it was ready:\n${proc.stdout()}\n${proc.stderr()}`);
    if (Date.now() > deadline) throw new Error(`lintel did not get ready:\n${proc.stdout()}\n${proc.stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
