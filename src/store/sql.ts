/**
 * The one SQL dialect (PostgreSQL) over two drivers: embedded PGlite and a `pg` pool.
 * Repositories see only `Sql`: `query`, `transaction` and `afterCommit`; inside a transaction, a nested
 * `transaction` joins the outer one, so a batch can wrap many writes in a single commit.
 * Driver errors that callers act on come out as the store's own types: `StoreUnavailable`, `UniqueViolation`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, statfsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { preparedRunner, statementName } from './pglite-prepared.ts';
import pg from 'pg';
import { pgListen } from './pg-listen.ts';

export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<T[]>;
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  readonly inTransaction: boolean;
  /** Runs `fn` once what was written is committed: at once outside a transaction, once per `fn` when the transaction commits inside one. */
  afterCommit(fn: () => void): void;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface SqlDriver extends Sql {
  readonly kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** Connection pool use (the `pg` pool; PGlite has none). */
  poolStats?(): PoolStats;
  /** Statements run since the store opened, transactions' included (`lintel_store_queries_total`). */
  statements(): number;
  /** The whole data folder as a tarball, to start other in-memory stores from (PGlite only). */
  dumpDataDir?(): Promise<Blob>;
  /** LISTEN on `channel`; `onLive` says whether notifications can arrive. Returns the unlisten. */
  listen(channel: string, onPayload: (payload: string) => void, onLive: (live: boolean) => void): Promise<() => Promise<void>>;
}

// Both drivers return the same JS types: int8 as number (IDs stay below 2^53), dates and
// timestamps without zone as their text, timestamptz as Date.
const INT8 = 20;
const DATE = 1082;
const TIMESTAMP = 1114;
const identity = (v: string) => v;

/**
 * The store cannot be reached or did not answer in time: the server is down, restarting, frozen or
 * refusing connections. Requests answer 503 (`rest_store_unavailable`); the pool reconnects by itself.
 */
