/** `/doc`: an OpenAPI 3.0.0 document generated from the route declarations and the object schemas. */
import { z } from 'zod';
import { argJsonSchema, inlineOpenApi30Schema, isRequired } from '../../contract/describe.ts';
import type { RouteDecl } from '../../contract/route.ts';
import type { RestContext } from '../../contract/context.ts';
import { NAMESPACE } from './common.ts';
import { swaggerOf } from './args.ts';
import { CostDetails, DateDetails, Event, Image, ImageSize, Organizer, Term, Venue } from './schemas.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

// The components the legacy document lists, from the schemas `/openapi.json` declares.
const components = { ImageSize, CostDetails, Term, Image, DateDetails, Venue, Organizer, Event };
const schemas = Object.fromEntries(Object.entries(components).map(([name, s]) => [name, inlineOpenApi30Schema(s)]));

/** The legacy document's outline, as `/openapi.json` declares it. */
export const legacyDoc = z.looseObject({ openapi: z.literal('3.0.0'), info: z.looseObject({ title: z.string(), version: z.string() }), components: z.looseObject({}), servers: z.array(z.object({ url: z.string() })), paths: z.record(z.string(), z.looseObject({})) });

/** The schema each route answers with, by the last segment of its path. */
function responseSchema(path: string): string | null {
  if (path.startsWith('/events')) return 'Event';
  if (path.startsWith('/venues')) return 'Venue';
  if (path.startsWith('/organizers')) return 'Organizer';
  if (path.startsWith('/categories') || path.startsWith('/tags')) return 'Term';
  return null;
}

export function openApi(ctx: RestContext, routes: RouteDecl[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.pattern.slice(NAMESPACE.length + 1).replace(/\(\?P<(\w+)>[^)]*\)/g, '{$1}');
    const ops: Record<string, unknown> = {};
    const schema = responseSchema(path);
    for (const e of r.endpoints) {
      const method = e.methods[0].toLowerCase();
      const inPath = new Set([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
      // swaggerize_args: the declared swagger_type (else type), the declared items, and `style: form` for a CSV list
      // (its `explode: false` is dropped with the other falsy keys by array_filter).
      const params = Object.entries(e.args).map(([name, s]) => {
        const js = argJsonSchema(s);
        const swagger = swaggerOf(s);
        const type = swagger.swagger_type ?? (typeof js.type === 'string' ? js.type : 'string');
        const p: Record<string, unknown> = {
          name, in: swagger.in ?? (inPath.has(name) ? 'path' : 'query'), description: (js.description as string | undefined) ?? '',
          schema: { type, ...(js.items ? { items: js.items } : {}) }, required: inPath.has(name) || isRequired(s),
        };
        if (swagger.collectionFormat === 'csv') p.style = 'form';
        return p;
      });
      const op: Record<string, unknown> = {};
      if (method === 'get' || method === 'delete') op.parameters = params;
      else {
        op.parameters = params.filter((p) => p.in === 'path');
        const props = Object.fromEntries(params.filter((p) => p.in !== 'path').map((p) => [p.name, { ...(p.schema as object), description: p.description }]));
        op.requestBody = { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: props } } } };
      }
      const ok = method === 'post' && !inPath.size ? '201' : '200';
      op.responses = {
        [ok]: { description: 'Returns the data', ...(schema ? { content: { 'application/json': { schema: ref(schema) } } } : {}) },
        '400': { description: 'A required parameter is missing or an input parameter is in the wrong format' },
        ...(method === 'get' ? { '404': { description: 'The requested record does not exist' } } : { '403': { description: 'The user is not authorized' } }),
      };
      ops[method] = op;
    }
    paths[path] = ops;
  }
  const api = new URL(ctx.urls.apiRoot);
  return {
    openapi: '3.0.0',
    info: { version: '1.0.0', title: 'The Events Calendar REST API', description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.' },
    components: { schemas },
    servers: [{ url: `${api.protocol}//${api.hostname}${api.pathname}${NAMESPACE}/` }],
    paths,
  };
}
