/**
 * OpenAPI 3.1 for every served namespace, generated from the same route declarations that
 * validate requests (argument schemas through `jsonSchema`) and declare their responses, so the
 * document cannot drift from what Lintel accepts. Legacy patterns become OpenAPI paths:
 * `(?P<id>\d+)` is `{id}` with the group's regex as the parameter's `pattern`.
 */
import { roles, type User } from '../lib/roles.ts';
import { isRequired, jsonSchema, type JsonSchema } from './describe.ts';
import type { Permission } from './permission.ts';
import type { CompiledRoute, RouteTable } from './router.ts';
import type { Endpoint, Method } from './route.ts';

export type OpenApiDocument = JsonSchema & { paths: Record<string, Record<string, JsonSchema>> };

interface PathParam {
  name: string;
  pattern: string;
}

/** Splits a legacy pattern into an OpenAPI path and its named groups (balanced parentheses). */
export function openApiPath(pattern: string): { path: string; params: PathParam[] } {
  const params: PathParam[] = [];
  let path = '';
  for (let i = 0; i < pattern.length; ) {
    if (pattern.startsWith('(?P<', i)) {
      const nameEnd = pattern.indexOf('>', i);
      const name = pattern.slice(i + 4, nameEnd);
      let depth = 1;
      let j = nameEnd + 1;
      for (; j < pattern.length && depth > 0; j++) {
        if (pattern[j] === '\\') j++;
        else if (pattern[j] === '(') depth++;
        else if (pattern[j] === ')') depth--;
      }
      params.push({ name, pattern: `^(?:${pattern.slice(nameEnd + 1, j - 1)})$` });
      path += `{${name}}`;
      i = j;
    } else path += pattern[i++];
  }
  return { path, params };
}

/**
 * The contract template (`/calendar/events/v1/events/{id}`) of the route the table matches for a
 * method and route, as DEVIATIONS.md rows name it; null when no route matches.
 */
export function matchedTemplate(table: RouteTable, method: string, route: string): string | null {
  const matched = table.match(route, method.toUpperCase() as Method);
  return matched ? openApiPath(matched.route.declaredPattern).path : null;
}

const BODY_METHODS = new Set<Method>(['POST', 'PUT', 'PATCH']);

const errorSchema: JsonSchema = {
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: {
    code: { type: 'string', description: 'A stable error code, e.g. rest_invalid_param' },
    message: { type: 'string' },
    data: {
      type: ['object', 'null'],
      properties: { status: { type: 'integer' }, params: { type: 'object' }, details: {} },
    },
  },
};

/** The roles a permission lets in at all (per-record checks aside); every role when it is public. */
export function rolesAllowed(p: Permission<never>): { public: boolean; roles: string[] } {
  const user = (role: User['role']): User => ({ id: 0, login: role, email: '', displayName: role, role });
  return { public: p.allows(null), roles: roles.filter((r) => p.allows(user(r))) };
}

/** A URL-safe operationId from the method and the path template: `get-calendar-events-v1-events-id`. */
export function operationId(method: Method, path: string): string {
  return [method.toLowerCase(), ...path.split(/[^A-Za-z0-9]+/).filter(Boolean)].join('-').toLowerCase();
}

/** A parameter, with its schema's description where renderers show it. */
function parameter(name: string, where: 'path' | 'query', required: boolean, schema: JsonSchema): JsonSchema {
  return { name, in: where, required, ...(typeof schema.description === 'string' ? { description: schema.description } : {}), schema };
}

