/** Site options: the settings the index and the namespaces read (name, timezone, ...). */
import type { Sql } from './sql.ts';

export interface SiteOptions {
  name: string;
  description: string;
  timezone: string;
  page_for_posts: number;
  page_on_front: number;
  show_on_front: string;
  date_format: string;
  time_format: string;
}

export const defaultSiteOptions: SiteOptions = {
  name: 'Lintel',
  description: 'Events, and the redirects that keep old links alive',
  timezone: 'America/New_York',
  page_for_posts: 0,
  page_on_front: 0,
  show_on_front: 'posts',
  date_format: 'F j, Y',
  time_format: 'g:i a',
};

/**
 * The site options are read on most requests and change rarely: they are kept for a few seconds
 * per process (a write here refreshes them at once; other replicas see it within the TTL).
 */
export class SiteOptionsCache {
  private value: SiteOptions | null = null;
  private at = 0;
  constructor(private readonly ttlMs = 5000) {}
  get(): SiteOptions | null {
    return this.value && Date.now() - this.at < this.ttlMs ? this.value : null;
  }
  put(v: SiteOptions | null): void {
    this.value = v;
    this.at = Date.now();
  }
}

export class OptionsRepo {
  constructor(
    private readonly sql: Sql,
    private readonly cache: SiteOptionsCache = new SiteOptionsCache(0),
  ) {}

  async get<T>(name: string): Promise<T | undefined> {
    const rows = await this.sql.query<{ value: T }>('select value from options where name = $1', [name]);
    return rows[0]?.value;
  }

  async set(name: string, value: unknown): Promise<void> {
    if (name === 'site') this.cache.put(null);
    await this.sql.query(
      'insert into options (name, value) values ($1, $2::jsonb) on conflict (name) do update set value = excluded.value',
      [name, JSON.stringify(value)],
    );
  }

  async site(): Promise<SiteOptions> {
    // Inside a transaction the cache is not used: the transaction may have changed the options.
    const cached = this.sql.inTransaction ? null : this.cache.get();
    if (cached) return cached;
    const site = { ...defaultSiteOptions, ...((await this.get<Partial<SiteOptions>>('site')) ?? {}) };
    if (!this.sql.inTransaction) this.cache.put(site);
    return site;
  }

  async setSite(patch: Partial<SiteOptions>): Promise<void> {
    await this.set('site', { ...(await this.site()), ...patch });
  }
}
