/**
 * The HTTP server: Fastify with pino logging and request ids, health endpoints outside the REST
 * prefix, the REST pipeline under it, and the site's own pages (authorize-application, ...) beside.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { LoginThrottle } from './auth/rate-limit.ts';
import { pinnedClock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { coreErrors, RestError } from './contract/errors.ts';
import { parseQueryString } from './contract/php-params.ts';
import { handleRest } from './http/rest-handler.ts';
import { locateRest } from './http/rest-request.ts';
import { restHeaders } from './http/shape.ts';
import { loadMappings, type Mappings } from './mappings.ts';
import { buildRouteTable } from './route-table.ts';
import type { Services } from './services.ts';
import { siteHandlers } from './site/handlers.ts';
import { escapeHtml } from './site/html.ts';
import type { OpenStore } from './store/store.ts';

export interface AppOptions {
  config: Config;
  store: OpenStore;
  mappings?: Mappings;
  /** A logger for tests (or `false`); the default logs JSON, pretty in a terminal. */
  logger?: boolean | object;
}

export interface App {
  server: FastifyInstance;
  services: Services;
}

function loggerOptions(config: Config): object {
  const base = { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] };
  return process.stdout.isTTY ? { ...base, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l' } } } : base;
}

export async function buildApp(opts: AppOptions): Promise<App> {
  const { config, store } = opts;
  const server = Fastify({
    logger: opts.logger ?? loggerOptions(config),
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    exposeHeadRoutes: false,
    return503OnClosing: true,
    // A client's X-Request-Id is kept when it looks like an id, so it cannot write arbitrary text into the logs.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 2048 },
  });
  const mappings = opts.mappings ?? loadMappings(config.mappingsDir);
  const base = {
    config,
    mappings,
    store,
    clock: config.clock ? pinnedClock(config.clock) : systemClock,
    throttle: new LoginThrottle(config.loginAttempts, config.loginWindowS),
    log: server.log,
  };
  const services: Services = { ...base, table: buildRouteTable(base) };

  // Bodies are parsed by the pipeline itself, after routing, so that a bad JSON body is reported
  // in the legacy order (after rest_no_route) and any content type reaches the handlers.
  server.removeAllContentTypeParsers();
  server.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  server.addHook('onSend', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
  });

  server.get('/healthz', async () => ({ status: 'ok' }));
  server.get('/readyz', async (_req, reply) => {
    const ok = await store.ping();
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ready' : 'store unreachable', store: store.kind });
  });

  const site = siteHandlers(services);
  const entry = async (req: FastifyRequest, reply: FastifyReply) => {
    const q = req.url.indexOf('?');
    const pathname = q < 0 ? req.url : req.url.slice(0, q);
    const query = parseQueryString(q < 0 ? '' : req.url.slice(q + 1));
    const loc = locateRest(pathname, query, { restPrefix: config.restPrefix, locales: mappings.locales });
    if (loc) return handleRest(services, req, reply, loc, query);
    for (const handle of site) if (await handle(req, reply, pathname, query)) return reply;
    return reply.code(404).type('text/html; charset=UTF-8').send(notFoundPage());
  };
  server.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], url: '/*', handler: entry });
  server.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], url: '/', handler: entry });

  server.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
    const e =
      err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? coreErrors.tooLarge(config.bodyLimit)
        : err.statusCode && err.statusCode < 500
          ? new RestError('rest_bad_request', err.message, err.statusCode)
          : (req.log.error({ err }, 'request failed'), coreErrors.internal());
    const q = req.url.indexOf('?');
    const isRest = locateRest(q < 0 ? req.url : req.url.slice(0, q), parseQueryString(q < 0 ? '' : req.url.slice(q + 1)), {
      restPrefix: config.restPrefix,
      locales: mappings.locales,
    });
    // Site pages answer errors as pages; the REST API as its JSON error body.
    if (!isRest) return reply.code(e.status).type('text/html; charset=UTF-8').send(errorPage(e.status, e.message));
    return reply.code(e.status).headers(restHeaders(`${config.baseUrl}/${config.restPrefix}/`)).send(JSON.stringify(e.toBody()));
  });

  return { server, services };
}

function errorPage(status: number, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error ${status}</title></head><body><h1>Error ${status}</h1><p>${escapeHtml(message)}</p></body></html>`;
}

function notFoundPage(): string {
  return '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page not found</title></head><body><h1>Page not found</h1></body></html>';
}
