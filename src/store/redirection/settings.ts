/** The plugin settings: one JSON value in `options` under the name `redirection`. */
import type { RedirectionSettings } from './rows.ts';
import { randomBytes } from 'node:crypto';
import type { OptionsRepo } from '../options.ts';

/** The plugin's defaults (`red_get_default_options`): what a setting absent from the stored value reads as. */
export const defaultRedirectionSettings: RedirectionSettings = {
  support: false,
  token: '',
  monitor_post: 0,
  monitor_types: [],
  associated_redirect: '',
  auto_target: '',
  expire_redirect: 7,
  expire_404: 7,
  log_external: false,
  log_header: false,
  track_hits: true,
  modules: {},
  redirect_cache: 1,
  ip_logging: 0,
  ip_headers: [],
  ip_proxy: [],
  last_group_id: 0,
  rest_api: 0,
  https: false,
  headers: [],
  database: '',
  relocate: '',
  preferred_domain: '',
  aliases: [],
  permalinks: [],
  cache_key: 0,
  plugin_update: 'prompt',
  update_notice: 0,
  flag_query: 'exact',
  flag_case: false,
  flag_trailing: false,
  flag_regex: false,
};

/**
 * What a fresh install stores over the defaults, with a random RSS token: case-insensitive,
 * trailing-slash-tolerant sources, the first group as the default, and the schema version.
 * Migration 020 wrote the same on the first start; `reinstall` writes these.
 */
export const installedRedirectionSettings = { flag_case: true, flag_trailing: true, last_group_id: 1, database: '4.2' } satisfies Partial<RedirectionSettings>;

const SETTINGS = 'redirection';

/** Read through the site options, so they are kept as every option is until a write to them is announced. */
export class RedirectionSettingsRepo {
  private readonly options: OptionsRepo;
  constructor(options: OptionsRepo) {
    this.options = options;
  }

  /** The stored settings over the defaults. */
  async get(): Promise<RedirectionSettings> {
    return { ...defaultRedirectionSettings, ...((await this.options.get<Partial<RedirectionSettings>>(SETTINGS)) ?? {}) };
  }

  /** Merges `patch` into the stored settings; returns the result. */
  async save(patch: Partial<RedirectionSettings>): Promise<RedirectionSettings> {
    const next = { ...(await this.get()), ...patch };
    await this.options.set(SETTINGS, next);
    return next;
  }

  /** Replaces the stored settings with a fresh install's, with a new token (32 hex digits, as the plugin's md5). */
  async reinstall(): Promise<void> {
    await this.options.set(SETTINGS, { token: randomBytes(16).toString('hex'), ...installedRedirectionSettings });
  }
}
