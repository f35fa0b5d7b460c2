import { describe, expect, it } from 'vitest';
import { ChangeFeed } from '../store/change-feed.ts';
import { etagOf, matchesEtag, ResponseCache } from './response-cache.ts';

const live = () => {
  const f = new ChangeFeed();
  f.connected(true);
  return f;
};
const answer = (text: string) => ({ status: 200, headers: { 'Content-Type': 'application/json' }, body: Buffer.from(text), route: '/test' });

describe('ResponseCache', () => {
  it('serves an entry until a topic it reads changes; other topics leave it alone', () => {
    const feed = live();
    const cache = new ResponseCache(feed, { maxBytes: 1e6, ttlMs: 60_000 });
    const topics = ['calendar', 'options'];
    cache.put('k', cache.versionNow(topics)!, topics, answer('[1]'));
    expect(cache.get('k')?.body.toString()).toBe('[1]');
    feed.changed('redirection');
    expect(cache.get('k')?.body.toString()).toBe('[1]');
    feed.changed('options');
    expect(cache.get('k')).toBeUndefined();
  });

  it('drops an entry once served when this replica answers a write, and when the feed reconnects', () => {
    const feed = live();
    const cache = new ResponseCache(feed, { maxBytes: 1e6, ttlMs: 60_000 });
    cache.put('k', cache.versionNow(['calendar'])!, ['calendar'], answer('x'));
    expect(cache.get('k')?.body.toString()).toBe('x');
    expect(cache.get('k')?.body.toString()).toBe('x');
    feed.anythingChanged();
    expect(cache.get('k')).toBeUndefined();
    cache.put('k', cache.versionNow(['calendar'])!, ['calendar'], answer('y'));
    expect(cache.get('k')?.body.toString()).toBe('y');
    feed.connected(false);
    expect(cache.get('k')).toBeUndefined();
  });

  it('treats an answer computed across a write as stale (its version is taken before)', () => {
    const feed = live();
    const cache = new ResponseCache(feed, { maxBytes: 1e6, ttlMs: 60_000 });
    const before = cache.versionNow(['calendar'])!;
    feed.changed('calendar'); // committed while the answer was being computed
    cache.put('k', before, ['calendar'], answer('old'));
    expect(cache.get('k')).toBeUndefined();
  });

  it('caches nothing while the feed is down, and nothing from before a reconnection', () => {
    const feed = live();
    const cache = new ResponseCache(feed, { maxBytes: 1e6, ttlMs: 60_000 });
    cache.put('k', cache.versionNow(['calendar'])!, ['calendar'], answer('x'));
    feed.connected(false);
    expect(cache.versionNow(['calendar'])).toBeNull();
    expect(cache.get('k')).toBeUndefined();
    cache.put('k', '1:0', ['calendar'], answer('x'));
    feed.connected(true); // announcements may have been missed while down
    expect(cache.get('k')).toBeUndefined();
  });

  it('is bounded by bytes, dropping the least recently used', () => {
    const cache = new ResponseCache(live(), { maxBytes: 3 * (1000 + 512), ttlMs: 60_000 });
    const v = cache.versionNow([])!;
    for (const k of ['a', 'b', 'c']) cache.put(k, v, [], answer('x'.repeat(1000)));
    cache.get('a');
    cache.put('d', v, [], answer('x'.repeat(1000)));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.size).toBe(3);
  });
});

describe('ETags', () => {
  it('are strong, quoted, and equal for equal bodies', () => {
    expect(etagOf(Buffer.from('a'))).toMatch(/^"[\w-]{27}"$/);
    expect(etagOf(Buffer.from('a'))).toBe(etagOf(Buffer.from('a')));
    expect(etagOf(Buffer.from('a'))).not.toBe(etagOf(Buffer.from('b')));
  });

  it('match If-None-Match lists, weak forms and *', () => {
    const e = etagOf(Buffer.from('a'));
    expect(matchesEtag(e, e)).toBe(true);
    expect(matchesEtag(`"x", W/${e}`, e)).toBe(true);
    expect(matchesEtag('*', e)).toBe(true);
    expect(matchesEtag('"x"', e)).toBe(false);
    expect(matchesEtag(undefined, e)).toBe(false);
  });
});
