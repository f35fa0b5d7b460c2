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

/** The full JSON schema of one argument (used for descriptors and for error messages). */
export function argJsonSchema(schema: z.ZodType): JsonSchema {
  return clean(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema);
}

// zod adds bounds for safe integers and draft markers that the legacy schema never had; nested
// objects list their required properties the WordPress (draft 3) way, as `required: true` on each.
function clean(s: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === '$schema' || k === 'required' || k === 'pattern') continue;
    if ((k === 'minimum' && v === -SAFE_INT) || (k === 'maximum' && v === SAFE_INT)) continue;
    if (k === 'properties' && v && typeof v === 'object') {
      const req = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      const props: JsonSchema = {};
      for (const [pk, pv] of Object.entries(v as JsonSchema)) {
        const c = clean(pv as JsonSchema);
        props[pk] = req.has(pk) && !('default' in c) ? { ...c, required: true } : c;
      }
      out[k] = Object.keys(props).length ? props : [];
    } else if (k === 'items' && v && typeof v === 'object') out[k] = clean(v as JsonSchema);
    else if (k === 'additionalProperties' && v && typeof v === 'object') {
      const c = clean(v as JsonSchema);
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

/** A route entry of the index: `namespace, methods, endpoints` and `_links.self` for fixed paths. */
export function describeRoute(r: RouteDecl, restUrl: (path: string) => string): JsonSchema {
  const entry: JsonSchema = {
    namespace: r.namespace,
    methods: r.endpoints.flatMap((e) => e.methods),
    endpoints: r.endpoints.map(describeEndpoint),
  };
  if (!r.pattern.includes('(')) entry._links = { self: [{ href: restUrl(r.pattern) }] };
  return entry;
}
