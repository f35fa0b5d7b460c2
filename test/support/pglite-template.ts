/**
 * Vitest globalSetup: one migrated PGlite data folder, made once per run and written to a file,
 * that every PGlite test store starts from (testStore), instead of each making an empty cluster
 * (initdb) and migrating it. Its path reaches the test workers through the environment.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate } from '../../src/store/migrate.ts';
import { openPglite } from '../../src/store/sql.ts';

export const TEMPLATE_ENV = 'LINTEL_TEST_PGLITE_TEMPLATE';

export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lintel-template-'));
  const db = await openPglite(null);
  try {
    await migrate(db);
    const file = path.join(dir, 'pglite.tar');
    writeFileSync(file, Buffer.from(await (await db.dumpDataDir!()).arrayBuffer()));
    process.env[TEMPLATE_ENV] = file;
  } finally {
    await db.close();
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
