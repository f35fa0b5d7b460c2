import { describe, expect, it } from 'vitest';
import { parseQueryString, Repeated } from './php-params.ts';

describe('PHP-style query parsing', () => {
  it('builds lists from [] and maps from [key], nested', () => {
    expect(parseQueryString('a[]=1&a[]=2&f[url]=x&f[group]=3&n[a][]=q')).toEqual({ a: ['1', '2'], f: { url: 'x', group: '3' }, n: { a: ['q'] } });
  });

  it('turns . and spaces in top-level keys into _, as PHP does', () => {
    expect(parseQueryString('a.b=1&c%20d=2')).toEqual({ a_b: '1', c_d: '2' });
  });

  it('collects a repeated plain key, so arrays take all values and scalars the last', () => {
    const p = parseQueryString('x=1&x=2&y=3');
    expect(p.x).toBeInstanceOf(Repeated);
    expect([...(p.x as Repeated)]).toEqual(['1', '2']);
    expect(p.y).toBe('3');
  });

  it('keeps explicit numeric indexes as keys (array arguments read them as a list)', () => {
    expect(parseQueryString('r[0][method]=POST&r[0][path]=/a&r[1][path]=/b')).toEqual({ r: { 0: { method: 'POST', path: '/a' }, 1: { path: '/b' } } });
  });
});
