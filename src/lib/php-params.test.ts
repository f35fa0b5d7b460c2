import { describe, expect, it } from 'vitest';
import { asParamMaps, parseQueryString, Repeated } from './php-params.ts';

describe('PHP-style query parsing', () => {
  it('builds lists from [] and maps from [key], nested', () => {
    expect(parseQueryString('a[]=1&a[]=2&f[url]=x&f[group]=3&n[a][]=q')).toEqual({ a: ['1', '2'], f: { url: 'x', group: '3' }, n: { a: ['q'] } });
  });

  it('turns . and spaces in top-level keys into _, as PHP does', () => {
    expect(parseQueryString('a.b=1&c%20d=2')).toEqual({ a_b: '1', c_d: '2' });
  });

  it('drops leading spaces of a key and ends it at a NUL byte, as PHP does', () => {
    expect(parseQueryString('%20%20rest_route=/x&per_page%00zz=3&%20=4')).toEqual({ rest_route: '/x', per_page: '3' });
  });

  it('turns an unclosed [ into _ and keeps the rest of the key, as PHP does', () => {
    expect(parseQueryString('rest%5Broute=/x&a.b[c.d=1')).toEqual({ rest_route: '/x', 'a_b_c.d': '1' });
  });

  it('collects a repeated plain key, so arrays take all values and scalars the last', () => {
    const p = parseQueryString('x=1&x=2&y=3');
    expect(p.x).toBeInstanceOf(Repeated);
    expect([...(p.x as Repeated)]).toEqual(['1', '2']);
    expect(p.y).toBe('3');
  });

  it('makes a list with a gap a map, and appends after the largest integer key, as PHP does', () => {
    expect(parseQueryString('a[]=x&a[2]=y')).toEqual({ a: { 0: 'x', 2: 'y' } });
    expect(parseQueryString('a[5]=x&a[]=y&b[]=1&b[0]=2&b[]=3')).toEqual({ a: { 5: 'x', 6: 'y' }, b: ['2', '3'] });
  });

  it('keeps explicit numeric indexes as keys (array arguments read them as a list)', () => {
    expect(parseQueryString('r[0][method]=POST&r[0][path]=/a&r[1][path]=/b')).toEqual({ r: { 0: { method: 'POST', path: '/a' }, 1: { path: '/b' } } });
  });

  it('keeps __proto__, constructor and prototype as ordinary keys, never reaching Object.prototype', () => {
    const p = parseQueryString('__proto__[status]=x&constructor[prototype][y]=1&a[]=1&a[__proto__][z]=2&toString=3&constructor[toString]=4');
    expect(({} as Record<string, unknown>).status).toBeUndefined();
    expect(({} as Record<string, unknown>).y).toBeUndefined();
    expect(Object.keys(p)).toEqual(['__proto__', 'constructor', 'a', 'toString']);
    // biome-ignore lint/suspicious/noProto: a client key named __proto__ must be an own key of the parsed map
    expect(Object.hasOwn(p.__proto__ as object, 'status')).toBe(true);
    expect(p.toString).toBe('3');
    // A map still converts to a string, as PHP's "Array".
    expect(String(p.constructor)).toBe('Array');
  });

  it('reads JSON objects into the same maps', () => {
    const v = JSON.parse('{"__proto__": {"status": "x"}, "a": {"toString": 1, "b": [{"constructor": 2}]}}', asParamMaps) as Record<string, Record<string, unknown>>;
    expect(Object.keys(v)).toEqual(['__proto__', 'a']);
    expect(String(v.a)).toBe('Array');
    expect(`${(v.a!.b as unknown[])[0]}`).toBe('Array');
    expect(({} as Record<string, unknown>).status).toBeUndefined();
  });
});
