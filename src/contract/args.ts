/**
 * Builders for route arguments. Each returns a zod schema that validates with WordPress
 * coercion and carries the legacy descriptor keywords (description, default, ...) as metadata,
 * so the index, OPTIONS answers and `/doc` are generated from the same schema that validates.
 */
import { z } from 'zod';
import { toBoolean, toInteger, toList, toObject } from './coerce.ts';
import type { RestContext } from './context.ts';
import { lastOf, Repeated } from '../lib/php-params.ts';
import { escUrlRaw } from '../lib/esc-url.ts';

/** An argument's schema, whose output is what the handler receives for it. */
export type Arg<T = unknown> = z.ZodType<T>;

interface Common<D> {
  description?: string;
  /** Applied when the parameter is absent, then coerced and validated like a sent value (as WordPress does); `null` applies nothing. */
  default?: D | null;
  required?: boolean;
}

/**
 * What a handler receives for an argument of type `T` declared with options `O`: always a value when
 * required or given a non-null default, else possibly absent.
 */
export type Present<T, O> = O extends { required: true } ? T : O extends { default: infer D } ? (null extends D ? T | undefined : T) : T | undefined;

/** Extra JSON-schema keywords the legacy site declares on untyped arguments (e.g. `items` without `type`). */
type Keywords = Record<string, unknown>;

function build<T, O extends Common<unknown>>(coerce: (v: unknown) => unknown, inner: z.ZodType<T>, given: O | undefined, keywords: Keywords = {}): Arg<Present<T, O>> {
  const opts: Common<unknown> = given ?? {};
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
  // The one place the output type is stated: `target` is `inner`, optional unless present (see Present).
  return z.preprocess((v) => coerce(withDefault(single(v))), target).meta(meta) as Arg<Present<T, O>>;
}

const same = (v: unknown) => v;

type IntegerOptions = Common<number | string> & { minimum?: number; maximum?: number };
type StringOptions = Common<string> & { format?: 'date-time' | 'uri' | 'email' | 'uuid'; minLength?: number; maxLength?: number };
type ArrayOptions = Common<readonly unknown[] | string> & { minItems?: number; maxItems?: number };
type UntypedOptions = Common<unknown> & { keywords?: Keywords };

// Each builder is generic over its options so that `required: true` or a default shows in the output type.
export const arg = {
  integer: <const O extends IntegerOptions = {}>(o?: O) => {
    let s = z.int();
    if (o?.minimum !== undefined) s = s.min(o.minimum);
    if (o?.maximum !== undefined) s = s.max(o.maximum);
    return build(toInteger, s, o);
  },
  boolean: <const O extends Common<boolean | string> = {}>(o?: O) => build(toBoolean, z.boolean(), o),
  string: <const O extends StringOptions = {}>(o?: O) => {
    let s: z.ZodType<string>;
    if (o?.format === 'date-time') s = wpDateTime();
    else if (o?.format === 'email') s = z.email();
    else if (o?.format === 'uuid') s = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    else {
      let str = z.string();
      if (o?.minLength !== undefined) str = str.min(o.minLength);
      if (o?.maxLength !== undefined) str = str.max(o.maxLength);
      s = str;
    }
    // `uri` is a sanitize-only format in WordPress: never rejected, the string cleaned by esc_url_raw.
    if (o?.format === 'uri') return build((v) => (typeof v === 'string' ? escUrlRaw(v) : v), s, o, { format: 'uri' });
    return build(same, s, o);
  },
  enum: <const T extends readonly [string, ...string[]], const O extends Common<T[number]> = {}>(values: T, o?: O) =>
    build(same, z.enum(values), o),
  array: <I, const O extends ArrayOptions = {}>(items: z.ZodType<I>, o?: O) => {
    let s = z.array(items);
    if (o?.minItems !== undefined) s = s.min(o.minItems);
    if (o?.maxItems !== undefined) s = s.max(o.maxItems);
    return build(toList, s, o);
  },
  /** An object with the properties of `shape`, or whose every property is of type `values` (`additionalProperties`). */
  object: <const O extends Common<Record<string, unknown>> = {}>(shape: z.ZodRawShape | null, o?: O, values: z.ZodType = z.unknown()) =>
    build<Record<string, unknown>, O>(toObject, shape ? z.looseObject(shape) : z.record(z.string(), values), o),
  /** An argument the legacy site declares without a type: anything goes through to its own check. */
  untyped: <const O extends UntypedOptions = {}>(o?: O) =>
    // A required untyped argument must still be sent (z.unknown() alone would accept its absence).
    build(same, o?.required ? z.unknown().refine((v) => v !== undefined) : z.unknown(), o, o?.keywords),
  /**
   * An argument with its own validate callback, which replaces the schema check in WordPress:
   * a failure is the bare "Invalid parameter.", and `sanitize` turns the accepted value into its type.
   * `keywords` are what the index shows (usually `type`).
   */
  custom: <const O extends UntypedOptions & { validate: (v: unknown) => boolean; sanitize: (v: unknown) => unknown }>(o: O) =>
    // Absent stays absent (undefined), which build's Present accounts for.
    withValidateCallback(
      build(same, z.unknown().refine((v) => v === undefined || o.validate(v)).transform((v) => (v === undefined ? undefined : o.sanitize(v))) as z.ZodType<ReturnType<O['sanitize']>>, o, o.keywords),
    ),
} as const;

