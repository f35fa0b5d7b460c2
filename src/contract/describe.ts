/**
 * Argument descriptors and route entries as the legacy index shows them, generated from the zod
 * schemas with `z.toJSONSchema` and cut down to the keywords WordPress keeps.
 */
import { z } from 'zod';
import type { ArgShape, Endpoint, RouteDecl } from './route.ts';

// WordPress keeps these schema keywords in the index (rest_get_allowed_schema_keywords); the
// contract names the ones its routes use.
const KEPT = new Set([
  'title', 'description', 'default', 'type', 'format', 'enum', 'items', 'properties', 'additionalProperties',
  'patternProperties', 'minProperties', 'maxProperties', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'multipleOf', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'anyOf', 'oneOf',
]);
const SAFE_INT = Number.MAX_SAFE_INTEGER;

export type JsonSchema = Record<string, unknown>;

/**
 * A schema as standard JSON Schema 2020-12 (what OpenAPI 3.1 takes): zod's output without the
 * `$schema` marker and the safe-integer bounds zod adds to every integer.
 */
export function jsonSchema(schema: z.ZodType): JsonSchema {
  return standard(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema);
}

/** The same in OpenAPI 3.0's dialect, every part inline (named parts too) and without descriptions. */
export function inlineOpenApi30Schema(schema: z.ZodType): JsonSchema {
  return standard(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'openapi-3.0', metadata: z.registry() }) as JsonSchema);
}

function standard(s: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === '$schema' || (k === 'minimum' && v === -SAFE_INT) || (k === 'maximum' && v === SAFE_INT)) continue;
    out[k] = Array.isArray(v) ? v.map((x) => (isSchema(x) ? standard(x) : x)) : isSchema(v) ? (k === 'properties' || k === '$defs' ? mapValues(v, standard) : standard(v)) : v;
  }
  return out;
}

const isSchema = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);
const mapValues = (o: JsonSchema, f: (v: JsonSchema) => JsonSchema) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v as JsonSchema)]));

/** The legacy (WordPress) JSON schema of one argument, for descriptors and error messages. */
export function argJsonSchema(schema: z.ZodType): JsonSchema {
  return legacy(jsonSchema(schema));
}

// WordPress lists nested objects' required properties the draft 3 way, as `required: true` on
// each, writes an empty property list as `[]`, and never had `pattern`.
function legacy(s: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'required' || k === 'pattern') continue;
    if (k === 'properties' && isSchema(v)) {
      const req = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      const props: JsonSchema = {};
      for (const [pk, pv] of Object.entries(v)) {
        const c = legacy(pv as JsonSchema);
        props[pk] = req.has(pk) && !('default' in c) ? { ...c, required: true } : c;
      }
      out[k] = Object.keys(props).length ? props : [];
    } else if (k === 'items' && isSchema(v)) out[k] = legacy(v);
    else if (k === 'additionalProperties' && isSchema(v)) {
      const c = legacy(v);
      out[k] = Object.keys(c).length ? c : true;
    } else out[k] = v;
  }
  if (out.type === 'object' && !('properties' in out) && 'additionalProperties' in out) out.properties = [];
  return out;
}

/** Whether the argument must be sent: it has no default and does not accept absence. */
export function isRequired(schema: z.ZodType): boolean {
  return !schema.safeParse(undefined).success;
}

export function describeArgs(args: ArgShape): Record<string, JsonSchema> | [] {
  const entries = Object.entries(args);
  if (entries.length === 0) return [];
  const out: Record<string, JsonSchema> = {};
  for (const [name, schema] of entries) {
    const full = argJsonSchema(schema);
    const d: JsonSchema = {};
    for (const [k, v] of Object.entries(full)) if (KEPT.has(k)) d[k] = v;
    d.required = isRequired(schema);
    out[name] = d;
  }
  return out;
}

// Descriptors depend only on the declaration, so each endpoint is described once (the index is
// requested often and has hundreds of arguments).
const described = new WeakMap<Endpoint, JsonSchema>();

export function describeEndpoint(e: Endpoint): JsonSchema {
  let d = described.get(e);
  if (!d) {
    d = { methods: [...e.methods] };
    if (e.allowBatch) d.allow_batch = { v1: true };
    d.args = describeArgs(e.args);
    described.set(e, d);
  }
  return d;
}

/**
 * A route entry of the index: `namespace, methods, endpoints`, in the help context (OPTIONS, an index
 * with `context=help`) the route's `schema`, and `_links.self` for fixed paths.
 */
export function describeRoute(r: RouteDecl, restUrl: (path: string) => string, help = false): JsonSchema {
  const entry: JsonSchema = {
    namespace: r.namespace,
    methods: r.endpoints.flatMap((e) => e.methods),
    endpoints: r.endpoints.map(describeEndpoint),
  };
  if (help && r.schema) entry.schema = r.schema;
  if (!r.pattern.includes('(')) entry._links = { self: [{ href: restUrl(r.pattern) }] };
  return entry;
}
