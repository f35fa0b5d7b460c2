import { describe, expect, it } from 'vitest';
import { boundedLru } from './lru.ts';

describe('boundedLru', () => {
  it('holds at most max entries, dropping the least recently used', () => {
    const lru = boundedLru<string, number>({ max: 3 });
    for (const [i, k] of ['a', 'b', 'c'].entries()) lru.set(k, i);
    lru.get('a');
    lru.set('d', 3);
    expect(lru.size).toBe(3);
    expect([...lru.keys()].sort()).toEqual(['a', 'c', 'd']);
    for (let i = 0; i < 1000; i++) lru.set(`k${i}`, i);
    expect(lru.size).toBe(3);
    expect(lru.get('k999')).toBe(999);
  });

  it('still forgets entries past their ttl', () => {
    let now = 5000;
    const lru = boundedLru<string, number>({ max: 10, ttl: 1000, ttlResolution: 0, perf: { now: () => now } });
    lru.set('a', 1);
    now = 5999;
    expect(lru.get('a')).toBe(1);
    now = 6001;
    expect(lru.get('a')).toBeUndefined();
  });
});
