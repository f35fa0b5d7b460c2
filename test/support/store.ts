/**
 * The store for a test file: embedded PGlite in memory, or, in the PostgreSQL lane
 * (LINTEL_TEST_DATABASE_URL set), a throwaway database on that server, dropped at close.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openStore, type OpenStore } from '../../src/store/store.ts';

export const storeLane = process.env.LINTEL_TEST_DATABASE_URL ? 'postgres' : 'pglite';

export async function testStore(): Promise<OpenStore> {
  const url = process.env.LINTEL_TEST_DATABASE_URL;
  if (!url) return openStore({ databaseUrl: undefined, dataDir: '', poolSize: 1 }, { inMemory: true });
  const name = `lintel_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  const store = await openStore({ databaseUrl: u.toString(), dataDir: '', poolSize: 4 });
  return {
    ...store,
    async close() {
      await store.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
