/**
 * Counts of matching rows (an archive's `X-WP-Total`), kept until a write to their topics is
 * announced on the change feed. An archive's count reads every match while its page reads a few
 * rows, so on a large store the count is most of a request; it changes only with a write.
 * Counts are not kept inside a transaction (its own writes are not announced yet) nor while the
 * feed is down (announcements may be missed).
 */
import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from './change-feed.ts';
import type { Sql } from './sql.ts';

export class TotalsCache {
  private readonly counts = new LRUCache<string, { version: string; n: number }>({ max: 2000 });

  constructor(private readonly feed: ChangeFeed, private readonly topics: readonly string[]) {}

  async get(sql: Sql, key: string, count: () => Promise<number>): Promise<number> {
    const version = sql.inTransaction ? null : this.feed.stamp(this.topics);
    if (version === null) return count();
    const kept = this.counts.get(key);
    if (kept && this.feed.holds(kept.version, this.topics)) return kept.n;
    const n = await count();
    this.counts.set(key, { version, n });
    return n;
  }
}
