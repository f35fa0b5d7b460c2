/**
 * The REST entry point: parse the request, authenticate, answer OPTIONS from the declarations,
 * dispatch everything else through the pipeline, and shape the answer.
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../auth/basic.ts';
import { errors, LoginThrottled } from '../contract/error-codes.ts';
import type { User } from '../lib/roles.ts';
import { describeRoute } from '../contract/describe.ts';
import { RestError } from '../contract/errors.ts';
import type { Params } from '../lib/php-params.ts';
import type { Services } from '../services.ts';
import { cachedAnswer, cachePlan } from './cached-rest.ts';
import { labelRoute } from './metrics.ts';
import { asRestError, dispatch, optionsAllow, type Outcome, type RestCall } from './dispatch.ts';
import { effectiveMethod, readBody, requestedFields, type RestLocation } from './rest-request.ts';
import { NO_CACHE, shape, type RestAnswer } from './shape.ts';
import { siteUrls } from '../contract/site-urls.ts';
import { onceForKey, requestFingerprint, WRITES } from './idempotency.ts';
import type { Store } from '../store/store.ts';

function header(req: Pick<RestInput, 'headers'>, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

/** The request as the REST pipeline reads it: what Fastify parsed, or a backend call. */
export interface RestInput {
  method: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer | undefined;
  ip: string;
  log: FastifyBaseLogger;
  /** A shadow comparison's request: its credentials are checked but count as no login. */
  comparison?: boolean;
}

export async function handleRest(services: Services, req: FastifyRequest, reply: FastifyReply, loc: RestLocation, query: Params): Promise<void> {
  const input = { method: req.method, headers: req.headers, body: req.body as Buffer | undefined, ip: req.ip, log: req.log };
  const compute = () => answerRest(services, input, loc, query);
  const plan = services.responses && cachePlan(req, loc, query, services.responses.topicsOf);
  const s = plan ? await cachedAnswer(services.responses!.cache, plan, req, compute) : await compute();
  if (plan) services.metrics.cacheLookup(s.headers['X-Lintel-Cache'] === 'hit');
  labelRoute(req, s.route);
  reply.code(s.status).headers(s.headers);
  return reply.send(s.body ?? undefined);
}

/** Lintel's own answer to a REST request, shaped (the translate backend runs this too). */
export async function answerRest(services: Services, req: RestInput, loc: RestLocation, query: Params): Promise<RestAnswer> {
  const { config, table } = services;
  const urls = siteUrls(config.baseUrl, config.restPrefix, config.adminPath, loc.locale);
  const { method, byHeader } = effectiveMethod(req.method, query, header(req, 'x-http-method-override'));
  delete query.rest_route;

  // Read again once the body is: rest_filter_response_fields reads `_fields` from any parameter source.
  let fields: unknown = query._fields;
  const send = (o: Outcome, user: User | null, as = method): RestAnswer => ({
    route: o.route?.pattern ?? '(no route)',
    ...shape({
      ...o,
      query,
      fields,
      method: as,
      apiRoot: urls.apiRoot,
      loggedIn: user !== null,
      origin: header(req, 'origin'),
      overriddenByHeader: byHeader,
    }),
  });

  // Refused while WordPress parses the request, before authentication or any route: no REST envelope either.
  if (loc.routeNotString) delete query._envelope;
  // (`_method` is not read yet either: a GET overridden to HEAD still gets the error body.)
  if (loc.routeNotString) return send({ headers: { ...NO_CACHE }, route: null, ...errorOutcome(errors.core.routeNotString()) }, null, req.method);

  let user: User | null;
  try {
    user = await authenticate(services, header(req, 'authorization'), req.ip, { quiet: req.comparison });
  } catch (e) {
    const err = asRestError(e, req.log);
    const headers: Record<string, string> = err instanceof LoginThrottled ? { 'Retry-After': String(err.retryAfter) } : {};
    return send({ headers, route: null, ...errorOutcome(err) }, null);
  }

  const read = await readBody(header(req, 'content-type'), req.body);
  // PHP fills $_POST (form fields, files) only for a real POST, and WordPress parses a form body itself
  // only for another method: a request made a POST by `_method` or the override header has no form.
  const body = req.method !== 'POST' && method === 'POST' ? { ...read, form: null, files: new Map() } : read;
  // An OPTIONS answer is filtered by it too: a JSON body's `_fields` before the query's.
  fields = requestedFields(body, method, query);
  const callIn = (store: Store): RestCall => ({
    method,
    route: loc.route,
    query,
    body,
    ctx: { user, store, clock: services.clock, urls, log: req.log, headers: req.headers, ip: req.ip, inBatch: false },
  });
  if (method === 'OPTIONS') {
    // Answered from the declaration alone: no argument checks (rest_pre_dispatch); the Allow header runs the permissions.
    const route = table.find(loc.route, { user });
    const described = route ? describeRoute(route.decl, (p) => urls.rest(p), true) : [];
    // As for other methods, no Allow header when the caller may use no method of the route, or none on the record the path names.
    let allow = '';
    try {
      if (route) allow = await optionsAllow(route, callIn(services.store));
    } catch (e) {
      // The record checks read the store: an outage is its 503, as for any other method.
      return send({ headers: {}, route: null, ...errorOutcome(asRestError(e, req.log)) }, user);
    }
    return send({ status: 200, body: described, headers: allow ? { Allow: allow } : {}, route: null }, user);
  }

  const run = async (store: Store) => send(await dispatch(table, callIn(store)), user);
  const key = header(req, 'idempotency-key');
  const fingerprint = () => requestFingerprint(method, loc.route, JSON.stringify(query), req.body);
  const answer = key !== undefined && user && WRITES.has(method) ? await onceForKey(services.store, user.id, key.trim(), fingerprint(), run) : await run(services.store);
  // After a write, everything kept may be stale until its announcement arrives: the writer's next read
  // must see it, whichever backend ran the write (the translate backend runs this too).
  if (method !== 'GET' && method !== 'HEAD') services.store.changes.anythingChanged();
  return answer instanceof RestError ? send({ headers: {}, route: null, ...errorOutcome(answer) }, user) : answer;
}

function errorOutcome(e: RestError): Pick<Outcome, 'status' | 'body'> {
  return { status: e.status, body: e.toBody() };
}
