/**
 * What a failed start says: one line naming what failed and where (a database Lintel cannot reach
 * or that refuses it, a file it cannot read, a bad setting), never a stack trace; anything else is
 * a bug and keeps its stack.
 */
import { ConfigError, hidePassword } from './config.ts';
import { StoreUnavailable } from './store/sql.ts';

// SQLSTATE codes are five characters; classes 28 (authorization), 3D (catalog: no such database)
// and 42 (e.g. a role without the rights to migrate) are the server refusing this configuration.
const SQLSTATE = /^[0-9A-Z]{5}$/;
// Node's system errors on a path (a missing file, one Lintel may not read).
const FILE_ERRORS: Record<string, string> = { ENOENT: 'no such file or directory', EACCES: 'permission denied', EISDIR: 'is a directory', ENOTDIR: 'not a directory' };

/** The message for an error at start-up, or null when it is not one a user can act on. */
export function startupFailure(e: unknown, databaseUrl: string | undefined): string | null {
  if (e instanceof ConfigError) return e.message;
  const database = databaseUrl ? `the database at ${hidePassword(databaseUrl)}` : 'the embedded database';
  if (e instanceof StoreUnavailable) return `Cannot start: cannot reach ${database}: ${(e.cause as Error | undefined)?.message ?? e.message}`;
  if (!(e instanceof Error)) return null;
  const { code, path } = e as NodeJS.ErrnoException;
  if (typeof code === 'string' && typeof path === 'string' && code in FILE_ERRORS) return `Cannot start: cannot read ${path}: ${FILE_ERRORS[code]}`;
  if (databaseUrl && typeof code === 'string' && SQLSTATE.test(code)) return `Cannot start: ${database} refused Lintel: ${e.message} (SQLSTATE ${code})`;
  return null;
}