const errorResponse = { description: 'A WordPress-style error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

/**
 * A response schema whose named parts (zod `.meta({ id })`, e.g. `Event`) become components,
 * referenced from every answer that holds them instead of repeated in each.
 */
export function withComponents(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const { $defs, ...rest } = schema as JsonSchema & { $defs?: Record<string, JsonSchema> };
  const toComponents = (s: JsonSchema) => JSON.parse(JSON.stringify(s).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
  for (const [name, def] of Object.entries($defs ?? {})) components[name] ??= toComponents(def);
  return toComponents(rest);
}

function operation(route: CompiledRoute, e: Endpoint, method: Method, path: string, pathParams: PathParam[], components: Record<string, JsonSchema>): JsonSchema {
  const inPath = new Set(pathParams.map((p) => p.name));
  const args = Object.entries(e.args).filter(([name]) => !inPath.has(name));
  const parameters: JsonSchema[] = pathParams.map((p) => {
    const declared = e.args[p.name];
    return parameter(p.name, 'path', true, { ...(declared ? jsonSchema(declared) : { type: 'string' }), pattern: p.pattern });
  });
  const access = rolesAllowed(e.permission);
  const reply = e.response;
  const op: JsonSchema = {
    tags: [route.namespace || 'core'],
    summary: e.summary ?? `${method} ${route.namespace ? path.slice(route.namespace.length + 1) || '/' : path}`,
    description: access.public
      ? 'Public (some records may still need credentials).'
      : `Needs credentials of a user with one of the roles: ${access.roles.join(', ') || 'none'}.`,
    operationId: operationId(method, path),
    'x-roles': access.public ? ['anonymous', ...access.roles] : access.roles,
    security: access.public ? [{}, { applicationPassword: [] }] : [{ applicationPassword: [] }],
    parameters,
    responses: {
      [String(reply.status)]: { description: 'Success', content: { [reply.contentType]: { schema: withComponents(jsonSchema(reply.body), components) } } },
      '4XX': errorResponse,
      default: errorResponse,
    },
  };
  if (e.allowBatch) op['x-allow-batch'] = true;
  if (BODY_METHODS.has(method) && args.length) {
    // WordPress reads these from the JSON or form body, and from the query string as well.
    const properties: JsonSchema = {};
    const required: string[] = [];
    for (const [name, schema] of args) {
      properties[name] = jsonSchema(schema);
      if (isRequired(schema)) required.push(name);
    }
    const body = { type: 'object', properties, ...(required.length ? { required } : {}) };
    op.requestBody = {
      content: { 'application/json': { schema: body }, 'application/x-www-form-urlencoded': { schema: body } },
    };
  } else {
    for (const [name, schema] of args) {
      parameters.push(parameter(name, 'query', isRequired(schema), jsonSchema(schema)));
    }
  }
  return op;
}

/**
 * The document for the table's declared namespaces (aliases serve the same routes and are
 * listed in `x-aliases`, not repeated). `restBase` is `{base}/{prefix}`.
 */
export function openApiDocument(table: RouteTable, opts: { restBase: string; title: string; aliases: Record<string, string[]> }): OpenApiDocument {
  const aliasOf = new Set(Object.values(opts.aliases).flat());
  const paths: OpenApiDocument['paths'] = {};
  const schemas: Record<string, JsonSchema> = { Error: errorSchema };
  const tags = new Map<string, JsonSchema>();
  for (const route of table.routes) {
    if (aliasOf.has(route.namespace)) continue;
    const { path, params } = openApiPath(route.pattern);
    const item: Record<string, JsonSchema> = (paths[path || '/'] ??= {});
    const tag = route.namespace || 'core';
    if (!tags.has(tag)) tags.set(tag, { name: tag, ...(opts.aliases[tag]?.length ? { 'x-aliases': opts.aliases[tag] } : {}) });
    for (const e of route.decl.endpoints) {
      for (const method of e.methods) item[method.toLowerCase()] ??= operation(route, e, method, path || '/', params, schemas);
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: opts.title, version: '1', description: 'Generated from the route declarations Lintel validates with.', license: { name: 'MIT', identifier: 'MIT' } },
    servers: [{ url: opts.restBase }],
    tags: [...tags.values()],
    paths,
    components: {
      schemas,
      securitySchemes: { applicationPassword: { type: 'http', scheme: 'basic', description: 'login and application password' } },
    },
  };
}
