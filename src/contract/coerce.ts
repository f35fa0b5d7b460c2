/**
 * WordPress REST coercion (rest_sanitize_value_from_schema), applied before zod validates.
 * A value that cannot be coerced is returned unchanged, so the zod schema reports it with
 * the legacy message ("x is not of type integer.").
 */
import { paramMap } from '../lib/php-params.ts';

// PHP's is_numeric: optional surrounding whitespace, sign, digits with optional fraction, exponent.
const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/**
 * A numeric string that is a whole number becomes that number, as PHP's float reading makes it an
 * integer (rest_is_integer); anything else is left for validation to refuse. A whole number beyond
 * what the store can hold (a safe integer) is then refused by the range check, as the legacy site
 * refuses one beyond a declared bound ("must be between 1 (inclusive) and 100 (inclusive)"). An
 * exponent past a float's range (`-1e400`) is PHP's INF, which rest_is_integer takes too
 * (round(INF) === INF): it becomes the largest whole number of its sign, beyond every bound.
 */
export function toInteger(v: unknown): unknown {
  const n = typeof v === 'string' ? numericValue(v) : null;
  if (n === null) return v;
  if (!Number.isFinite(n)) return Math.sign(n) * Number.MAX_VALUE;
  return Number.isInteger(n) ? n : v;
}

/** The number PHP reads a value as when is_numeric takes it (a number, or a numeric string); null for any other. */
export function numericValue(v: unknown): number | null {
  if (typeof v === 'number') return v;
  return typeof v === 'string' && NUMERIC.test(v) ? Number(v) : null;
}

export function toBoolean(v: unknown): unknown {
  if (typeof v === 'string') {
    const s = v.toLowerCase();
    if (s === 'true' || s === '1') return true;
    if (s === 'false' || s === '0') return false;
  }
  if (v === 1) return true;
  if (v === 0) return false;
  return v;
}

/**
 * wp_parse_list: a string becomes a list split on commas and white space, empties dropped. A number
 * or a boolean is a scalar rest_is_array takes as the list of its PHP text (`5`: `['5']`, `true`:
 * `['1']`, `false`: `[]`); a float's text is JavaScript's, which differs from PHP's past 1e15 only.
 */
export function toList(v: unknown): unknown {
  if (typeof v === 'number' || typeof v === 'boolean') return toList(v === true ? '1' : v === false ? '' : String(v));
  if (typeof v === 'string') return v.split(/[\s,]+/).filter((s) => s !== '');
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    // PHP arrays built from `a[0]=x&a[2]=y` arrive as objects with integer keys; WordPress takes any
    // array whose keys are all integers for a list (wp_is_numeric_array), gaps included.
    if (Object.keys(v).every((k) => /^\d+$/.test(k))) return Object.values(v);
  }
  return v;
}

/** Objects (rest_is_object): the empty string is an empty object, and a list one keyed by position, as in PHP. */
export function toObject(v: unknown): unknown {
  if (v === '') return paramMap();
  return Array.isArray(v) ? Object.assign(paramMap(), v) : v;
}
