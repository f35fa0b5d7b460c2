/**
 * The response cache for anonymous reads: whole answers (status, headers, body) in an LRU
 * bounded by bytes, keyed by the normalized request, each stamped with the change-feed version of
 * the topics its namespace reads. An entry is served only while those topics are unchanged, so a
 * committed write (here or on another replica) is never hidden; the TTL bounds answers that move
 * with the clock (the event archive's default start date is "now").
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from '../store/change-feed.ts';

export interface CachedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  etag: string;
  /** The route pattern that answered (the metrics label of a hit). */
  route: string;
}

interface Entry extends CachedAnswer {
  version: string;
  /** The change-feed topics the answer read: a write to one of them makes it stale. */
  topics: readonly string[];
  /** The feed's generation when the entry was last found to hold. */
  heldAt: number;
}

export interface ResponseCacheOptions {
  maxBytes: number;
  ttlMs: number;
}

/** A strong validator for a body: its SHA-1, as a quoted base64url string. */
export function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** Whether `If-None-Match` names this ETag (a list, `*`, weak or strong: RFC 9110 weak comparison). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch === etag) return true; // a client revalidating what it was sent, the usual case
  const strip = (t: string) => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || strip(t) === etag);
}

export class ResponseCache {
  private readonly entries: LRUCache<string, Entry>;

  private readonly feed: ChangeFeed;
  constructor(
    feed: ChangeFeed,
    opts: ResponseCacheOptions,
  ) {
    this.feed = feed;
    this.entries = new LRUCache<string, Entry>({
      maxSize: opts.maxBytes,
      // Headers and bookkeeping cost about this much beside the body.
      sizeCalculation: (e) => e.body.length + 512,
      ttl: opts.ttlMs,
    });
  }

  /**
   * The version to stamp an answer computed from now on, taken before it is computed (a write
   * that commits meanwhile then makes the entry stale at once); null when the feed is down and
   * nothing may be cached.
   */
  versionNow(topics: readonly string[]): string | null {
    return this.feed.stamp(topics);
  }

  /** The entry, while nothing it read has changed. */
  get(key: string): CachedAnswer | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    const now = this.feed.generation;
    if ((e.heldAt === now && this.feed.live) || this.feed.holds(e.version, e.topics)) {
      e.heldAt = now;
      return e;
    }
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps an answer that read `topics`, computed from `version` (`versionNow` of the same topics). */
  put(key: string, version: string, topics: readonly string[], answer: Omit<CachedAnswer, 'etag'>): CachedAnswer {
    const entry: Entry = { ...answer, etag: etagOf(answer.body), version, topics, heldAt: -1 };
    this.entries.set(key, entry);
    return entry;
  }

  get size(): number {
    return this.entries.size;
  }
}
