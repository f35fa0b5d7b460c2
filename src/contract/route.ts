/**
 * A route of the contract, declared once: its legacy path pattern, and per endpoint the methods,
 * the zod schemas of its arguments, the permission and the handler. Routing, validation, the
 * index, OPTIONS answers and batch eligibility are all derived from these declarations.
 */
import type { z } from 'zod';
import type { RestContext } from '../http/context.ts';
import type { Permission } from './permission.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type ArgShape = Record<string, z.ZodType>;
export type Args<S extends ArgShape> = { [K in keyof S]: z.output<S[K]> };

/** What a handler answers: a body with an optional status (default 200) and headers. */
export interface RestResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /** A body that is not JSON (an export file, an HTML preview, or a stream), sent as is. */
  raw?: { contentType: string };
}

export interface Endpoint<S extends ArgShape = ArgShape> {
  methods: readonly Method[];
  args: S;
  permission: Permission<Args<S>>;
  handler: (ctx: RestContext, args: Args<S>) => Promise<RestResult> | RestResult;
  /** Whether `batch/v1` may run this endpoint (the index shows it as `allow_batch: {v1: true}`). */
  allowBatch?: boolean;
}

export interface RouteDecl {
  namespace: string;
  /** The legacy route pattern, e.g. `/calendar/events/v1/events/(?P<id>\d+)`; it is also the index key. */
  pattern: string;
  endpoints: Endpoint[];
}

/** Declares an endpoint with its argument types inferred from the schemas. */
export function endpoint<S extends ArgShape>(e: Endpoint<S>): Endpoint {
  return e as unknown as Endpoint;
}

export function route(namespace: string, pattern: string, ...endpoints: Endpoint[]): RouteDecl {
  return { namespace, pattern, endpoints };
}

/** A namespace module: its routes, built from the services it needs. */
export interface NamespaceModule {
  namespace: string;
  routes: RouteDecl[];
}
