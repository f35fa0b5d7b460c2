/**
 * Values computed from the store, kept until a write to their topics is announced on the change
 * feed: options, and the calendar's archive counts (`X-WP-Total`, which read every match while the
 * page reads a few rows), listed events and the records they link, so that on a large store an
 * archive page costs its own query only. Nothing is kept inside a transaction (its own writes are
 * not announced yet) nor while the feed is down (announcements may be missed).
 */
import type { LRUCache } from 'lru-cache';
import { boundedLru } from '../lib/lru.ts';
import type { ChangeFeed } from './change-feed.ts';
import type { Sql } from './sql.ts';

export class TopicCache<K extends string | number, V extends object | number> {
  private readonly kept: LRUCache<K, { version: string; value: V }>;

  private readonly feed: ChangeFeed;
  private readonly topics: readonly string[];
  constructor(
    feed: ChangeFeed,
    topics: readonly string[],
    max: number,
  ) {
    this.feed = feed;
    this.topics = topics;
    this.kept = boundedLru({ max });
  }

  /** The kept value of `key`, or `compute`'s, kept for next time. */
  async get(sql: Sql, key: K, compute: () => Promise<V>): Promise<V> {
    const version = this.stamp(sql);
    const hit = this.hit(key, version);
    if (hit !== undefined) return hit;
    const value = await compute();
    if (version !== null) this.kept.set(key, { version, value });
    return value;
  }

  /** The values of `keys` (those `load` does not find are missing); one `load` call for all that are not kept. */
  async many(sql: Sql, keys: Iterable<K>, load: (missing: K[]) => Promise<Map<K, V>>): Promise<Map<K, V>> {
    const version = this.stamp(sql);
    const out = new Map<K, V>();
    const missing: K[] = [];
    for (const key of new Set(keys)) {
      const hit = this.hit(key, version);
      if (hit === undefined) missing.push(key);
      else out.set(key, hit);
    }
    if (missing.length === 0) return out;
    for (const [key, value] of await load(missing)) {
      out.set(key, value);
      if (version !== null) this.kept.set(key, { version, value });
    }
    return out;
  }

  /** Everything kept is stale: this process wrote to the topics, and the announcement is yet to arrive (one function per cache, for `Sql.afterCommit`; see `droppingOnWrite`). */
  readonly wrote = (): void => {
    for (const topic of this.topics) this.feed.changed(topic);
  };

  /** Taken before computing, so that a write committed meanwhile makes what is computed stale at once. */
  private stamp(sql: Sql): string | null {
    return sql.inTransaction ? null : this.feed.stamp(this.topics);
  }

  private hit(key: K, version: string | null): V | undefined {
    if (version === null) return undefined;
    const kept = this.kept.get(key);
    return kept?.version === version ? kept.value : undefined;
  }
}

/**
 * `sql` for the repositories whose tables `cache` keeps values of: once a write through it is committed
 * (a statement outside a transaction, or the transaction that holds writes, once), what the cache keeps
 * is stale, so that the writer's own next read (a bulk action answers the list) does not wait for the
 * change feed to announce the write (PostgreSQL's comes a moment later), and a value read outside the
 * transaction while it ran is not kept past its commit. Every statement goes through it, so no write
 * method can forget to say so; a failed one counts too (a statement the client gave up on may still
 * have committed).
 */
export function droppingOnWrite(sql: Sql, cache: Pick<TopicCache<never, never>, 'wrote'>): Sql {
  return {
    get inTransaction() {
      return sql.inTransaction;
    },
    async query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
      try {
        return await sql.query<T>(text, params);
      } finally {
        if (!/^\s*select\b/i.test(text)) sql.afterCommit(cache.wrote);
      }
    },
    transaction: (fn) => sql.transaction((tx) => fn(droppingOnWrite(tx, cache))),
    afterCommit: (fn) => sql.afterCommit(fn),
  };
}
