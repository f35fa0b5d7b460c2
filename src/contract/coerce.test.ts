import { describe, expect, it } from 'vitest';
import { toBoolean, toInteger, toList, toObject } from './coerce.ts';

describe('WordPress coercion', () => {
  it('accepts integers written as PHP numeric strings, and nothing fractional', () => {
    expect(toInteger('5')).toBe(5);
    expect(toInteger(' 5')).toBe(5);
    expect(toInteger('5.0')).toBe(5);
    expect(toInteger('1e3')).toBe(1000);
    // PHP's INF: beyond every bound, of its sign.
    expect(toInteger('-1e400')).toBe(-Number.MAX_VALUE);
    expect(toInteger('5.5')).toBe('5.5');
    expect(toInteger('abc')).toBe('abc');
    expect(toInteger('')).toBe('');
  });

  it('accepts booleans only from true/false/1/0', () => {
    expect(toBoolean('TRUE')).toBe(true);
    expect(toBoolean('0')).toBe(false);
    expect(toBoolean(1)).toBe(true);
    expect(toBoolean('yes')).toBe('yes');
    expect(toBoolean('')).toBe('');
  });

  it('splits lists on commas and white space, dropping empties', () => {
    expect(toList('a,b c,,')).toEqual(['a', 'b', 'c']);
    // rest_is_array takes a scalar as the list of its text.
    expect([toList(5), toList(true), toList(false)]).toEqual([['5'], ['1'], []]);
    expect(toList('')).toEqual([]);
    expect(toList({ 0: 'x', 1: 'y' })).toEqual(['x', 'y']);
    expect(toList({ k: 'x' })).toEqual({ k: 'x' });
  });

  it('reads the empty string as an empty object, and a list as one keyed by position', () => {
    expect(toObject('')).toEqual({});
    expect({ ...(toObject(['x', 'y']) as object) }).toEqual({ 0: 'x', 1: 'y' });
  });
});
