/**
 * Steps 2 and 3 of the pipeline, in the legacy order: plan (route match, JSON body, required and
 * valid parameters) and run (permission, then the handler). Batch items go through the very same
 * two functions, which is why they are separate.
 */
import { errors } from '../contract/error-codes.ts';
import { RestError, type ParamError } from '../contract/errors.ts';
import { authorize, refuseUnlessAllowed, type Permission } from '../contract/permission.ts';
import type { Params } from '../lib/php-params.ts';
import type { Method, RawBody, RestResult, ResultHeaders } from '../contract/route.ts';
import type { CompiledEndpoint, CompiledRoute, RouteTable } from '../contract/router.ts';
import { unstorable, validateArgs } from '../contract/validate.ts';
import { saveFiltered } from '../contract/save-filters.ts';
import { StoreUnavailable } from '../store/store.ts';
import type { RestContext } from '../contract/context.ts';
import { mergeParams, paramSources, type RestBody } from './rest-request.ts';

export interface RestCall {
  method: string;
  route: string;
  query: Params;
  body: RestBody;
  /** The parts of a context that do not depend on the matched route. */
  ctx: Omit<RestContext, 'method' | 'route' | 'query' | 'params' | 'files'>;
}

export interface Plan {
  route: CompiledRoute;
  endpoint: CompiledEndpoint;
  args: Record<string, unknown>;
  ctx: RestContext;
  /** The refusal of input the store cannot hold (core-nul-bytes, core-integer-range), due after the permission check. */
  unstorable: RestError | null;
}

