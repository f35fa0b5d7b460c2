/**
 * Validation of a request's parameters against an endpoint's argument schemas, with the legacy
 * error bodies: missing required parameters first (`rest_missing_callback_param`), then every
 * invalid one (`rest_invalid_param` with `params` and `details`).
 */
import type { z } from 'zod';
import { errors } from './error-codes.ts';
import { wpList, type ParamError, type RestError } from './errors.ts';
import { paramMap } from '../lib/php-params.ts';
import { numericValue } from './coerce.ts';
import { checksTypeAfterCallbacks, hasValidateCallback, lookupOf } from './args.ts';
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
 * error. Record lookups (withLookup) need the request's context; without one they are not run.
 * `nulls`: the parameters a body sent as JSON `null` (nullParams). Input the store cannot hold
 * (`unstorable`) is the caller's to refuse, after the permission check.
 */
export async function validateArgs(
  args: CompiledArg[],
  params: Record<string, unknown>,
  path: PathParams = { values: {}, integers: [] },
  ctx?: RestContext,
  nulls: ReadonlySet<string> = new Set(),
  beyondStore?: Map<string, ParamError[]>,
): Promise<Record<string, unknown>> {
  const missing = args.filter((a) => a.required && (params[a.name] === undefined || params[a.name] === null)).map((a) => a.name);
  if (missing.length) throw errors.core.missingParams(missing);

  const out: Record<string, unknown> = {};
  const failures = new Map<string, ParamError[]>();
  // A path ID beyond 2^53 is not read as a number at all; a NUL byte is checked after the schema,
  // which the legacy site applies to it (an enum error names the enum), but never looked up.
  const unsafeIds = new Set(unsafePathIds(path));
  // The arguments with validate callbacks of their own first, in declaration order (has_valid_params); the schema
  // checks of the others only when those pass, in the order the request sent them, unsent ones last (sanitize_params).
  // (The nulls, left out of the merged parameters, after the others in the order sent.)
  const sent = new Map([...Object.keys(params), ...nulls].map((name, i) => [name, i]));
  const position = (a: CompiledArg) => sent.get(a.name) ?? sent.size;
  // A JSON `null` is not sent for required checks and validate callbacks (isset), but the schema
  // check of a typed argument (rest_parse_request_arg) still refuses it for its type, with the others.
  const typedNull = (a: CompiledArg) => nulls.has(a.name) && a.json.type !== undefined;
  const ownCallback = (a: CompiledArg) => hasValidateCallback(a.schema) && !typedNull(a);
  const inOrder = (list: CompiledArg[]) => list.sort((a, b) => position(a) - position(b));
  // Callbacks that passed on a value of another type than declared: its schema check refuses it later.
  const typeLater: CompiledArg[] = [];
  for (const [n, phase] of [args.filter(ownCallback), args.filter((a) => !ownCallback(a))].entries()) {
    for (const a of n === 0 ? phase : inOrder([...phase, ...typeLater])) {
      if (unsafeIds.has(a.name)) continue;
      const sentNull = typedNull(a);
      const raw = sentNull ? null : params[a.name] === null ? undefined : params[a.name];
      // reportInput: a missing nested property is told apart from a wrong value by its input.
      const r = a.schema.safeParse(raw, { reportInput: true });
      const lookup = lookupOf(a.schema);
      // The lookup is the validate callback's, which runs before the declared type is checked: a value of another type is looked up as sent.
      const typeOnly = !r.success && r.error.issues.every((i) => i.code === 'invalid_type');
      const looked = r.success ? r.data : raw;
      const deferred = n === 1 && typeLater.includes(a);
      if ((r.success || typeOnly) && looked !== undefined && !sentNull && !deferred && lookup && ctx && !containsNul(raw) && !(await lookup(ctx, looked))) failures.set(a.name, [INVALID_PARAM]);
      else if (n === 0 && typeOnly && checksTypeAfterCallbacks(a.schema)) typeLater.push(a);
      else if (r.success) {
        if (r.data !== undefined) out[a.name] = r.data;
      } else {
        // rest_validate_value_from_schema stops at the first item or property that fails: only its issues count.
        const at = JSON.stringify(r.error.issues[0]?.path);
        const found = r.error.issues.filter((i) => JSON.stringify(i.path) === at).map((i) => toParamError(a, i));
        // An integer past no declared bound, only past what the store holds: the legacy site takes it,
        // so its refusal (core-integer-range) waits for the permission check, when the caller collects it.
        if (beyondStore && r.error.issues[0] && pastStoreOnly(a, r.error.issues[0])) beyondStore.set(a.name, found);
        else failures.set(a.name, found);
      }
    }
    if (failures.size) throw invalidParams(failures);
  }
  return out;
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
