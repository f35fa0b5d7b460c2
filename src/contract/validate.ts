/**
 * Validation of a request's parameters against an endpoint's argument schemas, with the legacy
 * error bodies: missing required parameters first (`rest_missing_callback_param`), then every
 * invalid one (`rest_invalid_param` with `params` and `details`).
 */
import { z } from 'zod';
import { errors } from './error-codes.ts';
import { wpList, type ParamError, type RestError } from './errors.ts';
import { paramMap } from '../lib/php-params.ts';
import { numericValue } from './coerce.ts';
import { hasValidateCallback, lookupOf, typeCheckOf } from './args.ts';
import type { RestContext } from './context.ts';
import { argJsonSchema, isRequired, type JsonSchema } from './describe.ts';
import type { ArgShape } from './route.ts';

/** An argument schema compiled once: what validation needs besides the schema itself. */
export interface CompiledArg {
  name: string;
  schema: z.ZodType;
  json: JsonSchema;
  required: boolean;
}

export function compileArgs(args: ArgShape): CompiledArg[] {
  return Object.entries(args).map(([name, schema]) => ({ name, schema, json: argJsonSchema(schema), required: isRequired(schema) }));
}

/** The path parameters as matched (handlers may read them from the path, whatever the body says), and which are record IDs (a `\d+` group). */
export interface PathParams {
  values: Record<string, string>;
  integers: readonly string[];
}

/**
 * Validates and coerces the declared arguments (the handler sees only those); throws the legacy 400
 * error. WordPress checks in two passes, each refusing the request with every failure it met:
 * has_valid_params runs the validate callbacks, in the order the arguments are declared, on the value
 * the request gives each (its first source holding one, not null); then sanitize_params checks every
 * value each source holds (`sources`, in get_parameter_order: JSON body, form body, query, path, a
 * JSON `null` included) against its argument's schema, in the order met. Record lookups (withLookup)
 * need the request's context; without one they are not run. Input the store cannot hold
 * (`unstorable`) is the caller's to refuse, after the permission check.
 */
export async function validateArgs(
  args: CompiledArg[],
  params: Record<string, unknown>,
  path: PathParams = { values: {}, integers: [] },
  ctx?: RestContext,
  sources: readonly Record<string, unknown>[] = [params],
  beyondStore?: Map<string, ParamError[]>,
): Promise<Record<string, unknown>> {
  // A path ID beyond 2^53 is not read as a number at all. A value holding a NUL byte is checked and
  // looked up as any other (it names no record, as on the legacy site); the lookups never send it to the store.
  const unsafeIds = new Set(unsafePathIds(path));
  const out = await validCallbacks(args.filter((a) => !unsafeIds.has(a.name)), params, ctx, beyondStore);
  const failures = new Map<string, ParamError[]>();
  const declared = new Map(args.filter((a) => !unsafeIds.has(a.name)).map((a) => [a.name, a]));
  for (const source of sources) {
    for (const [name, value] of Object.entries(source)) {
      const a = declared.get(name);
      if (!a || value === undefined) continue;
      // An untyped argument has no schema to check; one with its own callback and sanitizer had its check.
      if (value === null ? a.json.type === undefined : hasValidateCallback(a.schema) && !typeCheckOf(a.schema)) continue;
      const r = a.schema.safeParse(value, { reportInput: true });
      if (r.success) continue;
      // A callback's own refusal of a value it was not given (another source's) is not this pass's:
      // that value meets the declared type alone.
      if (value !== null && hasValidateCallback(a.schema) && !r.error.issues.every((i) => i.code === 'invalid_type')) {
        const isOfType = typeCheckOf(a.schema);
        if (isOfType && !isOfType(value)) refuse(a, new z.ZodError([{ code: 'invalid_type', expected: a.json.type as 'string', input: value, path: [], message: '' }]), failures, beyondStore);
        continue;
      }
      refuse(a, r.error, failures, beyondStore);
    }
  }
  if (failures.size) throw invalidParams(failures);
  // What the handler sees: each argument's value as get_param gives it, sanitized, or its default.
  for (const a of declared.values()) {
    if (Object.hasOwn(out, a.name) || hasValidateCallback(a.schema)) continue;
    const r = a.schema.safeParse(params[a.name] ?? undefined);
    if (r.success && r.data !== undefined) out[a.name] = r.data;
  }
  return out;
}

/**
 * has_valid_params: the required arguments are sent (`rest_missing_callback_param`), then the
 * arguments with validate callbacks of their own pass them, a null being unsent (isset). A callback
 * that passed a value of another type than declared leaves it to the schema check (sanitize_params).
 * Returns the values the callbacks accepted, sanitized.
 */
