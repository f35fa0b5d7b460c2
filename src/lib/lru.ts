/**
 * An LRU cache of at most `max` entries whose memory grows with the entries it holds. lru-cache given
 * `max` allocates its arrays at that length up front and fills them, so every bound was resident from
 * the start: the login throttles' four 100,000-key caches and the per-route limiters' 50,000 held
 * about 10 MB of the embedded server's V8 heap before any request (a heap snapshot). Counted by
 * `maxSize` with each entry weighing 1, it evicts at the same bound but allocates as it fills.
 */
import { LRUCache } from 'lru-cache';

export type BoundedLruOptions<K extends {}, V extends {}> = Omit<LRUCache.Options<K, V, unknown>, 'max' | 'maxSize' | 'sizeCalculation' | 'maxEntrySize'> & { max: number };

export function boundedLru<K extends {}, V extends {}>({ max, ...opts }: BoundedLruOptions<K, V>): LRUCache<K, V> {
  return new LRUCache<K, V>({ ...opts, maxSize: max, sizeCalculation: () => 1 });
}
