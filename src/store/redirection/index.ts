/**
 * Redirection storage, one repository per aggregate: the plugin settings, groups, redirects, and
 * the redirect and 404 logs.
 */
import type { OptionsRepo } from '../options.ts';
import type { Sql } from '../sql.ts';
import { droppingOnWrite } from '../topic-cache.ts';
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
    const sql = droppingOnWrite(store, pages);
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
