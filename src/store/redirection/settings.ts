/** The plugin settings: one JSON value in `options` under the name `redirection`. */
import type { RedirectionSettings } from './rows.ts';
import type { Sql } from '../sql.ts';

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

export class RedirectionSettingsRepo {
  private readonly sql: Sql;
  constructor(sql: Sql) {
    this.sql = sql;
  }

  /** The stored settings over the defaults. */
  async get(): Promise<RedirectionSettings> {
    const rows = await this.sql.query<{ value: Partial<RedirectionSettings> }>('select value from options where name = $1', [SETTINGS]);
    return { ...defaultRedirectionSettings, ...(rows[0]?.value ?? {}) };
  }

  /** Merges `patch` into the stored settings; returns the result. */
  async save(patch: Partial<RedirectionSettings>): Promise<RedirectionSettings> {
    const next = { ...(await this.get()), ...patch };
    await this.sql.query(
      'insert into options (name, value) values ($1, $2::jsonb) on conflict (name) do update set value = excluded.value',
      [SETTINGS, JSON.stringify(next)],
    );
    return next;
  }

  /** Replaces the stored settings with a fresh install's, with a new token. */
  async reinstall(): Promise<void> {
    await this.sql.query(`update options set value = jsonb_build_object('token', md5(random()::text)) || $2::jsonb where name = $1`, [
      SETTINGS,
      JSON.stringify(installedRedirectionSettings),
    ]);
  }
}
