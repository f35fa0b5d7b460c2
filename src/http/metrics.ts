/**
 * Prometheus metrics (`GET /metrics`): requests and their latency per route pattern, method and
 * status; store pool use; outbound calls. One registry per app, so several apps in one process
 * (tests) do not share counters. Route labels are the contract's patterns, never raw URLs, so the
 * number of series stays bounded whatever clients send.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { sameSecret } from '../lib/secrets.ts';
import { errors } from '../contract/error-codes.ts';
import { openApiPath } from '../contract/openapi.ts';
import type { OpenStore } from '../store/store.ts';

/** The route label of a request answered by the REST pipeline: its route's path template. */
const routeLabels = new WeakMap<FastifyRequest, string>();
// Pattern to template, once per route of the table (the label set is the table's, so it stays small).
const templates = new Map<string, string>();

/** Labels the request with its matched legacy pattern, written as the OpenAPI template (`/events/{id}`). */
export function labelRoute(req: FastifyRequest, pattern: string): void {
  let template = templates.get(pattern);
  if (template === undefined) templates.set(pattern, (template = openApiPath(pattern).path || '/'));
  routeLabels.set(req, template);
}

const MODES = ['translate', 'forward', 'shadow'] as const;

export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'lintel_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'lintel_http_request_duration_seconds',
    help: 'Time to answer, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  /** Outbound calls (forwarded requests, oEmbed fetches, ...) by kind and outcome. */
  readonly upstream = new Counter({
    name: 'lintel_upstream_calls_total',
    help: 'Outbound calls by kind and outcome (status class or error code)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });

  /** Shadow mode: compared reads by namespace and result (match, mismatch, skipped, failed). */
  readonly shadow = new Counter({
    name: 'lintel_shadow_comparisons_total',
    help: 'Shadowed reads by result: match, mismatch, skipped (the lane was full), failed',
    labelNames: ['namespace', 'result'] as const,
    registers: [this.registry],
  });
  private readonly cache = new Counter({
    name: 'lintel_response_cache_lookups_total',
    help: 'Cacheable anonymous reads by result: hit (answered from the response cache) or miss',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  constructor(store: Pick<OpenStore, 'kind' | 'poolStats' | 'statements'>) {
    // prom-client's standard names (process_*, nodejs_*), which stock dashboards expect.
    collectDefaultMetrics({ register: this.registry });
    const registry = this.registry;
    new Gauge({
      name: 'lintel_store_pool_connections',
      help: 'Store connections by state (PostgreSQL pool; embedded PGlite has one, always "total")',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const s = store.poolStats?.() ?? { total: 1, idle: 0, waiting: 0 };
        this.set({ state: 'total' }, s.total);
        this.set({ state: 'idle' }, s.idle);
        this.set({ state: 'waiting' }, s.waiting);
      },
    });
    new Counter({
      name: 'lintel_store_queries_total',
      help: 'SQL statements run against the store since it opened (transactions\' included)',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(store.statements());
      },
    });
  }

  /** `lintel_namespace_mode{namespace,mode}`: 1 for the mode each namespace is served in now, 0 for the others. */
  namespaceModes(read: () => Record<string, string>): void {
    new Gauge({
      name: 'lintel_namespace_mode',
      help: 'How each namespace is served now (mappings/, or lintel mode): 1 for its mode',
      labelNames: ['namespace', 'mode'] as const,
      registers: [this.registry],
      collect() {
        for (const [namespace, now] of Object.entries(read())) for (const mode of MODES) this.set({ namespace, mode }, mode === now ? 1 : 0);
      },
    });
  }

  cacheLookup(hit: boolean): void {
    this.cache.inc({ result: hit ? 'hit' : 'miss' });
  }

  observe(route: string, method: string, status: number, seconds: number): void {
    const labels = { route, method, status: String(status) };
    this.requests.inc(labels);
    this.latency.observe(labels, seconds);
  }

  /**
   * Counts every answered request, and serves `GET /metrics` only to `Authorization: Bearer
   * <token>` (compared in constant time); without a configured token the route does not exist.
   */
  install(server: FastifyInstance, token: string | undefined): void {
    server.addHook('onResponse', async (req, reply) => {
      const pattern = req.routeOptions.url;
      const route = routeLabels.get(req) ?? (pattern === '/*' || pattern === '/' ? 'site' : (pattern ?? 'unmatched'));
      this.observe(route, req.method, reply.statusCode, reply.elapsedTime / 1000);
    });
    if (!token) return;
    server.get('/metrics', async (req, reply) => {
      if (!sameSecret(`Bearer ${token}`, req.headers.authorization ?? '')) {
        return reply.code(401).header('WWW-Authenticate', 'Bearer realm="metrics"').send(errors.lintel.metricsUnauthorized().toBody());
      }
      return reply.type(this.registry.contentType).send(await this.registry.metrics());
    });
  }
}
