/**
 * Vitest globalSetup: the migrated stores every test store starts from, made once per run instead of
 * migrating each test store again.
 * - PGlite: one migrated data folder, written to a file that testStore loads (its path in TEMPLATE_ENV),
 *   and unpacked on disk (its path in FOLDER_TEMPLATE_ENV) for the Lintel processes that sandbox starts:
 *   a fresh data folder costs each of them an initdb and every migration (10 CPU-seconds).
 * - PostgreSQL lane (LINTEL_TEST_DATABASE_URL set): one migrated database on that server that
 *   throwawayDatabase copies (`create database … template …`; its name in PG_TEMPLATE_ENV).
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../src/store/migrate.ts';
import { openPglite, openPostgres } from '../../src/store/sql.ts';

export const TEMPLATE_ENV = 'LINTEL_TEST_PGLITE_TEMPLATE';
export const FOLDER_TEMPLATE_ENV = 'LINTEL_TEST_PGLITE_FOLDER';
export const PG_TEMPLATE_ENV = 'LINTEL_TEST_PG_TEMPLATE';

/** Starts `dataDir`'s embedded store (its `pglite` folder, src/store/store.ts) as a copy of the run's migrated one, when the run has one. */
export function copyPgliteTemplate(dataDir: string): void {
  const folder = process.env[FOLDER_TEMPLATE_ENV];
  if (folder) cpSync(folder, path.join(dataDir, 'pglite'), { recursive: true });
}

export default async function setup(): Promise<() => Promise<void>> {
  // Projects that extend the root configuration each run its globalSetup: the first one's templates serve all.
  if (process.env[TEMPLATE_ENV]) return async () => {};
  const dir = mkdtempSync(path.join(tmpdir(), 'lintel-template-'));
  const db = await openPglite(null);
  try {
    await migrate(db);
    const file = path.join(dir, 'pglite.tar');
    const dump = await db.dumpDataDir!();
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    process.env[TEMPLATE_ENV] = file;
    const folder = path.join(dir, 'pglite');
    await (await openPglite(folder, { template: dump })).close();
    process.env[FOLDER_TEMPLATE_ENV] = folder;
  } finally {
    await db.close();
  }
  const server = process.env.LINTEL_TEST_DATABASE_URL;
  const dropPg = server ? await postgresTemplate(server) : async () => {};
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    await dropPg();
  };
}

/** Runs one statement on its own connection to `server` (database-level statements take no pool). */
export async function adminStatement(server: string, statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: server });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

async function postgresTemplate(server: string): Promise<() => Promise<void>> {
  const name = `lintel_template_${process.pid}`;
  const admin = (statement: string) => adminStatement(server, statement);
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const u = new URL(server);
  u.pathname = `/${name}`;
  // Closed before any copy: PostgreSQL copies a template only while nobody is connected to it.
  const driver = await openPostgres(u.toString(), { poolSize: 1, connectTimeoutMs: 10_000, statementTimeoutMs: 0, idleInTransactionTimeoutMs: 0 });
  try {
    await migrate(driver);
  } finally {
    await driver.close();
  }
  process.env[PG_TEMPLATE_ENV] = name;
  return () => admin(`drop database if exists ${name} with (force)`);
}
