/**
 * The content store port. Translators see only this: repositories by namespace, and
 * `transaction`, which hands them a store whose every repository writes in one transaction.
 */
import type { Config } from '../config.ts';
import { AuthSessionRepo } from './auth-sessions.ts';
import { migrate } from './migrate.ts';
import { OptionsRepo, SiteOptionsCache } from './options.ts';
import { RedirectionRepo } from './redirection.ts';
import { openPglite, openPostgres, type Sql, type SqlDriver } from './sql.ts';
import { UserRepo } from './users.ts';
import { CalendarRepo, slugCache, type SlugCache } from './calendar.ts';
import path from 'node:path';

export interface Store {
  readonly users: UserRepo;
  readonly options: OptionsRepo;
  readonly authSessions: AuthSessionRepo;
  readonly redirection: RedirectionRepo;
  readonly calendar: CalendarRepo;
  /** Runs `fn` in one transaction; joins the caller's transaction when there is one. */
  transaction<T>(fn: (store: Store) => Promise<T>): Promise<T>;
  readonly inTransaction: boolean;
  /** Raw SQL, for the repositories' own tests and the health check; translators never use it. */
  readonly sql: Sql;
}

/** Per-process caches shared by every store view of one driver (see `SiteOptionsCache`). */
interface StoreCaches {
  site: SiteOptionsCache;
  calendarSlugs: SlugCache;
}

export function storeOn(sql: Sql, caches: StoreCaches = { site: new SiteOptionsCache(), calendarSlugs: slugCache() }): Store {
  return {
    sql,
    users: new UserRepo(sql),
    options: new OptionsRepo(sql, caches.site),
    authSessions: new AuthSessionRepo(sql),
    redirection: new RedirectionRepo(sql),
    calendar: new CalendarRepo(sql, caches.calendarSlugs),
    inTransaction: sql.inTransaction,
    transaction: (fn) => sql.transaction((tx) => fn(storeOn(tx, caches))),
  };
}

export interface OpenStore extends Store {
  readonly kind: SqlDriver['kind'];
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Opens the configured store (PGlite under the data folder, or DATABASE_URL) and migrates it. */
export async function openStore(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'poolSize'>, opts: { inMemory?: boolean } = {}): Promise<OpenStore> {
  const driver = config.databaseUrl
    ? await openPostgres(config.databaseUrl, config.poolSize)
    : await openPglite(opts.inMemory ? null : path.join(config.dataDir, 'pglite'));
  await migrate(driver);
  return {
    ...storeOn(driver),
    kind: driver.kind,
    ping: async () => {
      try {
        await driver.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    close: () => driver.close(),
  };
}
