/** Site options: the settings the index and the namespaces read (name, timezone, ...). */
import type { ChangeFeed } from './change-feed.ts';
import type { Sql } from './sql.ts';
import { droppingOnWrite, TopicCache } from './topic-cache.ts';

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

/** Options by name, kept until a write to the `options` topic is announced (see topic-cache.ts). */
export type OptionsCache = TopicCache<string, { value: unknown }>;

export const optionsCache = (feed: ChangeFeed): OptionsCache => new TopicCache(feed, ['options'], 100);

export class OptionsRepo {
  private readonly sql: Sql;
  private readonly kept: OptionsCache;
  constructor(
    sql: Sql,
    kept: OptionsCache,
  ) {
    this.sql = droppingOnWrite(sql, kept);
    this.kept = kept;
  }

  async get<T>(name: string): Promise<T | undefined> {
    const { value } = await this.kept.get(this.sql, name, async () => ({
      value: (await this.sql.query<{ value: T }>('select value from options where name = $1', [name]))[0]?.value,
    }));
    return value as T | undefined;
  }

  /** The writer reads its own write once it is committed; everyone else once the write's announcement arrives. */
  async set(name: string, value: unknown): Promise<void> {
    await this.sql.query(
      'insert into options (name, value) values ($1, $2::jsonb) on conflict (name) do update set value = excluded.value',
      [name, JSON.stringify(value)],
    );
  }

  async site(): Promise<SiteOptions> {
    return { ...defaultSiteOptions, ...((await this.get<Partial<SiteOptions>>('site')) ?? {}) };
  }

  async setSite(patch: Partial<SiteOptions>): Promise<void> {
    await this.set('site', { ...(await this.site()), ...patch });
  }
}