export async function validCallbacks(args: CompiledArg[], params: Record<string, unknown>, ctx?: RestContext, beyondStore?: Map<string, ParamError[]>): Promise<Record<string, unknown>> {
  const missing = args.filter((a) => a.required && (params[a.name] === undefined || params[a.name] === null)).map((a) => a.name);
  if (missing.length) throw errors.core.missingParams(missing);
  const out: Record<string, unknown> = {};
  const failures = new Map<string, ParamError[]>();
  for (const a of args.filter((x) => hasValidateCallback(x.schema))) {
    const raw = params[a.name] ?? undefined;
    // reportInput: a missing nested property is told apart from a wrong value by its input.
    const r = a.schema.safeParse(raw, { reportInput: true });
    const lookup = lookupOf(a.schema);
    // The lookup is the validate callback's, which runs before the declared type is checked: a value of another type is looked up as sent.
    const typeOnly = !r.success && r.error.issues.every((i) => i.code === 'invalid_type');
    const looked = r.success ? r.data : raw;
    if ((r.success || typeOnly) && looked !== undefined && lookup && ctx && !(await lookup(ctx, looked))) failures.set(a.name, [INVALID_PARAM]);
    else if (r.success) {
      if (r.data !== undefined) out[a.name] = r.data;
    } else if (!(typeOnly && typeCheckOf(a.schema))) refuse(a, r.error, failures, beyondStore);
  }
  if (failures.size) throw invalidParams(failures);
  return out;
}

/** Records an argument's refusal: rest_validate_value_from_schema stops at the first item or property that fails, so only its issues count. */
function refuse(a: CompiledArg, error: z.ZodError, failures: Map<string, ParamError[]>, beyondStore?: Map<string, ParamError[]>): void {
  const first = error.issues[0];
  const at = JSON.stringify(first?.path);
  const found = error.issues.filter((i) => JSON.stringify(i.path) === at).map((i) => toParamError(a, i));
  // An integer past no declared bound, only past what the store holds: the legacy site takes it,
  // so its refusal (core-integer-range) waits for the permission check, when the caller collects it.
  if (beyondStore && first && pastStoreOnly(a, first)) beyondStore.set(a.name, found);
  else failures.set(a.name, found);
}

function pastStoreOnly(a: CompiledArg, issue: Issue): boolean {
  if ((issue.code !== 'too_big' && issue.code !== 'too_small') || (issue.origin !== 'number' && issue.origin !== 'int')) return false;
  const s = schemaAt(a.json, issue.path);
  return typeof (issue.code === 'too_big' ? s.maximum : s.minimum) !== 'number';
}

/** A validate callback that returned false: the bare "Invalid parameter.", no details entry. */
export const INVALID_PARAM: ParamError = { code: null, message: 'Invalid parameter.', data: null };

/**
 * Input the store cannot hold, refused before it can reach SQL whichever handler reads it: a NUL
 * byte in a parameter the handler reads (`params`) or in the path (PostgreSQL text cannot contain
 * one), and a path ID beyond the integers the store keeps (IDs are JS numbers, exact up to 2^53).
 */
export function unstorable(params: Record<string, unknown>, path: PathParams, beyondStore = new Map<string, ParamError[]>()): RestError | null {
  const failures = new Map<string, ParamError[]>(beyondStore);
  for (const [name, value] of [...Object.entries(params), ...Object.entries(path.values)]) if (containsNul(value)) failures.set(name, [INVALID_PARAM]);
  for (const name of unsafePathIds(path)) failures.set(name, [INVALID_PARAM]);
  return failures.size ? invalidParams(failures) : null;
}

function unsafePathIds(path: PathParams): string[] {
  return path.integers.filter((name) => path.values[name] !== undefined && !Number.isSafeInteger(Number(path.values[name])));
}

