/** The long-lived parts of a running Lintel, built once and shared by every request. */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { RouteTable } from './contract/router.ts';
import type { Mappings } from './mappings.ts';
import type { LoginThrottle } from './auth/rate-limit.ts';
import type { OpenStore } from './store/store.ts';
import type { Metrics } from './http/metrics.ts';
import type { LegacyCredentials } from './auth/legacy-credentials.ts';
import type { VerifiedCredentials } from './auth/verified-credentials.ts';
import type { Backends } from './backends/select.ts';
import type { TopicsOf } from './http/cached-rest.ts';
import type { ResponseCache } from './http/response-cache.ts';

export interface Services {
  config: Config;
  mappings: Mappings;
  store: OpenStore;
  clock: Clock;
  throttle: LoginThrottle;
  table: RouteTable;
  log: FastifyBaseLogger;
  metrics: Metrics;
  verified: VerifiedCredentials;
  /** The legacy origin's application passwords, adopted on first use (LINTEL_LEGACY_ORIGIN set). */
  legacy?: LegacyCredentials;
  /** Forwarded and shadowed namespaces, and site requests forwarded to the legacy origin. */
  backends: Backends;
  /** Anonymous reads answered from memory (null: LINTEL_CACHE_TTL_S=0). */
  responses: { cache: ResponseCache; topicsOf: TopicsOf } | null;
}
