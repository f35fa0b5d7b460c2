/**
 * The HTTP server: Fastify with pino logging and request ids, health endpoints outside the REST
 * prefix, the REST pipeline under it, and the site's own pages (authorize-application, ...) beside.
 */
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage } from 'node:http';
import pino from 'pino';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { LoginThrottle } from './auth/rate-limit.ts';
import { legacyCredentials } from './auth/legacy-credentials.ts';
import { VerifiedCredentials } from './auth/verified-credentials.ts';
import { pinnedClock, systemClock } from './clock.ts';
import { ConfigError, type Config } from './config.ts';
import { errors } from './contract/error-codes.ts';
import type { RestError } from './contract/errors.ts';
import { matchedTemplate, openApiDocument, type OpenApiDocument } from './contract/openapi.ts';
import { parseQueryString } from './lib/php-params.ts';
import { asRestError } from './http/dispatch.ts';
import { callOf, clientSignal } from './backends/backend.ts';
import { buildBackends } from './backends/select.ts';
import { earlyFailure, restFailure, siteFailure } from './backends/failure.ts';
import { sendAnswer } from './backends/send.ts';
import { translateBackend } from './backends/translate.ts';
import { answerClientError, unroutedBody } from './http/client-error.ts';
import { hitLog, type LineStream } from './http/access-log.ts';
import { cacheFront, type CacheFront } from './http/cache-front.ts';
import { applyLimits, serverOptions } from './http/connection-limits.ts';
import { handleRest } from './http/rest-handler.ts';
import { topicsByNamespace } from './http/cached-rest.ts';
import { Metrics } from './http/metrics.ts';
import { ResponseCache } from './http/response-cache.ts';
import { publicTopics, siteEmbeddables } from './namespaces/index.ts';
import { locateRest, routeVars } from './http/rest-request.ts';
import { loadMappings, type Mappings } from './mappings.ts';
import { buildRouteTable } from './route-table.ts';
import type { Services } from './services.ts';
import { siteHandlers } from './site/handlers.ts';
import { API_DOCS_ASSETS, API_DOCS_CSP, apiDocsPage } from './site/pages/api-docs.ts';
import { MIGRATION_PATH, migrationPage } from './site/pages/migration.ts';
import { startHistoryRetention } from './namespaces/history/retention.ts';
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

/** Request lines are written once this many bytes wait (about 35 lines), or after FLUSH_MS. */
const LOG_BUFFER_BYTES = 8192;
const LOG_FLUSH_MS = 100;

/**
 * JSON lines to stdout through pino's asynchronous writer, buffered: under load one write per
 * about 35 lines instead of one every few requests (README, Operations). A line waits about
 * LOG_FLUSH_MS (a tick more when a write was under way); closing the server writes what waits,
 * and pino writes the rest synchronously when the process exits. Pretty, unbuffered lines when
 * stdout is a terminal.
 */
function loggerOptions(config: Config): { options: object; flush?: () => Promise<void>; stream?: LineStream } {
  const base = { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] };
  if (process.stdout.isTTY) return { options: { ...base, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l' } } } };
  // sonic-boom's own periodic flush: a flush asked for while a write is under way is skipped, and
  // the next tick writes what waits (a one-off flush then could leave the last lines unwritten).
  // Lines are handed over as bytes: given strings, it measures the UTF-8 length of all it holds on
  // every line (copying it), a tenth of the CPU time of a cached answer under load.
  const writer = pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES, periodicFlush: LOG_FLUSH_MS, contentMode: 'buffer' });
  const bytes = writer as unknown as { write(line: Buffer): boolean };
  const stream = {
    write: (line: string) => bytes.write(Buffer.from(line)),
    // pino writes synchronously what waits after a fatal line, and so on exit (the writer's own).
    flushSync: () => writer.flushSync(),
    flush: (cb?: (err?: Error) => unknown) => writer.flush(cb),
  };
  const flush = () =>
    new Promise<void>((resolve) => {
      // The callback's error is fsync's on a pipe or terminal (nothing to sync): the lines are written.
      writer.flush(() => resolve());
    });
  return { options: { ...base, stream }, flush, stream };
}

/** A client's X-Request-Id is kept when it looks like an id, so it cannot write arbitrary text into the logs. */
function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}

