/**
 * Validation of a request's parameters against an endpoint's argument schemas, with the legacy
 * error bodies: missing required parameters first (`rest_missing_callback_param`), then every
 * invalid one (`rest_invalid_param` with `params` and `details`).
 */
import type { z } from 'zod';
import { coreErrors, invalidParams, wpList, type ParamError } from './errors.ts';
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

/** Validates and coerces the declared arguments (the handler sees only those); throws the legacy 400 error. */
export function validateArgs(args: CompiledArg[], params: Record<string, unknown>): Record<string, unknown> {
  const missing = args.filter((a) => a.required && (params[a.name] === undefined || params[a.name] === null)).map((a) => a.name);
  if (missing.length) throw coreErrors.missingParams(missing);

  const out: Record<string, unknown> = {};
  const errors = new Map<string, ParamError[]>();
  for (const a of args) {
    const raw = params[a.name] === null ? undefined : params[a.name];
    // reportInput: a missing nested property is told apart from a wrong value by its input.
    const r = a.schema.safeParse(raw, { reportInput: true });
    if (r.success) {
      if (r.data !== undefined) out[a.name] = r.data;
    } else {
      errors.set(a.name, r.error.issues.map((i) => toParamError(a, i)));
    }
  }
  if (errors.size) throw invalidParams(errors);
  return out;
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
  const wp = (issue as { params?: { wp?: { code: string; message: string } } }).params?.wp;
  if (wp) return { code: wp.code, message: wp.message, data: null };
  const path = issue.path;
  const param = a.name + path.map((p) => `[${String(p)}]`).join('');
  const s = schemaAt(a.json, path);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined && path.length > 0) {
        const parent = a.name + path.slice(0, -1).map((p) => `[${String(p)}]`).join('');
        return { code: 'rest_property_required', message: `${String(path[path.length - 1])} is a required property of ${parent}.`, data: null };
      }
      return { code: 'rest_invalid_type', message: `${param} is not of type ${typeName(s, issue.expected)}.`, data: { param } };
    case 'invalid_value':
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
  const min = typeof s.minimum === 'number' ? s.minimum : undefined;
  const max = typeof s.maximum === 'number' ? s.maximum : undefined;
  let message: string;
  if (min !== undefined && max !== undefined) message = `${param} must be between ${min} (inclusive) and ${max} (inclusive)`;
  else if (min !== undefined) message = `${param} must be greater than or equal to ${min}`;
  else message = `${param} must be less than or equal to ${max}`;
  return { code: 'rest_out_of_bounds', message, data: null };
}
