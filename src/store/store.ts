/**
 * The content store port. Translators see only this: repositories by namespace, and
 * `transaction`, which hands them a store whose every repository writes in one transaction.
 */
import type { Config } from '../config.ts';
import { AuthSessionRepo } from './auth-sessions.ts';
import { ImportCheckpointRepo } from './import-checkpoints.ts';
import { migrate } from './migrate.ts';
import { OptionsRepo, optionsCache, type OptionsCache } from './options.ts';
import { RedirectionStore } from './redirection/index.ts';
import { redirectPages, type RedirectPages } from './redirection/redirects.ts';
import { ChangeFeed, CHANGES_CHANNEL } from './change-feed.ts';
import { openPglite, openPostgres, type PoolStats, type Sql, type SqlDriver } from './sql.ts';

/** What a store call can fail with, besides a bug: the store is down, or a unique value is taken. */
export { StoreUnavailable, UniqueViolation } from './sql.ts';
import { UserRepo } from './users.ts';
import { ShadowRepo } from './shadow.ts';
import { NamespaceModeRepo } from './namespace-modes.ts';
import { CalendarRepo, calendarCaches, type CalendarCaches } from './calendar.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { LoginThrottleRepo } from './login-throttle.ts';
import { HistoryRepo } from './history.ts';
import path from 'node:path';
import { SiteSecretRepo } from './site-secrets.ts';
import { FormsRepo } from './forms.ts';
import { DownloadsRepo } from './downloads.ts';
import { IdempotencyRepo } from './idempotency.ts';
import { LegacyPostRepo } from './legacy-posts.ts';

export interface Store {
  readonly users: UserRepo;
  readonly options: OptionsRepo;
  readonly authSessions: AuthSessionRepo;
  readonly redirection: RedirectionStore;
  readonly calendar: CalendarRepo;
  readonly loginThrottle: LoginThrottleRepo;
  readonly secrets: SiteSecretRepo;
  readonly forms: FormsRepo;
  readonly downloads: DownloadsRepo;
  readonly importCheckpoints: ImportCheckpointRepo;
  readonly shadow: ShadowRepo;
  readonly modes: NamespaceModeRepo;
  readonly history: HistoryRepo;
  readonly idempotency: IdempotencyRepo;
  /** The legacy site's other posts (not calendar records), which share the post ID space. */
  readonly legacyPosts: LegacyPostRepo;
  /** Runs `fn` in one transaction; joins the caller's transaction when there is one. */
  transaction<T>(fn: (store: Store) => Promise<T>): Promise<T>;
  readonly inTransaction: boolean;
  /** Raw SQL, for the repositories' own tests and the health check; translators never use it. */
  readonly sql: Sql;
}

/** Per-process caches shared by every store view of one driver, kept until the change feed announces a write to what they hold. */
interface StoreCaches {
  options: OptionsCache;
  calendar: CalendarCaches;
  redirectPages: RedirectPages;
}

/** A feed that never goes live (a bare `storeOn`) keeps nothing but the calendar's slug cache. */
const storeCaches = (feed: ChangeFeed): StoreCaches => ({ options: optionsCache(feed), calendar: calendarCaches(feed), redirectPages: redirectPages(feed) });

export function storeOn(sql: Sql, caches: StoreCaches = storeCaches(new ChangeFeed())): Store {
  const options = new OptionsRepo(sql, caches.options);
  return {
    sql,
    users: new UserRepo(sql),
    options,
    authSessions: new AuthSessionRepo(sql),
    redirection: new RedirectionStore(sql, options, caches.redirectPages),
    calendar: new CalendarRepo(sql, caches.calendar),
    loginThrottle: new LoginThrottleRepo(sql),
    secrets: new SiteSecretRepo(sql),
    forms: new FormsRepo(sql),
    downloads: new DownloadsRepo(sql),
    importCheckpoints: new ImportCheckpointRepo(sql),
    shadow: new ShadowRepo(sql),
    modes: new NamespaceModeRepo(sql),
    history: new HistoryRepo(sql),
    idempotency: new IdempotencyRepo(sql),
    legacyPosts: new LegacyPostRepo(sql),
    inTransaction: sql.inTransaction,
    transaction: (fn) => sql.transaction((tx) => fn(storeOn(tx, caches))),
  };
}

export interface OpenStore extends Store {
  readonly kind: SqlDriver['kind'];
  /** Whether the store answers within `timeoutMs`. */
  ping(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
  /** Committed writes by topic, from this process and every replica sharing the store. */
  readonly changes: ChangeFeed;
  poolStats?(): PoolStats;
  /** Statements run since the store opened. */
  statements(): number;
}

type StoreConfig = Pick<Config, 'databaseUrl' | 'dataDir' | 'dataDirMinFreeMb' | 'poolSize' | 'storeConnectTimeoutMs' | 'storeStatementTimeoutMs' | 'storeIdleInTransactionTimeoutMs'>;

/**
 * Opens the configured store (PGlite under the data folder, or DATABASE_URL) and migrates it.
 * A PGlite folder is locked to this process (throws `DataDirLocked` when another one runs on it).
 * `inMemoryDriver`: an in-memory PGlite already open, instead of opening one (test/support/store.ts
 * lends one to test store after test store: a PGlite start costs 0.7 CPU-seconds).
 */
export async function openStore(config: StoreConfig, opts: { inMemory?: boolean; template?: Blob; inMemoryDriver?: SqlDriver } = {}): Promise<OpenStore> {
  const limits = { poolSize: config.poolSize, connectTimeoutMs: config.storeConnectTimeoutMs, statementTimeoutMs: config.storeStatementTimeoutMs, idleInTransactionTimeoutMs: config.storeIdleInTransactionTimeoutMs };
  const lock = config.databaseUrl || opts.inMemory || opts.inMemoryDriver ? null : lockDataDir(config.dataDir);
  let driver: SqlDriver;
  let unlisten: () => Promise<void>;
  const changes = new ChangeFeed();
  try {
    driver = opts.inMemoryDriver
      ?? (config.databaseUrl
        ? await openPostgres(config.databaseUrl, limits)
        : await openPglite(opts.inMemory ? null : path.join(config.dataDir, 'pglite'), { template: opts.template, minFreeBytes: config.dataDirMinFreeMb * 1024 * 1024 }));
    if (config.databaseUrl) {
      // Migrations run on a connection of their own without the statement limits: an index build, or a
      // replica waiting for another one's migration, may take longer than a request may.
      const unlimited = await openPostgres(config.databaseUrl, { ...limits, poolSize: 1, statementTimeoutMs: 0, idleInTransactionTimeoutMs: 0 });
      try {
        await migrate(unlimited);
      } finally {
        await unlimited.close();
      }
    } else {
      await migrate(driver);
    }
    unlisten = await driver.listen(CHANGES_CHANNEL, (topic) => changes.changed(topic), (live) => changes.connected(live));
  } catch (e) {
    lock?.release();
    throw e;
  }
  return {
    ...storeOn(driver, storeCaches(changes)),
    kind: driver.kind,
    // Its own short limit: a frozen server must not hold the readiness probe for the statement timeout.
    ping: async (timeoutMs) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, timeoutMs, false)));
      const answered = driver.query('select 1').then(() => true, () => false);
      try {
        return await Promise.race([answered, late]);
      } finally {
        clearTimeout(timer);
      }
    },
    changes,
    close: async () => {
      try {
        await unlisten();
        await driver.close();
      } finally {
        lock?.release();
      }
    },
    statements: driver.statements,
    ...(driver.poolStats ? { poolStats: driver.poolStats } : {}),
  };
}
