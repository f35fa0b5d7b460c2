/**
 * Basic credentials verified a moment ago, so that authenticated requests cost about what
 * anonymous ones cost: the user behind (login, application password), for a short time, and only
 * while the `users` topic of the change feed is unchanged: revoking a password, deleting a user or
 * changing a role (here or on another replica) drops every entry at once. Entries are keyed by a
 * hash of the credentials; the password itself is never kept.
 */
import { createHash } from 'node:crypto';
import type { LRUCache } from 'lru-cache';
import { boundedLru } from '../lib/lru.ts';
import type { ChangeFeed } from '../store/change-feed.ts';
import type { User } from '../lib/roles.ts';

const TOPICS = ['users'] as const;

export class VerifiedCredentials {
  private readonly entries: LRUCache<string, { user: User; version: string }>;

  private readonly feed: ChangeFeed;
  private readonly ttlMs: number;
  constructor(
    feed: ChangeFeed,
    ttlMs: number,
    max = 10_000,
  ) {
    this.feed = feed;
    this.ttlMs = ttlMs;
    this.entries = boundedLru({ max, ttl: Math.max(ttlMs, 1) });
  }

  private static key(login: string, password: string): string {
    return createHash('sha256').update(login).update('\0').update(password).digest('base64url');
  }

  /** The version to stamp a verification with, taken before the store is read (null: do not keep it). */
  versionNow(): string | null {
    return this.feed.stamp(TOPICS);
  }

  get(login: string, password: string): User | undefined {
    const e = this.entries.get(VerifiedCredentials.key(login, password));
    return e && this.feed.holds(e.version, TOPICS) ? e.user : undefined;
  }

  put(login: string, password: string, user: User, version: string | null): void {
    if (version !== null && this.ttlMs > 0) this.entries.set(VerifiedCredentials.key(login, password), { user, version });
  }
}
