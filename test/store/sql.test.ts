/** The SQL layer's own promises: driver errors as the store's types, and one statement at a time on a transaction's connection. */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openStore } from '../../src/store/store.ts';
import { JoinedTransaction, StoreUnavailable, storeError, UniqueViolation } from '../../src/store/sql.ts';
import type { OpenStore } from '../../src/store/store.ts';
import { storeLane, testStore, throwawayDatabase } from '../support/store.ts';

const pgError = (code: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(`server said ${code}`), { code, ...extra });

describe('storeError', () => {
  it.each([
    ['a refused connection', pgError('ECONNREFUSED')],
    ['a reset connection', pgError('ECONNRESET')],
    ['an administrator shutdown (57P01)', pgError('57P01')],
    ['a server still starting (57P03)', pgError('57P03')],
    ['a statement timeout (57014)', pgError('57014')],
    ['a connection exception (08006)', pgError('08006')],
    ['a transaction rolled back to break a deadlock (40P01)', pgError('40P01')],
    ['a connection lost mid-query', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('Connection terminated due to connection timeout')],
    ['a full pool that did not free up in time', new Error('timeout exceeded when trying to connect')],
    ['a server that does not answer a query', new Error('Query read timeout')],
  ])('maps %s to StoreUnavailable, keeping the cause', (_, e) => {
    const mapped = storeError(e);
    expect(mapped).toBeInstanceOf(StoreUnavailable);
    expect((mapped as StoreUnavailable).cause).toBe(e);
  });

  it('maps a unique violation (23505) to UniqueViolation with the index name', () => {
    const mapped = storeError(pgError('23505', { constraint: 'calendar_events_slug' }));
    expect(mapped).toBeInstanceOf(UniqueViolation);
    expect((mapped as UniqueViolation).constraint).toBe('calendar_events_slug');
  });

  it('leaves other errors as they are, and mapped ones mapped once', () => {
    const syntax = pgError('42601');
    expect(storeError(syntax)).toBe(syntax);
    const bug = new TypeError('x is undefined');
    expect(storeError(bug)).toBe(bug);
    const down = storeError(pgError('57P01'));
    expect(storeError(down)).toBe(down);
  });
});

describe('JoinedTransaction', () => {
  it('runs the queries it is given together one after another, in order, past a failing one', async () => {
    let running = 0;
    let most = 0;
    const ran: string[] = [];
    const tx = new JoinedTransaction(async <T>(text: string) => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      ran.push(text);
      if (text === 'fail') throw new Error('refused');
      return [{ text }] as T[];
    });
    const results = await Promise.allSettled(['a', 'fail', 'b', 'c'].map((q) => tx.query(q)));
    expect(most).toBe(1);
    expect(ran).toEqual(['a', 'fail', 'b', 'c']);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([[{ text: 'a' }], 'refused', [{ text: 'b' }], [{ text: 'c' }]]);
  });
});

describe('on the store', () => {
  let store: OpenStore;
  beforeAll(async () => {
    store = await testStore();
  });
  afterAll(() => store.close());

  it('answers parallel queries in one transaction rightly, without the driver warning about concurrent queries', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const rows = await store.sql.transaction((tx) =>
        Promise.all(Array.from({ length: 8 }, (_, i) => tx.query<{ n: number }>('select $1::int8 * 10 as n, pg_sleep(0.01)::text as s', [i]))),
      );
      expect(rows.map(([r]) => r.n)).toEqual([0, 10, 20, 30, 40, 50, 60, 70]);
      // Process warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
      expect(warnings.map((w) => w.message)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('runs what waits for a commit once per function when the transaction commits, never after a rollback', async () => {
    const ran: string[] = [];
    const mark = () => ran.push('committed');
    await store.sql.transaction(async (tx) => {
      tx.afterCommit(mark);
      await tx.transaction(async (joined) => joined.afterCommit(mark));
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(['committed']);
    const refused = store.sql.transaction(async (tx) => {
      tx.afterCommit(mark);
      throw new Error('refused');
    });
    await expect(refused).rejects.toThrow('refused');
    expect(ran).toEqual(['committed']);
  });

  it('reports a duplicate key from the real driver as UniqueViolation', async () => {
    await store.sql.query("insert into calendar_terms (taxonomy, name, slug, description, parent) values ('tag', 'Dup', 'dup', '', 0)");
    const err = await store.sql
      .query("insert into calendar_terms (taxonomy, name, slug, description, parent) values ('tag', 'Dup again', 'dup', '', 0)")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UniqueViolation);
    expect((err as UniqueViolation).constraint).toBe('calendar_terms_slug');
  });
});

describe.skipIf(storeLane !== 'postgres')('reads on PostgreSQL', () => {
  it('are prepared once per connection, for a bounded number of texts', async () => {
    const db = await throwawayDatabase();
    const store = await openStore({ ...loadConfig({}), databaseUrl: db.url, poolSize: 1 });
    try {
      const plus = 'select $1::int8 + 1 as n';
      expect(await store.sql.query(plus, [1])).toEqual([{ n: 2 }]);
      expect(await store.sql.query(plus, [41])).toEqual([{ n: 42 }]);
      const prepared = () => store.sql.query<{ name: string; statement: string }>('select name, statement from pg_prepared_statements');
      expect((await prepared()).filter((p) => p.statement === plus)).toEqual([{ name: expect.stringMatching(/^lintel_\d+$/), statement: plus }]);
      for (let i = 0; i < 600; i++) expect(await store.sql.query(`select ${i}::int8 as n`)).toEqual([{ n: i }]);
      expect((await prepared()).length).toBeLessThanOrEqual(500);
    } finally {
      await store.close();
      await db.drop();
    }
  });
});

describe.skipIf(storeLane !== 'postgres')('migrations on PostgreSQL', () => {
  it('wait for another replica migrating for longer than the statement limit, instead of failing', async () => {
    const db = await throwawayDatabase(undefined, { empty: true });
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      // The migration lock (src/store/migrate.ts), held by "another replica" past the 200 ms limit.
      await other.query('select pg_advisory_lock(7340001)');
      const released = new Promise((r) => setTimeout(r, 800)).then(() => other.query('select pg_advisory_unlock(7340001)'));
      const store = await openStore(loadConfig({ DATABASE_URL: db.url, DATABASE_STATEMENT_TIMEOUT_MS: '200' }));
      await released;
      expect((await store.sql.query<{ n: number }>('select count(*)::int8 as n from schema_migrations'))[0].n).toBeGreaterThan(0);
      await store.close();
    } finally {
      await other.end();
      await db.drop();
    }
  });
});
