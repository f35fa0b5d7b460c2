/**
 * The store for a test file: embedded PGlite in memory, or, in the PostgreSQL lane
 * (LINTEL_TEST_DATABASE_URL set), a throwaway database on that server, dropped at close.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadConfig, type Config } from '../../src/config.ts';
import { openStore, type OpenStore } from '../../src/store/store.ts';
import { adminStatement, PG_TEMPLATE_ENV, TEMPLATE_ENV } from './templates.ts';

export const storeLane = process.env.LINTEL_TEST_DATABASE_URL ? 'postgres' : 'pglite';

/**
 * A new database on the PostgreSQL lane's server, or on `server` (for tests and the bench that start Lintel as a
 * process): a copy of the run's migrated template when there is one, unless `empty`.
 */
export async function throwawayDatabase(server = process.env.LINTEL_TEST_DATABASE_URL, opts: { empty?: boolean } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  if (!server) throw new Error('throwawayDatabase needs LINTEL_TEST_DATABASE_URL');
  const name = `lintel_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = (statement: string) => adminStatement(server, statement);
  // A copy of the run's migrated template (templates.ts) when on the lane's server: opening it migrates nothing.
  const template = !opts.empty && server === process.env.LINTEL_TEST_DATABASE_URL ? process.env[PG_TEMPLATE_ENV] : undefined;
  await admin(`create database ${name}${template ? ` template ${template}` : ''}`);
  const u = new URL(server);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/** The store settings of a default configuration, with these overrides (timeouts and the like stay as shipped). */
export function storeConfig(over: Partial<Config>): Config {
  return { ...loadConfig({}), ...over };
}

/** The migrated data folder of the run (templates.ts), read once per worker; none outside vitest (the bench). */
let template: Blob | undefined;
function pgliteTemplate(): Blob | undefined {
  const file = process.env[TEMPLATE_ENV];
  if (file && !template) template = new Blob([readFileSync(file)]);
  return template;
}

export async function testStore(): Promise<OpenStore> {
  if (storeLane === 'pglite') return openStore(storeConfig({ databaseUrl: undefined, dataDir: '', poolSize: 1 }), { inMemory: true, template: pgliteTemplate() });
  const db = await throwawayDatabase();
  const store = await openStore(storeConfig({ databaseUrl: db.url, dataDir: '', poolSize: 4 }));
  return {
    ...store,
    async close() {
      await store.close();
      await db.drop();
    },
  };
}
