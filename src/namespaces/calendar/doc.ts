/** `/doc`: an OpenAPI 3.0.0 document generated from the route declarations and the object schemas. */
import { argJsonSchema, isRequired } from '../../contract/describe.ts';
import type { RouteDecl } from '../../contract/route.ts';
import type { RestContext } from '../../http/context.ts';
import { NAMESPACE } from './common.ts';

const str = { type: 'string' };
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const schemas = {
  ImageSize: { type: 'object', properties: { width: int, height: int, 'mime-type': str, url: str } },
  CostDetails: { type: 'object', properties: { currency_symbol: str, currency_position: str, values: { type: 'array', items: int } } },
  Term: { type: 'object', properties: { id: int, name: str, slug: str, taxonomy: str, description: str, parent: int, count: int, url: str, urls: { type: 'array', items: str } } },
  Image: { type: 'object', properties: { url: str, id: int, extension: str, width: int, height: int, sizes: { type: 'array', items: ref('ImageSize') } } },
  DateDetails: { type: 'object', properties: { year: int, month: int, day: int, hour: int, minutes: int, seconds: int } },
  Venue: { type: 'object', properties: Object.fromEntries(['id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'venue', 'description', 'excerpt', 'slug', 'address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince'].map((k) => [k, k === 'id' ? int : str])) },
  Organizer: { type: 'object', properties: Object.fromEntries(['id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'organizer', 'description', 'excerpt', 'slug', 'phone', 'website', 'email'].map((k) => [k, k === 'id' ? int : str])) },
  Event: {
    type: 'object',
    properties: {
      id: int, global_id: str, global_id_lineage: { type: 'array', items: str }, author: str, status: str, date: str, date_utc: str, modified: str, modified_utc: str,
      url: str, rest_url: str, title: str, description: str, excerpt: str, slug: str, image: ref('Image'), all_day: bool,
      start_date: str, start_date_details: ref('DateDetails'), end_date: str, end_date_details: ref('DateDetails'),
      utc_start_date: str, utc_start_date_details: ref('DateDetails'), utc_end_date: str, utc_end_date_details: ref('DateDetails'),
      timezone: str, timezone_abbr: str, cost: str, cost_details: ref('CostDetails'), website: str, show_map: bool, show_map_link: bool,
      hide_from_listings: bool, sticky: bool, featured: bool, categories: { type: 'array', items: ref('Term') }, tags: { type: 'array', items: ref('Term') },
      venue: ref('Venue'), organizer: { type: 'array', items: ref('Organizer') },
    },
  },
};

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
      const params = Object.entries(e.args).map(([name, s]) => {
        const js = argJsonSchema(s);
        const p: Record<string, unknown> = {
          name, in: inPath.has(name) ? 'path' : 'query', description: (js.description as string | undefined) ?? '',
          schema: { type: typeof js.type === 'string' ? js.type : js.items ? 'array' : 'string' }, required: inPath.has(name) || isRequired(s),
        };
        if (js.items) Object.assign(p, { style: 'form', explode: false });
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
