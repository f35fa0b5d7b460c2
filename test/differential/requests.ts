/**
 * Requests for the differential tester, generated from the route table the app builds: every route
 * of the compared namespaces with each of its methods (and now and then one it does not declare),
 * its documented arguments (valid values mostly, the fuzz suite's hostile ones sometimes) as query,
 * form or JSON, with the locale prefix, `_fields`, `_envelope` and `_method`, anonymous or as one
 * of the roles. A record ID in the path is left as a slot, filled when the request is sent: reads
 * take a seeded record or one made during the run, writes only a record made during the run.
 */
import fc from 'fast-check';
import { matchedTemplate, openApiPath } from '../../src/contract/openapi.ts';
import type { CompiledRoute, RouteTable } from '../../src/contract/router.ts';
import { locateRest, routeVars, type RestPrefixes } from '../../src/http/rest-request.ts';
import { parseQueryString } from '../../src/lib/php-params.ts';
import { formEncode, params, routePath, type Pair } from '../fuzz/requests.ts';

/** The namespaces both sides serve (the oracle lacks the plugins of forms, downloads, blocks and AI). */
export const COMPARED_NAMESPACES = ['calendar/events/v1', 'redirection/v1', 'history/v1', 'oembed/1.0', 'batch/v1'] as const;

export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];
export type Caller = Role | 'anonymous';

/** Stands for a record ID in a generated path until the request is sent. */
export const ID_SLOT = '{id}';