export class StoreUnavailable extends Error {
  constructor(cause: unknown) {
    super(`the content store is unavailable: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'StoreUnavailable';
  }
}

/** A write would duplicate a value a unique index guards; `constraint` names the index. */
export class UniqueViolation extends Error {
  readonly constraint: string;
  constructor(constraint: string, cause: unknown) {
    super(`duplicate value for ${constraint}`, { cause });
    this.constraint = constraint;
    this.name = 'UniqueViolation';
  }
}

// Connection failures (socket errors), server shutdown or start-up (57P01-57P03), statement timeout
// or cancel (57014), too many connections (53300), and the connection exception class (08xxx); a
// transaction the server rolled back to break a deadlock (40P01) or a serialization conflict (40001),
// which the same request sent again completes (two batches taking locks in opposite orders).
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', '57P01', '57P02', '57P03', '57014', '53300', '40P01', '40001']);
// What `pg` and `pg-pool` throw, without a code, when a connection ends, a connect or a query times out.
const UNAVAILABLE_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error and is not queryable|Client was closed and is not queryable)/;

/** The driver's error as the store's own type, when it is one the callers act on; otherwise unchanged. */
export function storeError(e: unknown): unknown {
  if (e instanceof StoreUnavailable || e instanceof UniqueViolation || !(e instanceof Error)) return e;
  const { code, constraint } = e as Error & { code?: unknown; constraint?: unknown };
  if (code === '23505') return new UniqueViolation(typeof constraint === 'string' ? constraint : '', e);
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return new StoreUnavailable(e);
  if (UNAVAILABLE_MESSAGE.test(e.message)) return new StoreUnavailable(e);
  return e;
}

const mapped = <T>(p: Promise<T>): Promise<T> => p.catch((e: unknown) => Promise.reject(storeError(e)));

type Runner = <T>(text: string, params?: readonly unknown[]) => Promise<T[]>;

export class JoinedTransaction implements Sql {
  readonly inTransaction = true;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly run: Runner;
  private readonly onCommit = new Set<() => void>();
  constructor(run: Runner) {
    this.run = run;
  }
  /** One connection runs one statement at a time: queries made together (`Promise.all`) wait their turn here. */
  query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
    const result = this.tail.then(() => this.run<T>(text, params));
    this.tail = result.catch(() => {});
    return result;
  }
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    return fn(this);
  }
  afterCommit(fn: () => void): void {
    this.onCommit.add(fn);
  }
  /** The driver committed the transaction. */
  committed(): void {
    for (const fn of this.onCommit) fn();
  }
}

/**
 * PGlite's own defaults size PostgreSQL for a server of its own (160 MB of shared buffers, 5 MB of
 * WAL buffers): in WebAssembly that memory is the process's and is never given back. The store's
 * files are read through the operating system's page cache anyway, so small buffers cost little.
 */
const PGLITE_SETTINGS = ['shared_buffers=16MB', 'wal_buffers=1MB'];
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((s) => ['-c', s])];
const INIT = fileURLToPath(new URL('./pglite-init.ts', import.meta.url));

/** initdb in a child process (pglite-init.ts): its memory leaves with it. */
async function initCluster(dataDir: string): Promise<void> {
  const child = spawn(process.execPath, ['--liftoff-only', INIT, dataDir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`creating the PGlite cluster in ${dataDir} failed (exit ${code}): ${err}`);
}

/**
 * Embedded PGlite under `dataDir` (null: in memory), started from `template` (a data folder's tarball,
 * PGlite's dumpDataDir) instead of an empty cluster when given. PGlite does not survive every write
 * failure of a full disk: when a checkpoint or a WAL segment cannot be written, its WebAssembly
 * Postgres spins inside the query call, synchronously, so the event loop stops (no answer, not even
 * /healthz, and no SIGTERM handler runs) and the instance never recovers. So it is never asked to run
 * a statement while the data directory's file system has less than `minFreeBytes` left: the statement
 * fails with `StoreUnavailable` (503) instead, and runs again once space returns.
 */
export async function openPglite(dataDir: string | null, opts: { template?: Blob; minFreeBytes?: number } = {}): Promise<SqlDriver> {
  const { template, minFreeBytes = 0 } = opts;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  if (dataDir && !template && !existsSync(path.join(dataDir, 'PG_VERSION'))) await initCluster(dataDir);
  const db = await PGlite.create(dataDir ?? undefined, {
    ...(template ? { loadDataDir: template } : {}),
    startParams: PGLITE_START_PARAMS,
    parsers: { [INT8]: (v: string) => Number(v), [DATE]: identity, [TIMESTAMP]: identity },
  });
  const room = dataDir && minFreeBytes > 0 ? () => ensureRoom(dataDir, minFreeBytes) : () => Promise.resolve();
  let statements = 0;
  const run = preparedRunner(db);
  // Inside PGlite's transaction, its statements take the query lock only (the transaction holds the other).
  const wrapTx = () =>
    new JoinedTransaction(async <T>(text: string, params?: readonly unknown[]) => {
      statements++;
      await room();
      return mapped(db._runExclusiveQuery(() => run<T>(text, params)));
    });
  return {
    kind: 'pglite',
    inTransaction: false,
    // As PGlite.query: after any transaction in progress, then its files synced.
    async query<T>(text: string, params?: readonly unknown[]) {
      statements++;
      await room();
      return mapped(db._runExclusiveTransaction(() => db._runExclusiveQuery(async () => {
        try {
          return await run<T>(text, params);
        } finally {
          await db.syncToFs();
        }
      })));
    },
    async transaction<T>(fn: (tx: Sql) => Promise<T>) {
      await room();
      const tx = wrapTx();
      const result = await mapped(db.transaction(() => fn(tx)));
      tx.committed();
      return result;
    },
    afterCommit: (fn) => fn(),
    async listen(channel, onPayload, onLive) {
      const unlisten = await db.listen(channel, onPayload);
      onLive(true);
      return unlisten;
    },
    close: () => db.close(),
    statements: () => statements,
    dumpDataDir: async () => db.dumpDataDir('none'),
  };
}

/**
 * Throws `StoreUnavailable` when the file system holding `dir` has less than `minFree` bytes left for this
 * process. Asked before every statement, so synchronously: the call itself takes microseconds, while the
 * promise form's trip through the thread pool was 5% of the CPU of an uncached archive under load.
 */
async function ensureRoom(dir: string, minFree: number): Promise<void> {
  const fs = statfsSync(dir);
  const free = fs.bavail * fs.bsize;
  if (free < minFree) throw new StoreUnavailable(new Error(`only ${free} bytes left on the file system of ${dir} (LINTEL_DATA_DIR_MIN_FREE_MB)`));
}

export interface PostgresOptions {
  poolSize: number;
  /** Time to open a connection, or to wait for a free one of the pool. */
  connectTimeoutMs: number;
  /** The server cancels a longer statement; the client gives up a little later if the server does not answer at all. 0: no limit. */
  statementTimeoutMs: number;
  /** The server ends a session left idle inside a transaction this long (its locks go with it). 0: no limit. */
  idleInTransactionTimeoutMs: number;
}

// The client-side limit trails the server's, so a live server's own cancel (57014) comes first.
const QUERY_TIMEOUT_MARGIN_MS = 1000;

export async function openPostgres(url: string, o: PostgresOptions): Promise<SqlDriver> {
  const typeParsers = new Map<number, (v: string) => unknown>([
    [INT8, (v) => Number(v)],
    [DATE, identity],
    [TIMESTAMP, identity],
  ]);
  const pool = new pg.Pool({
    connectionString: url,
    max: o.poolSize,
    connectionTimeoutMillis: o.connectTimeoutMs,
    statement_timeout: o.statementTimeoutMs || undefined,
    query_timeout: o.statementTimeoutMs ? o.statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS : undefined,
    idle_in_transaction_session_timeout: o.idleInTransactionTimeoutMs || undefined,
    types: { getTypeParser: ((oid: number, format?: string) => typeParsers.get(oid) ?? pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser },
  });
  // A client that loses its server must not crash the process, idle in the pool or checked out
  // (a transaction's): the query in flight fails with the same error, and the request answers 503.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  await mapped(pool.query('select 1'));
  // Statements outside a transaction (the reads) are prepared once per connection under a name, so
  // the server parses and plans a read's text once instead of on every request; the first
  // PREPARED_TEXTS texts (statementName) get names, later ones run unnamed, so a connection holds a bounded set.
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined) {
      name = statementName(names.size);
      if (name !== undefined) names.set(text, name);
    }
    return name;
  };
  let statements = 0;
  return {
    kind: 'postgres',
    inTransaction: false,
    async query<T>(text: string, params?: readonly unknown[]) {
      statements++;
      return (await mapped(pool.query({ name: nameOf(text), text, values: params as unknown[] }))).rows as T[];
    },
    async transaction<T>(fn: (tx: Sql) => Promise<T>) {
      const client = await mapped(pool.connect());
      const run = async <R>(text: string, params?: readonly unknown[]) => {
        statements++;
        return (await mapped(client.query(text, params as unknown[]))).rows as R[];
      };
      // A client whose connection failed goes back with the error, so the pool drops it instead of reusing it.
      let broken: Error | undefined;
      // Commit and rollback queue behind any statement the caller left running.
      const tx = new JoinedTransaction(run);
      let result: T;
      try {
        await run('begin');
        result = await fn(tx);
        await tx.query('commit');
      } catch (e) {
        if (e instanceof StoreUnavailable) broken = e;
        else await tx.query('rollback').catch((r: Error) => (broken = r));
        throw e;
      } finally {
        client.release(broken);
      }
      tx.committed();
      return result;
    },
    afterCommit: (fn) => fn(),
    listen: (channel, onPayload, onLive) => pgListen(url, channel, onPayload, onLive),
    close: () => pool.end(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    statements: () => statements,
  };
}