/** Whether a NUL byte is anywhere in the value; iterative, so a deeply nested body cannot exhaust the stack. */
function containsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\0')) return true;
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, child] of Object.entries(v)) {
        if (k.includes('\0')) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

type Issue = z.core.$ZodIssue;

function schemaAt(json: JsonSchema, path: PropertyKey[]): JsonSchema {
  let s: JsonSchema | undefined = json;
  for (const seg of path) {
    if (!s) break;
    s = (typeof seg === 'number' ? s.items : (s.properties as JsonSchema | undefined)?.[seg as string]) as JsonSchema | undefined;
  }
  return s ?? {};
}

function typeName(s: JsonSchema, fallback: string): string {
  const t = s.type;
  return Array.isArray(t) ? t.join(',') : typeof t === 'string' ? t : fallback;
}

/** Maps a zod issue to the WordPress error for the same rule (rest_validate_value_from_schema). */
function toParamError(a: CompiledArg, issue: Issue): ParamError {
  // A validate callback's own WP_Error: its code, message and data (often `{status: 400}`) are the detail.
  const wp = (issue as { params?: { wp?: { code: string; message: string; data?: Record<string, unknown> } } }).params?.wp;
  if (wp) return { code: wp.code, message: wp.message, data: wp.data ?? null };
  const path = issue.path;
  const param = a.name + path.map((p) => `[${String(p)}]`).join('');
  const s = schemaAt(a.json, path);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined && path.length > 0) {
        const parent = a.name + path.slice(0, -1).map((p) => `[${String(p)}]`).join('');
        return { code: 'rest_property_required', message: `${String(path[path.length - 1])} is a required property of ${parent}.`, data: null };
      }
      // rest_validate_integer_value_from_schema checks a number's declared bounds before it checks it is whole (`page=0.5`: below 1).
      if (s.type === 'integer' && outOfBounds(numericValue(issue.input), s)) return { code: 'rest_out_of_bounds', message: boundsMessage(param, s.minimum, s.maximum), data: null };
      return { code: 'rest_invalid_type', message: `${param} is not of type ${typeName(s, issue.expected)}.`, data: { param } };
    case 'invalid_value':
      // rest_validate_value_from_schema checks the type before the enum.
      if (s.type === 'string' && issue.input !== undefined && typeof issue.input !== 'string') return { code: 'rest_invalid_type', message: `${param} is not of type string.`, data: { param } };
      if (issue.values.length === 1) return { code: 'rest_not_in_enum', message: `${param} is not ${String(issue.values[0])}.`, data: null };
      return { code: 'rest_not_in_enum', message: `${param} is not one of ${wpList(issue.values)}.`, data: null };
    case 'too_small':
    case 'too_big':
      return boundsError(param, issue, s);
    case 'invalid_format':
      if (issue.format === 'email') return { code: 'rest_invalid_email', message: 'Invalid email address.', data: null };
      if (issue.format === 'regex') return { code: 'rest_invalid_uuid', message: `${param} is not a valid UUID.`, data: null };
      return { code: 'rest_invalid_param', message: `${param} is not a valid ${issue.format}.`, data: null };
    default:
      // A custom check that failed: WordPress's validate callback returning false.
      return { code: null, message: 'Invalid parameter.', data: null };
  }
}

function boundsError(param: string, issue: Extract<Issue, { code: 'too_small' | 'too_big' }>, s: JsonSchema): ParamError {
  const small = issue.code === 'too_small';
  if (issue.origin === 'array') {
    const n = Number(small ? issue.minimum : issue.maximum);
    const word = n === 1 ? 'item' : 'items';
    return small
      ? { code: 'rest_too_few_items', message: `${param} must contain at least ${n} ${word}.`, data: null }
      : { code: 'rest_too_many_items', message: `${param} must contain at most ${n} ${word}.`, data: null };
  }
  if (issue.origin === 'string') {
    const n = Number(small ? issue.minimum : issue.maximum);
    const word = n === 1 ? 'character' : 'characters';
    return small
      ? { code: 'rest_too_short', message: `${param} must be at least ${n} ${word} long.`, data: null }
      : { code: 'rest_too_long', message: `${param} must be at most ${n} ${word} long.`, data: null };
  }
  // Without a declared bound, the bound zod checks: the safe integers (what the store can hold).
  const min = typeof s.minimum === 'number' ? s.minimum : small ? Number(issue.minimum) : undefined;
  const max = typeof s.maximum === 'number' ? s.maximum : small ? undefined : Number(issue.maximum);
  return { code: 'rest_out_of_bounds', message: boundsMessage(param, min, max), data: null };
}

function outOfBounds(n: number | null, s: JsonSchema): boolean {
  return n !== null && ((typeof s.minimum === 'number' && n < s.minimum) || (typeof s.maximum === 'number' && n > s.maximum));
}

function boundsMessage(param: string, min: unknown, max: unknown): string {
  if (typeof min === 'number' && typeof max === 'number') return `${param} must be between ${min} (inclusive) and ${max} (inclusive)`;
  if (typeof min === 'number') return `${param} must be greater than or equal to ${min}`;
  return `${param} must be less than or equal to ${max}`;
}

/** The one `rest_invalid_param` error for every invalid parameter, as WordPress reports them. */
/** One parameter refused: WordPress's bare "Invalid parameter." unless a message (and its detail code) is given. */
export function invalidParam(name: string, message = 'Invalid parameter.', detail?: { code: string; data: unknown }): RestError {
  return invalidParams(new Map([[name, [{ code: detail?.code ?? null, message, data: (detail?.data as Record<string, unknown>) ?? null }]]]));
}

export function invalidParams(failures: Map<string, ParamError[]>) {
  // Keyed by parameter names, which the client chose (a NUL byte is refused under any name, `__proto__` too).
  const params = paramMap() as Record<string, string>;
  const details = paramMap() as Record<string, { code: string; message: string; data: unknown }>;
  for (const [name, list] of failures) {
    // WordPress stops at a value's first failure (the first bad item of a list); zod reports them all.
    const first = list[0];
    params[name] = first?.message ?? '';
    if (first && first.code) details[name] = { code: first.code, message: first.message, data: first.data };
  }
  const names = [...failures.keys()].join(', ');
  // PHP encodes an empty details array as `[]`, not `{}`: keep that for clients that check the type.
  return errors.core.invalidParams(names, { params, details: Object.keys(details).length ? details : [] });
}