export async function buildApp(opts: AppOptions): Promise<App> {
  const { config, store } = opts;
  // Set once the services exist: response-cache hits are answered ahead of Fastify (cache-front.ts).
  let front: CacheFront | null = null;
  const limits = {
    headersTimeoutMs: config.headersTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
    idleTimeoutMs: config.idleTimeoutMs,
    keepAliveTimeoutMs: 72_000,
    clientConnections: config.clientConnections,
  };
  // Every path's handler (set once the services exist): the router's bad-URL answer calls it too.
  let entry: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  const logging = opts.logger === undefined ? loggerOptions(config) : null;
  const server = Fastify({
    // A plain Node server with the cache front ahead of Fastify, every connection bounded (connection-limits.ts).
    serverFactory: (handler) => {
      const s = http.createServer(serverOptions(limits), (req, res) => front?.answer(req, res) || handler(req, res));
      applyLimits(s, limits);
      return s;
    },
    logger: opts.logger ?? logging?.options,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    exposeHeadRoutes: false,
    return503OnClosing: true,
    clientErrorHandler: answerClientError,
    // A path with malformed percent-encoding, which the router refuses to decode, reaches the legacy
    // site's rewrite rules as written (`%zz` stays `%zz`): it is answered as any other path.
    frameworkErrors: (err, req, reply) => {
      if (err.code !== 'FST_ERR_BAD_URL') return answerError(errors.http.badPercentEncoding(), req, reply);
      unroutedBody(req, config.bodyLimit).then(
        (body) => {
          req.body = body;
          return entry(req, reply);
        },
        (e: unknown) => answerError(asRestError(e, req.log), req, reply),
      );
    },
    requestIdHeader: false,
    genReqId: requestId,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 2048 },
  });
  if (logging?.flush) server.addHook('onClose', logging.flush);
  const mappings = opts.mappings ?? loadMappings(config.mappingsDir);
  // Each namespace's aliases, as mappings name them (the cache keys and the API reference read them).
  const aliases = Object.fromEntries(Object.entries(mappings.namespaces).map(([ns, m]) => [ns, m.aliases]));
  const base = {
    config,
    mappings,
    store,
    clock: config.clock ? pinnedClock(config.clock) : systemClock,
    // Replicas on one PostgreSQL database share the counts; PGlite has one process (see rate-limit.ts).
    throttle: new LoginThrottle(
      { attempts: config.loginAttempts, clientAttempts: config.loginClientAttempts, windowS: config.loginWindowS },
      store.kind === 'postgres' ? store.loginThrottle : null,
    ),
    log: server.log,
    metrics: new Metrics(store),
    verified: new VerifiedCredentials(store.changes, config.authCacheS * 1000),
    legacy: config.legacyOrigin
      ? legacyCredentials(config.legacyOrigin, { timeoutMs: config.upstreamTimeoutMs, reverifyMs: config.legacyReverifyS * 1000 })
      : undefined,
    responses: config.cacheTtlS
      ? {
          cache: new ResponseCache(store.changes, { maxBytes: config.cacheMaxMb * 1024 * 1024, ttlMs: config.cacheTtlS * 1000 }),
          topicsOf: topicsByNamespace(publicTopics, aliases),
        }
      : null,
  };
  // The backends are built before the route table (the index lists forwarded routes); the translate
  // backend reads the finished services when it is called.
  let services: Services;
  const backends = buildBackends({
    config,
    mappings,
    log: server.log,
    translate: translateBackend(() => services),
    record: (c) => store.shadow.record(c, base.clock.now()),
    templateOf: (method, route) => matchedTemplate(services.table, method, route),
    metrics: base.metrics,
  });
  // Modes switched with `lintel mode` are kept in the store: applied now, and again whenever any
  // process announces a change on the feed (or the feed reconnects), so every replica switches.
  backends.override(await store.modes.list());
  const reload = () =>
    void store.modes.list().then(
      async (o) => {
        backends.override(o);
        const unserved = await backends.unservedUpstream();
        if (unserved) server.log.error({}, unserved);
      },
      (err: unknown) => server.log.error({ err }, 'could not read the namespace modes; serving the previous ones'),
    );
  const unwatch = store.changes.watch('modes', reload);
  server.addHook('onClose', async () => void unwatch());
  base.metrics.namespaceModes(() => backends.modes());
  const unserved = await backends.unservedUpstream();
  if (unserved) {
    await backends.close();
    throw new ConfigError(unserved);
  }
  services = { ...base, backends, table: buildRouteTable({ ...base, backends }) };
  server.addHook('onClose', () => backends.close());
  const retention = startHistoryRetention(services);
  server.addHook('onClose', async () => retention.stop());
  // Idempotency keys are kept 24 hours (a key's own retry frees it when older); older ones are swept hourly.
  const sweep = setInterval(() => void store.idempotency.purge().catch((err: unknown) => server.log.warn({ err }, 'idempotency key sweep failed')), 3_600_000).unref();
  server.addHook('onClose', async () => clearInterval(sweep));

  // Bodies are parsed by the pipeline itself, after routing, so that a bad JSON body is reported
  // in the legacy order (after rest_no_route) and any content type reaches the handlers.
  server.removeAllContentTypeParsers();
  server.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  services.metrics.install(server, config.metricsToken);
  // The discovery header on every answer, as the legacy site sends it (clients such as wpapi read it from `/`);
  // REST answers carry their own Link (the same one, or pagination links).
  const discovery = `<${config.baseUrl}/${config.restPrefix}/>; rel="https://api.w.org/"`;
  server.addHook('onSend', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
    if (!reply.hasHeader('link')) reply.header('Link', discovery);
  });
  if (services.responses) {
    const f = cacheFront({ cache: services.responses.cache, metrics: services.metrics, log: hitLog(server.log, logging?.stream), requestId, discovery });
    server.addHook('preClose', async () => f.close());
    front = f;
  }

  server.get('/healthz', async () => ({ status: 'ok' }));
  // A key added to Object.prototype (prototype pollution) would change how every later request is
  // read: the replica then reports itself not ready, so it leaves the pool instead of answering wrongly.
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).length;
  server.get('/readyz', async (_req, reply) => {
    if (Object.getOwnPropertyNames(Object.prototype).length !== prototypeKeys) {
      return reply.code(503).send({ status: 'prototype polluted', store: store.kind });
    }
    const ok = await store.ping(config.readyTimeoutMs);
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ready' : 'store unreachable', store: store.kind, modes: services.backends.modes() });
  });

  // The API reference, built once from the route table (it does not change while running).
  let openApi: OpenApiDocument | undefined;
  const apiDocument = () =>
    (openApi ??= openApiDocument(services.table, {
      restBase: `${config.baseUrl}/${config.restPrefix}`,
      title: 'Lintel',
      aliases,
    }));
  server.get('/openapi.json', async (_req, reply) => reply.type('application/json; charset=UTF-8').send(apiDocument()));
  server.get('/api-docs/', async (_req, reply) => {
    const site = await store.options.site();
    return reply.type('text/html; charset=UTF-8').header('Content-Security-Policy', API_DOCS_CSP).send(apiDocsPage(apiDocument(), site.name));
  });
  // The renderer's files, read once from node_modules on first use.
  const assets = new Map<string, string>();
  for (const [name, asset] of Object.entries(API_DOCS_ASSETS)) {
    server.get(`/api-docs/${name}`, async (_req, reply) => {
      let body = assets.get(name);
      if (body === undefined) assets.set(name, (body = asset.body()));
      return reply.type(asset.type).header('Cache-Control', 'public, max-age=3600').send(body);
    });
  }

  server.get(MIGRATION_PATH, (req, reply) => migrationPage(services, req, reply));

  const site = siteHandlers(services, siteEmbeddables);
  entry = async (req: FastifyRequest, reply: FastifyReply) => {
    const q = req.url.indexOf('?');
    const pathname = q < 0 ? req.url : req.url.slice(0, q);
    const query = parseQueryString(q < 0 ? '' : req.url.slice(q + 1));
    const vars = await routeVars(req);
    if (vars === 'mismatch') return sendAnswer(reply, earlyFailure(errors.http.variableMismatch(), req.headers.accept, req.headers['content-type']));
    const loc = locateRest(pathname, vars, { restPrefix: config.restPrefix, locales: mappings.locales });
    if (loc) {
      // Decided before Lintel's own authentication: credentials on a forwarded route are the origin's to check.
      // A rest_route that is no string names no route at all: refused here whatever the mode, as the legacy site does.
      const chosen = loc.routeNotString ? null : (services.backends.forRoute(loc.route) ?? services.backends.forEmbed(loc.route, query.url));
      if (chosen) return sendAnswer(reply, await chosen.backend(callOf(req), clientSignal(reply)));
      return handleRest(services, req, reply, loc, query);
    }
    for (const handle of site) if (await handle(req, reply, pathname, query)) return reply;
    return reply.code(404).type('text/html; charset=UTF-8').send(notFoundPage());
  };
  server.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], url: '/*', handler: entry });
  server.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], url: '/', handler: entry });

  server.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
    const e =
      err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? errors.core.tooLarge(config.bodyLimit)
        : err.statusCode && err.statusCode < 500
          ? errors.http.refused(err.message, err.statusCode)
          : asRestError(err, req.log);
    return answerError(e, req, reply);
  });

  function answerError(e: RestError, req: FastifyRequest, reply: FastifyReply) {
    const q = req.url.indexOf('?');
    const isRest = locateRest(q < 0 ? req.url : req.url.slice(0, q), parseQueryString(q < 0 ? '' : req.url.slice(q + 1)), {
      restPrefix: config.restPrefix,
      locales: mappings.locales,
    });
    // Site pages answer errors as pages; the REST API as its JSON error body.
    return sendAnswer(reply, isRest ? restFailure(config)(e) : siteFailure(e));
  }

  return { server, services };
}

function notFoundPage(): string {
  return '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page not found</title></head><body><h1>Page not found</h1></body></html>';
}