/** The response before shaping: status, body, headers, and the Allow header of the matched route. */
export interface Outcome {
  status: number;
  body: unknown;
  headers: ResultHeaders;
  raw?: RawBody;
  links?: Record<string, unknown>;
  route: CompiledRoute | null;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']);

/** The endpoint the call names, its merged parameters and the context its handler sees; null when no endpoint matches. */
function located(table: RouteTable, call: RestCall) {
  const method = call.method as Method | 'HEAD';
  const match = METHODS.has(method) ? table.match(call.route, method, call.ctx) : null;
  return match?.endpoint ? locatedAt(match.route, match.endpoint, match.urlParams, call, method) : null;
}

/** A call at a route it matched: its parameters merged as WordPress merges them for the method, and its context. */
function locatedAt(route: CompiledRoute, endpoint: CompiledEndpoint, urlParams: Record<string, string>, call: RestCall, method: Method | 'HEAD' | 'OPTIONS') {
  const params = mergeParams(call.body, method, call.query, urlParams);
  const ctx: RestContext = { ...call.ctx, method, route: call.route, query: call.query, params, files: call.body.files };
  return { route, endpoint, urlParams, params, ctx };
}

export async function plan(table: RouteTable, call: RestCall): Promise<Plan> {
  const at = located(table, call);
  if (!at) throw errors.core.noRoute();
  // WordPress checks batch eligibility between the route match and the parameters.
  if (call.ctx.inBatch && !at.endpoint.endpoint.allowBatch) throw errors.core.batchNotAllowed();
  if (call.body.json && !call.body.json.ok) throw errors.core.invalidJson(call.body.json.error);
  // Path parameters belong to the route's own declaration (its pattern): handlers get them even
  // when the legacy route lists no argument for them.
  const path = { values: at.urlParams, integers: at.route.integerParams };
  const beyondStore = new Map<string, ParamError[]>();
  const sources = paramSources(call.body, at.ctx.method, call.query, at.urlParams);
  const validated = saveFiltered(at.endpoint.endpoint, await validateArgs(at.endpoint.args, at.params, path, at.ctx, sources, beyondStore), at.ctx.user);
  const args = { ...at.urlParams, ...validated };
  return { route: at.route, endpoint: at.endpoint, args, ctx: at.ctx, unstorable: unstorable(readInput(at.endpoint.endpoint, validated, at.params), path, beyondStore) };
}

/**
 * What core-nul-bytes looks at: what the handler reads, its declared arguments as validated (a
 * sanitized one as cleaned) and the undeclared ones it `reads`. Any other parameter never reaches
 * the store, and the legacy site ignores it.
 */
function readInput(e: CompiledEndpoint['endpoint'], validated: Record<string, unknown>, params: Record<string, unknown>): Record<string, unknown> {
  if (e.storesNoInput) return {};
  const read = { ...validated };
  for (const name of e.reads ?? []) if (params[name] !== undefined) read[name] = params[name];
  return read;
}

export async function run(p: Plan): Promise<RestResult> {
  // The legacy site has no such refusal: a caller it refuses (401/403) is refused first. The
  // permission's own check is not run on such input, as it may look it up.
  if (p.unstorable) {
    refuseUnlessAllowed(p.endpoint.endpoint.permission, p.ctx);
    throw p.unstorable;
  }
  await authorize(p.endpoint.endpoint.permission, p.ctx, p.args);
  return p.endpoint.endpoint.handler(p.ctx, p.args);
}

/** The methods this user may call on the route: the legacy `Allow` header. */
export function allowHeader(route: CompiledRoute, ctx: Pick<RestContext, 'user'>): string {
  return route.endpoints.filter((e) => e.endpoint.permission.allows(ctx.user)).flatMap((e) => e.endpoint.methods).join(', ');
}

/** Plans (unless given the plan) and runs one call; every failure becomes its legacy error body. */
export async function dispatch(table: RouteTable, call: RestCall, given?: Plan): Promise<Outcome> {
  let planned: Plan | null = given ?? null;
  try {
    planned ??= await plan(table, call);
    const result = await run(planned);
    const refused = await refusedOnRecord(planned, planned.endpoint);
    return withAllow({ status: result.status ?? 200, body: result.body, headers: result.headers ?? {}, raw: result.raw, links: result.links, route: planned.route }, call, refused);
  } catch (e) {
    const err = asRestError(e, call.ctx.log);
    const route = planned?.route ?? (err.code === 'rest_no_route' ? null : matchRoute(table, call));
    // Input the store cannot hold is not looked up: the record checks run on the path alone.
    const looked = planned && !planned.unstorable ? planned : pathOnly(table, call);
    return withAllow({ status: err.status, body: err.toBody(), headers: {}, route }, call, await refusedOnRecord(looked));
  }
}

/**
 * The methods of the route whose permission the legacy site checks on the record the path names
 * and which fails there (a missing record, or one the caller may not change), for the caller who
 * may use them at all. The endpoint that answered passed its own check.
 */
async function refusedOnRecord(p: (Plan & { idless?: boolean }) | null, answered?: CompiledEndpoint): Promise<Set<string>> {
  const out = new Set<string>();
  // Endpoints sharing a permission (an update and a delete) share its one lookup.
  const verdicts = new Map<Permission<never>, Promise<boolean>>();
  for (const e of p?.route.endpoints ?? []) {
    const { permission, methods } = e.endpoint;
    const ofRecord = permission.ofRecord;
    if (!ofRecord || e === answered || !permission.allows(p!.ctx.user)) continue;
    if (!verdicts.has(permission)) verdicts.set(permission, p!.idless && !permission.readsRequest ? Promise.resolve(permission.anyValueLooksUp !== true) : ofRecord(p!.ctx, p!.args));
    if (!(await verdicts.get(permission))) for (const m of methods) out.add(m);
  }
  return out;
}

/** A request whose parameters were refused, at the route it matched, for the Allow header's record checks (see onPath). */
function pathOnly(table: RouteTable, call: RestCall): (Plan & { idless: boolean }) | null {
  const at = located(table, call);
  return at && onPath(at);
}

/**
 * A located call as the Allow header's record checks see it (a refused request, or OPTIONS, whose
 * arguments are not checked): the legacy permission callbacks read the request's own path parameters (a query or body `id` overrides the
 * path's). A list or a number that is no ID there (`idless`) is left to the plain permissions, but
 * for those that look up any value (`anyValueLooksUp`), which find no record, and those that read
 * the request themselves (`readsRequest`).
 */
function onPath(at: ReturnType<typeof locatedAt>): Plan & { idless: boolean } {
  const args: Record<string, unknown> = {};
  let idless = false;
  for (const name of Object.keys(at.urlParams)) {
    const v = at.params[name];
    const id = at.route.integerParams.includes(name);
    if ((typeof v !== 'string' && typeof v !== 'number') || (id && !Number.isSafeInteger(Number(v)))) idless = true;
    else args[name] = id ? Number(v) : v;
  }
  return { route: at.route, endpoint: at.endpoint, args, ctx: at.ctx, idless, unstorable: null };
}

/**
 * The `Allow` header of an OPTIONS answer to `route`. WordPress answers OPTIONS without checking
 * arguments, but its Allow header still runs the permission callbacks, so the record checks see
 * the request's own parameters (its JSON body, query and path: a form body is not read for OPTIONS).
 */
export async function optionsAllow(route: CompiledRoute, call: RestCall): Promise<string> {
  const at = locatedAt(route, route.endpoints[0]!, { ...route.regex.exec(call.route)?.groups }, call, 'OPTIONS');
  return allowedMethods(route, at.ctx, await refusedOnRecord(onPath(at)));
}

/** The methods this user may call on the route, less those its record checks refuse. */
function allowedMethods(route: CompiledRoute, ctx: Pick<RestContext, 'user'>, refused: Set<string>): string {
  return allowHeader(route, ctx).split(', ').filter((m) => m && !refused.has(m)).join(', ');
}

function matchRoute(table: RouteTable, call: RestCall): CompiledRoute | null {
  return table.match(call.route, call.method as Method, call.ctx)?.route ?? null;
}

function withAllow(o: Outcome, call: RestCall, refused = new Set<string>()): Outcome {
  const allow = o.route ? allowedMethods(o.route, call.ctx, refused) : '';
  // The legacy site sends no Allow header when the caller may use no method of the route.
  if (allow) o.headers = { ...o.headers, Allow: allow };
  return o;
}

/** Unexpected failures are logged with their stack and answered without it; a store outage is a 503. */
export function asRestError(e: unknown, log: { error: (o: object, m: string) => void; warn: (o: object, m: string) => void }): RestError {
  if (e instanceof RestError) return e;
  if (e instanceof StoreUnavailable) {
    log.warn({ err: e.cause }, 'content store unavailable');
    return errors.core.storeUnavailable();
  }
  log.error({ err: e }, 'unhandled error in handler');
  return errors.core.internal();
}
