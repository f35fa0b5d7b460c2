/**
 * Builders for route arguments. Each returns a zod schema that validates with WordPress
 * coercion and carries the legacy descriptor keywords (description, default, ...) as metadata,
 * so the index, OPTIONS answers and `/doc` are generated from the same schema that validates.
 */
import { z } from 'zod';
import { toBoolean, toInteger, toList, toObject } from './coerce.ts';
import { Repeated } from './php-params.ts';

export type Arg = z.ZodType;

interface Common<D> {
  description?: string;
  /** Applied when the parameter is absent, then coerced and validated like a sent value (as WordPress does). */
  default?: D;
  required?: boolean;
}

/** Extra JSON-schema keywords the legacy site declares on untyped arguments (e.g. `items` without `type`). */
type Keywords = Record<string, unknown>;

function build(coerce: (v: unknown) => unknown, inner: z.ZodType, opts: Common<unknown>, keywords: Keywords = {}): Arg {
  const hasDefault = 'default' in opts;
  const fallback = opts.default;
  // WordPress ignores a `null` default: the parameter stays absent.
  const withDefault = (v: unknown) => (v === undefined && hasDefault && fallback !== null ? fallback : v);
  // A plain key sent several times is a list for array arguments and its last value for the others, as in PHP.
  const single = (v: unknown) => (v instanceof Repeated && coerce !== toList ? v[v.length - 1] : v);
  const target = opts.required || (hasDefault && fallback !== null) ? inner : inner.optional();
  const meta: Record<string, unknown> = { ...keywords };
  if (opts.description !== undefined) meta.description = opts.description;
  if (hasDefault) meta.default = fallback;
  return z.preprocess((v) => coerce(withDefault(single(v))), target).meta(meta);
}

const same = (v: unknown) => v;

export const arg = {
  integer: (o: Common<number | string> & { minimum?: number; maximum?: number } = {}) => {
    let s = z.int();
    if (o.minimum !== undefined) s = s.min(o.minimum);
    if (o.maximum !== undefined) s = s.max(o.maximum);
    return build(toInteger, s, o);
  },
  boolean: (o: Common<boolean | string> = {}) => build(toBoolean, z.boolean(), o),
  string: (
    o: Common<string> & { format?: 'date-time' | 'uri' | 'email' | 'uuid'; minLength?: number; maxLength?: number } = {},
  ) => {
    let s: z.ZodType;
    if (o.format === 'date-time') s = wpDateTime();
    else if (o.format === 'email') s = z.email();
    else if (o.format === 'uuid') s = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    else {
      let str = z.string();
      if (o.minLength !== undefined) str = str.min(o.minLength);
      if (o.maxLength !== undefined) str = str.max(o.maxLength);
      s = str;
    }
    // `uri` is a sanitize-only format in WordPress: it is declared, never rejected.
    const keywords = o.format === 'uri' ? { format: 'uri' } : {};
    return build(same, s, o, keywords);
  },
  enum: <const T extends readonly [string, ...string[]]>(values: T, o: Common<T[number]> = {}) =>
    build(same, z.enum(values), o),
  array: (items: z.ZodType, o: Common<unknown[] | string | null> & { minItems?: number; maxItems?: number } = {}) => {
    let s = z.array(items);
    if (o.minItems !== undefined) s = s.min(o.minItems);
    if (o.maxItems !== undefined) s = s.max(o.maxItems);
    return build(toList, s, o);
  },
  object: (shape: z.ZodRawShape | null, o: Common<Record<string, unknown>> = {}) =>
    build(toObject, shape ? z.looseObject(shape) : z.record(z.string(), z.unknown()), o),
  /** An argument the legacy site declares without a type: anything goes through to its own check. */
  untyped: (o: Common<unknown> & { keywords?: Keywords } = {}) =>
    // A required untyped argument must still be sent (z.unknown() alone would accept its absence).
    build(same, o.required ? z.unknown().refine((v) => v !== undefined) : z.unknown(), o, o.keywords),
  /**
   * An argument with its own validate callback, which replaces the schema check in WordPress:
   * a failure is the bare "Invalid parameter.", and `sanitize` turns the accepted value into its type.
   * `keywords` are what the index shows (usually `type`).
   */
  custom: <T>(
    o: Common<unknown> & { keywords?: Keywords; validate: (v: unknown) => boolean; sanitize: (v: unknown) => T },
  ) => build(same, z.unknown().refine((v) => v === undefined || o.validate(v)).transform((v) => (v === undefined ? undefined : o.sanitize(v))) as z.ZodType<T | undefined>, o, o.keywords),
} as const;

/** Array items: coercion only, no descriptor metadata. */
export const item = {
  integer: () => z.preprocess(toInteger, z.int()),
  enum: <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values),
};

// WordPress's date-time check: seconds required, optional fraction and zone.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:\d{2})?)?$/;
function wpDateTime() {
  return z.string().refine((s) => DATE_TIME.test(s) && !Number.isNaN(Date.parse(s.replace(' ', 'T'))), {
    params: { wp: { code: 'rest_invalid_date', message: 'Invalid date.' } },
  }).meta({ format: 'date-time' });
}

/** A custom check that fails with WordPress's bare "Invalid parameter." (a validate callback returning false). */
export function check<T extends z.ZodType>(schema: T, ok: (value: z.output<T>) => boolean): T {
  return schema.refine((v) => v === undefined || ok(v)) as unknown as T;
}
