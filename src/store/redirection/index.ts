/**
 * Redirection storage, one repository per aggregate: the plugin settings, groups, redirects, and
 * the redirect and 404 logs.
 */
import type { OptionsRepo } from '../options.ts';
import type { Sql } from '../sql.ts';
import { RedirectGroupRepo } from './groups.ts';
import { RedirectionLogRepo } from './logs.ts';
import { RedirectRepo, type RedirectPages } from './redirects.ts';
import { RedirectionSettingsRepo } from './settings.ts';

export class RedirectionStore {
  readonly settings: RedirectionSettingsRepo;
  readonly groups: RedirectGroupRepo;
  readonly redirects: RedirectRepo;
  readonly logs: RedirectionLogRepo;

  constructor(store: Sql, options: OptionsRepo, pages: RedirectPages) {
    const sql = droppingPages(store, pages);
    this.settings = new RedirectionSettingsRepo(options);
    this.groups = new RedirectGroupRepo(sql);
    this.redirects = new RedirectRepo(sql, pages);
    this.logs = new RedirectionLogRepo(sql);
  }

  /** Removes every redirect, group and log row and the settings, then restores a fresh install's groups and settings. */
  async wipe(): Promise<void> {
    await this.logs.clear();
    await this.redirects.delete({ filter: {} });
    await this.groups.reinstall();
    await this.settings.reinstall();
  }
}

/**
 * The repositories' SQL: once a write to a redirection table is committed (a statement outside a
 * transaction, or the transaction that holds writes, once), the kept redirect pages are stale, so
 * that the writer's own next read (a bulk action answers the list) does not wait for the change feed
 * to announce the write (PostgreSQL's comes a moment later), and a page read outside the transaction
 * while it ran is not kept past its commit.
 */
function droppingPages(sql: Sql, pages: RedirectPages): Sql {
  return {
    get inTransaction() {
      return sql.inTransaction;
    },
    async query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
      try {
        return await sql.query<T>(text, params);
      } finally {
        if (!/^\s*select\b/i.test(text)) sql.afterCommit(pages.wrote);
      }
    },
    transaction: (fn) => sql.transaction((tx) => fn(droppingPages(tx, pages))),
    afterCommit: (fn) => sql.afterCommit(fn),
  };
}
