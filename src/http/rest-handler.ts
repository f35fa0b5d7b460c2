/**
 * The REST entry point: parse the request, authenticate, answer OPTIONS from the declarations,
 * dispatch everything else through the pipeline, and shape the answer.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../auth/basic.ts';
import type { User } from '../auth/roles.ts';
import { describeRoute } from '../contract/describe.ts';
import { RestError } from '../contract/errors.ts';
import type { Params } from '../contract/php-params.ts';
import type { Services } from '../services.ts';
import { allowHeader, asRestError, dispatch, type Outcome } from './dispatch.ts';
import { effectiveMethod, readBody, type RestLocation } from './rest-request.ts';
import { shape } from './shape.ts';
import { siteUrls } from './site-urls.ts';

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

export async function handleRest(services: Services, req: FastifyRequest, reply: FastifyReply, loc: RestLocation, query: Params): Promise<void> {
  const { config, table } = services;
  const urls = siteUrls(config.baseUrl, config.restPrefix, config.adminPath, loc.locale);
  const { method, byHeader } = effectiveMethod(req.method, query, header(req, 'x-http-method-override'));
  delete query.rest_route;

  const send = (o: Outcome, user: User | null) => {
    const s = shape({
      ...o,
      query,
      method,
      apiRoot: urls.apiRoot,
      loggedIn: user !== null,
      origin: header(req, 'origin'),
      overriddenByHeader: byHeader,
    });
    reply.code(s.status).headers(s.headers);
    return reply.send(s.body ?? undefined);
  };

  let user: User | null;
  try {
    user = await authenticate(services, header(req, 'authorization'), req.ip);
  } catch (e) {
    return send({ headers: {}, route: null, ...errorOutcome(asRestError(e, req.log)) }, null);
  }

  if (method === 'OPTIONS') {
    // Answered from the declaration alone: no permission or argument checks (rest_pre_dispatch).
    const route = table.find(loc.route);
    const body = route ? describeRoute(route.decl, (p) => urls.rest(p)) : [];
    return send({ status: 200, body, headers: route ? { Allow: allowHeader(route, { user }) } : {}, route: null }, user);
  }

  const body = await readBody(header(req, 'content-type'), req.body as Buffer | undefined);
  const outcome = await dispatch(table, {
    method,
    route: loc.route,
    query,
    body,
    ctx: {
      user,
      store: services.store,
      clock: services.clock,
      urls,
      log: req.log,
      headers: req.headers,
      ip: req.ip,
      inBatch: false,
    },
  });
  return send(outcome, user);
}

function errorOutcome(e: RestError): Pick<Outcome, 'status' | 'body'> {
  return { status: e.status, body: e.toBody() };
}