const ownCallback = new WeakSet<z.ZodType>();

/**
 * Marks an argument the legacy site checks with a `validate_callback` of its own (a plugin's check,
 * or core's `rest_validate_request_arg` named explicitly). WordPress runs those first, in declaration
 * order (has_valid_params), and the schema checks of the other typed arguments only when they all pass
 * (sanitize_params): a request failing both kinds names only the first kind.
 */
export function withValidateCallback<S extends z.ZodType>(schema: S): S {
  ownCallback.add(schema);
  return schema;
}

export const hasValidateCallback = (schema: z.ZodType): boolean => ownCallback.has(schema);

const typeLater = new WeakMap<z.ZodType, (value: unknown) => boolean>();
/**
 * A schema with a validate callback that leaves its declared type to WordPress's schema check
 * (rest_parse_request_arg, in sanitize_params): a value of the wrong type is refused with the other
 * schema checks, only once every validate callback of the request passed. `isOfType` is that check
 * alone on a sent value (a repeated name's last), for a value of another source than the one the
 * callback saw (sanitize_params checks every source's value against the type, not the callback).
 */
export function withTypeAfterCallbacks<S extends z.ZodType>(schema: S, isOfType: (value: unknown) => boolean): S {
  typeLater.set(schema, (v) => {
    const last = lastOf(v);
    return last === undefined || isOfType(last);
  });
  return schema;
}

/** The declared type's own check of a schema whose type is checked after the callbacks; undefined for any other schema. */
export const typeCheckOf = (schema: z.ZodType): ((value: unknown) => boolean) | undefined => typeLater.get(schema);

/**
 * A validate callback's record lookup: whether the accepted value names a record (`is_venue_id`).
 * It is given any value the callback takes, a NUL byte included: it must not send one to the store.
 */
export type Lookup = (ctx: RestContext, value: unknown) => Promise<boolean>;
const lookups = new WeakMap<z.ZodType, Lookup>();

/**
 * A validate callback that also looks the value up (a plugin's `is_venue_id`): it runs with the other
 * callbacks, so its failure is named with theirs, and before the permission.
 */
export function withLookup<S extends z.ZodType>(schema: S, lookup: Lookup): S {
  lookups.set(withValidateCallback(schema), lookup);
  return schema;
}

export const lookupOf = (schema: z.ZodType): Lookup | undefined => lookups.get(schema);

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
  return schema.refine((v) => v === undefined || ok(v));
}
