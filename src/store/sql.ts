/**
 * The one SQL dialect (PostgreSQL) over two drivers: embedded PGlite and a `pg` pool.
 * Repositories see only `Sql`: `query` and `transaction`; inside a transaction, a nested
 * `transaction` joins the outer one, so a batch can wrap many writes in a single commit.
 */
import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import pg from 'pg';

export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T[]>;
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  readonly inTransaction: boolean;
}

export interface SqlDriver extends Sql {
  readonly kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

// Both drivers return the same JS types: int8 as number (IDs stay below 2^53), dates and
// timestamps without zone as their text, timestamptz as Date.
const INT8 = 20;
const DATE = 1082;
const TIMESTAMP = 1114;
const identity = (v: string) => v;

class JoinedTransaction implements Sql {
  readonly inTransaction = true;
  constructor(private readonly run: <T>(text: string, params?: readonly unknown[]) => Promise<T[]>) {}
  query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
    return this.run<T>(text, params);
  }
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    return fn(this);
  }
}

export async function openPglite(dataDir: string | null): Promise<SqlDriver> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir ?? undefined, {
    parsers: { [INT8]: (v: string) => Number(v), [DATE]: identity, [TIMESTAMP]: identity },
  });
  const wrapTx = (tx: Transaction) =>
    new JoinedTransaction(async <T>(text: string, params?: readonly unknown[]) => (await tx.query<T>(text, params as unknown[])).rows);
  return {
    kind: 'pglite',
    inTransaction: false,
    async query<T>(text: string, params?: readonly unknown[]) {
      return (await db.query<T>(text, params as unknown[])).rows;
    },
    transaction<T>(fn: (tx: Sql) => Promise<T>) {
      return db.transaction((tx) => fn(wrapTx(tx)));
    },
    close: () => db.close(),
  };
}

export async function openPostgres(url: string, max: number): Promise<SqlDriver> {
  const typeParsers = new Map<number, (v: string) => unknown>([
    [INT8, (v) => Number(v)],
    [DATE, identity],
    [TIMESTAMP, identity],
  ]);
  const pool = new pg.Pool({
    connectionString: url,
    max,
    types: { getTypeParser: ((oid: number, format?: string) => typeParsers.get(oid) ?? pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser },
  });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  await pool.query('select 1');
  return {
    kind: 'postgres',
    inTransaction: false,
    async query<T>(text: string, params?: readonly unknown[]) {
      return (await pool.query(text, params as unknown[])).rows as T[];
    },
    async transaction<T>(fn: (tx: Sql) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn(new JoinedTransaction(async <R>(text: string, params?: readonly unknown[]) => (await client.query(text, params as unknown[])).rows as R[]));
        await client.query('commit');
        return result;
      } catch (e) {
        await client.query('rollback').catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