export interface DiffRequest {
  /** What the request counts under in the report: `GET /calendar/events/v1/events/{id}`. */
  route: string;
  /** The route template DEVIATIONS.md rows name (`/redirection/v1/export/{module}/{format}`). */
  template: string;
  /** The method the route sees (after `_method`): the one DEVIATIONS.md rows name. */
  effective: string;
  /** The namespace it counts under (`index` for the site and namespace indexes). */
  namespace: string;
  method: string;
  /** The path after the REST prefix, contract names, `{id}` slots unfilled. */
  path: string;
  /** The item route's collection, where the slot's records come from. */
  collection: string | null;
  /** Which of the known records fills the slot. */
  pick: number;
  /** `/fr` and the like, sent before `/wp-json` to Lintel (the legacy site's language plugin is not on the oracle). */
  locale: string;
  query: string;
  body?: { type: string; payload: string };
  caller: Caller;
  /** A write (not GET/HEAD/OPTIONS, after `_method`). */
  write: boolean;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Routes that wipe or reinstall a whole plugin's data: one run of them makes every later answer moot. */
const DESTRUCTIVE = /\/plugin(\/|$)|\/import\/plugin/;

const callers = fc.constantFrom<Caller>('anonymous', 'anonymous', 'administrator', 'administrator', 'administrator', 'editor', 'author', 'contributor', 'subscriber');
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** `_fields` lists: real top-level keys, nested ones, unknown ones. */
const FIELDS = ['id', 'id,title', 'title,start_date,venue', 'url,action_code', 'id,message,date', 'events', 'nope', 'id,nope', 'venue.venue', 'meta', ''];

function namespaceOf(route: CompiledRoute): string {
  return route.pattern === '/' || route.pattern === `/${route.namespace}` ? 'index' : route.namespace;
}

/** The pattern with each record-ID group turned into the slot (other groups are generated). */
function slotted(route: CompiledRoute): string {
  let p = route.pattern;
  for (const name of route.integerParams) p = p.replace(new RegExp(`\\(\\?P<${name}>[^)]*\\)`), ID_SLOT);
  return p;
}

/** `/calendar/events/v1/events/{id}` → `/calendar/events/v1/events`: where the slot's records are made. */
export function collectionOf(path: string): string | null {
  const i = path.lastIndexOf(`/${ID_SLOT}`);
  return i < 0 ? null : path.slice(0, i);
}

function restRequest(route: CompiledRoute): fc.Arbitrary<DiffRequest> {
  const pattern = slotted(route);
  const declared = [...new Set(route.endpoints.flatMap((e) => e.endpoint.methods))];
  return fc
    .record({
      e: fc.nat({ max: Math.max(0, route.endpoints.length - 1) }),
      path: routePath(pattern.replaceAll(ID_SLOT, '\u0001')).map((p) => p.replaceAll('\u0001', ID_SLOT)),
      other: fc.oneof({ weight: 9, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
      form: fc.constantFrom('query', 'form', 'json', 'json'),
      override: fc.oneof({ weight: 12, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'FOO') }),
      fields: fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...FIELDS) }),
      envelope: fc.oneof({ weight: 12, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      locale: fc.constantFrom('', '', '', '', '', '', '/fr'),
      caller: callers,
      pick: fc.nat(),
      m: fc.nat(),
    })
    .chain((r) => {
      const endpoint = route.endpoints[r.e];
      const methods = endpoint?.endpoint.methods ?? declared;
      const method = r.other ?? methods[r.m % Math.max(1, methods.length)] ?? 'GET';
      const args = Object.fromEntries((endpoint?.args ?? []).map((a) => [a.name, { ...a.json, required: a.required }]));
      return params(args).map((pairs) => build(route, r, method, pairs));
    });
}

interface Shape {
  path: string;
  form: string;
  override: string | null;
  fields: string | null;
  envelope: boolean;
  locale: string;
  caller: Caller;
  pick: number;
}

function build(route: CompiledRoute, r: Shape, method: string, pairs: Pair[]): DiffRequest {
  const query: Pair[] = [];
  let body: DiffRequest['body'];
  // Only the fuzz suite's declared arguments go into the body: its hostile extra keys stay in the query.
  const inQuery = r.form === 'query' || method === 'GET' || method === 'HEAD';
  (inQuery ? query : []).push(...pairs);
  if (!inQuery && pairs.length) {
    body = r.form === 'form' ? { type: 'application/x-www-form-urlencoded', payload: formEncode(pairs) } : { type: 'application/json', payload: JSON.stringify(Object.fromEntries(pairs)) };
  }
  if (r.override) query.push(['_method', r.override]);
  if (r.fields !== null) query.push(['_fields', r.fields]);
  if (r.envelope) query.push(['_envelope', '1']);
  // WP_REST_Server::serve_request takes `?_method=` whatever the request's own method (Lintel too): a PATCH `?_method=GET` is a read.
  const effective = (r.override ?? method).toUpperCase();
  const path = r.path;
  const template = openApiPath(route.pattern).path;
  return {
    route: `${method} ${template}`,
    template,
    effective,
    namespace: namespaceOf(route),
    method,
    path,
    collection: collectionOf(path),
    pick: r.pick,
    locale: r.locale,
    query: formEncode(query),
    body,
    caller: r.caller,
    write: !READS.has(effective),
  };
}

/** A batch/v1 call whose items address the compared namespaces' write routes. */
function batchRequest(routes: CompiledRoute[]): fc.Arbitrary<DiffRequest> {
  const item = fc
    .record({ route: fc.constantFrom(...routes), method: fc.constantFrom('POST', 'PUT', 'DELETE', 'GET') })
    .chain((i) =>
      fc
        .tuple(routePath(slotted(i.route).replaceAll(ID_SLOT, '(?P<id>\\d+)')), params(Object.fromEntries((i.route.endpoints[0]?.args ?? []).map((a) => [a.name, { ...a.json, required: a.required }]))))
        .map(([path, pairs]) => ({ method: i.method, path, body: Object.fromEntries(pairs) })),
    );
  return fc
    .record({ requests: fc.array(item, { minLength: 1, maxLength: 3 }), validation: fc.constantFrom(undefined, 'normal', 'require-all-validate'), caller: callers })
    .map(({ requests, validation, caller }) => ({
      route: 'POST /batch/v1',
      template: '/batch/v1',
      effective: 'POST',
      namespace: 'batch/v1',
      method: 'POST',
      path: '/batch/v1',
      collection: null,
      pick: 0,
      locale: '',
      query: '',
      body: { type: 'application/json', payload: JSON.stringify(validation === undefined ? { requests } : { requests, validation }) },
      caller,
      write: true,
    }));
}

/** The site index and a namespace index under `?rest_route=` too, and unknown routes (rest_no_route). */
function oddRequest(): fc.Arbitrary<DiffRequest> {
  return fc
    .record({ path: fc.constantFrom('/', '/calendar/events/v1', '/redirection/v1', '/history/v1', '/oembed/1.0', '/batch/v1', '/calendar/events/v1/nope', '/nope/v1'), caller: callers, q: fc.constantFrom('', 'context=help', '_fields=namespaces', 'namespace=x') })
    .map(({ path, caller, q }) => ({ route: `GET ${path}`, template: path, effective: 'GET', namespace: 'index', method: 'GET', path, collection: null, pick: 0, locale: '', query: q, caller, write: false }));
}

/** Every request the tester sends: each compared route equally likely, some batch calls and index requests. */
export function differentialRequests(table: RouteTable): fc.Arbitrary<DiffRequest> {
  const routes = table.routes.filter((r) => (r.pattern === '/' || (COMPARED_NAMESPACES as readonly string[]).includes(r.namespace)) && !DESTRUCTIVE.test(r.pattern));
  const writeRoutes = routes.filter((r) => r.namespace !== 'batch/v1' && r.endpoints.some((e) => e.endpoint.allowBatch));
  const rest = fc.nat({ max: routes.length - 1 }).chain((i) => restRequest(routes[i]!));
  return fc.oneof({ weight: 18, arbitrary: rest }, { weight: 1, arbitrary: batchRequest(writeRoutes) }, { weight: 1, arbitrary: oddRequest() });
}


/** The template DEVIATIONS.md names the site's front page by: WordPress answers it, not the API, when `rest_route` is empty. */
export const FRONT_PAGE = '/?rest_route=';

/**
 * The route template a request reaches, for DEVIATIONS.md, found as Lintel routes it: the front page
 * when the `rest_route` WordPress reads is empty, else the template of the route the table matches for
 * the route the request names (by its path or a `rest_route`), or that route itself when none does. A
 * POST form's `rest_route` differing from the query's is wp_die's: the request counts under its own.
 */
export async function reachedTemplate(r: DiffRequest, table: RouteTable, prefixes: RestPrefixes): Promise<string> {
  const pathname = `${r.locale}/${prefixes.restPrefix}${r.path.replaceAll(ID_SLOT, '1')}`;
  const headers = r.body ? { 'content-type': r.body.type } : {};
  const vars = await routeVars({ method: r.method, url: `${pathname}?${r.query}`, headers, body: r.body ? Buffer.from(r.body.payload) : undefined });
  if (vars === 'mismatch') return r.template;
  const loc = locateRest(pathname, vars, prefixes);
  if (!loc) return FRONT_PAGE;
  return matchedTemplate(table, r.effective, loc.route) ?? loc.route;
}

/**
 * What a request has that the contract reads the same on every route (the report counts verdicts per
 * feature, so a contract-wide class shows whatever namespace it is met in): a parameter PHP reads as
 * `rest_route` (by where it is and its value), a NUL byte, nested brackets, `_envelope`, `_fields`,
 * `_method`, a locale prefix.
 */
export function featuresOf(r: DiffRequest): string[] {
  const out: string[] = [];
  const query = parseQueryString(r.query);
  const form = r.body?.type.startsWith('application/x-www-form-urlencoded') ? parseQueryString(r.body.payload) : null;
  const routeValue = (v: unknown) => (v === '' || v === '0' ? 'empty ' : typeof v === 'string' ? '' : 'array ');
  if (query.rest_route !== undefined) out.push(`rest_route ${routeValue(query.rest_route)}(query)`);
  if (form?.rest_route !== undefined) out.push(`rest_route ${routeValue(form.rest_route)}(${r.method === 'POST' ? 'POST form' : 'form'})`);
  if (r.body?.type === 'application/json' && /"rest_route"/.test(r.body.payload)) out.push('rest_route (JSON)');
  if (/%00/.test(r.query) || /%00|\\u0000/.test(r.body?.payload ?? '')) out.push('NUL');
  const keys = [...new URLSearchParams(r.query).keys(), ...(form ? new URLSearchParams(r.body!.payload).keys() : [])];
  if (keys.some((k) => /\[[^\]]*\]\[/.test(k))) out.push('nested brackets');
  for (const name of ['_envelope', '_fields', '_method']) if (keys.some((k) => k === name || k.startsWith(`${name}[`))) out.push(name);
  if (r.locale) out.push('locale');
  return out;
}
