/**
 * One process per PGlite data directory. PGlite has no lock of its own: a second process opening
 * the same folder (`lintel user create` beside `npm start`) runs its own database on the same files,
 * and its writes are invisible to the first and lost at its next checkpoint. The lock is a file
 * holding the owner's pid; a lock whose pid is dead (a crash, SIGKILL) is taken over.
 */
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'lintel.pid';

export class DataDirLocked extends Error {
  readonly dataDir: string;
  readonly pid: number;
  constructor(
    dataDir: string,
    pid: number,
  ) {
    super(
      `Lintel is running on this data directory (${dataDir}, pid ${pid}): stop it, or use another LINTEL_DATA_DIR. ` +
        `If no Lintel is running, delete ${path.join(dataDir, LOCK_FILE)}.`,
    );
    this.dataDir = dataDir;
    this.pid = pid;
  }
}

export interface DataDirLock {
  /** Removes the lock file (when it is still ours); safe to call more than once. */
  release(): void;
}

/** Folders this process holds: a lock file with our own pid is ours only if listed here (else a previous process had our pid). */
const held = new Set<string>();

/** The pid holding the lock on `dataDir`, when that process is alive; null otherwise. */
export function lockHolder(dataDir: string): number | null {
  const pid = readPid(path.join(dataDir, LOCK_FILE));
  if (pid === process.pid) return held.has(path.resolve(dataDir)) ? pid : null;
  return pid !== null && alive(pid) ? pid : null;
}

/** Takes the lock on `dataDir` or throws `DataDirLocked`; released by `release()` or at process exit. */
export function lockDataDir(dataDir: string): DataDirLock {
  const dir = path.resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  // The pid is written to a private file first and then linked into place: the lock file appears
  // atomically *with* its content (`wx` alone would let another process read it empty, mid-write).
  const mine = `${file}.${process.pid}`;
  writeFileSync(mine, `${process.pid}\n`);
  try {
    for (;;) {
      try {
        linkSync(mine, file);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const holder = lockHolder(dir);
      if (holder !== null) throw new DataDirLocked(dir, holder);
      // Stale (its process is gone) or unreadable: take it over.
      unlinkQuietly(file);
    }
  } finally {
    unlinkQuietly(mine);
  }
  held.add(dir);
  let holding = true;
  const release = () => {
    if (!holding) return;
    holding = false;
    held.delete(dir);
    process.off('exit', release);
    if (readPid(file) === process.pid) unlinkQuietly(file);
  };
  process.on('exit', release);
  return { release };
}

function readPid(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}
