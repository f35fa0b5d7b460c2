/** The long-lived parts of a running Lintel, built once and shared by every request. */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { RouteTable } from './contract/router.ts';
import type { Mappings } from './mappings.ts';
import type { LoginThrottle } from './auth/rate-limit.ts';
import type { OpenStore } from './store/store.ts';

export interface Services {
  config: Config;
  mappings: Mappings;
  store: OpenStore;
  clock: Clock;
  throttle: LoginThrottle;
  table: RouteTable;
  log: FastifyBaseLogger;
}
