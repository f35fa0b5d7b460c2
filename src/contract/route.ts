/**
 * A route of the contract, declared once: its legacy path pattern, and per endpoint the methods,
 * the zod schemas of its arguments, the permission and the handler. Routing, validation, the
 * index, OPTIONS answers and batch eligibility are all derived from these declarations.
 */
import type { z } from 'zod';
import type { RestContext } from './context.ts';
import type { User } from '../lib/roles.ts';
import type { Permission } from './permission.ts';
import type { SaveFilter } from './save-filters.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type ArgShape = Record<string, z.ZodType>;
/**
 * What a handler receives: the parsed output of each declared argument, and the path parameters it
 * names in `path`: as matched, or parsed by the declared argument of the same name (then always present).
 */
export type Args<S extends ArgShape, P extends string = never> = {
  [K in keyof S]: K extends P ? NonNullable<z.output<NonNullable<S[K]>>> : z.output<NonNullable<S[K]>>;
} & { [K in Exclude<P, keyof S>]: string };

/**
 * A body sent as is. `printed`: the legacy handler prints it and exits during dispatch, so neither
 * `_envelope` nor the headers sent after dispatch (Allow, no-cache, CORS) apply to it.
 */
export interface RawBody {
  contentType: string;
  printed?: boolean;
}

/** What a handler answers: a body with an optional status (default 200) and headers. */
export type ResultHeaders = Record<string, string | number>;

export interface RestResult {
  status?: number;
  body: unknown;
  /** A number stays one where the headers are read as JSON (`_envelope`, a batch item), as PHP's `header( 'X-WP-Total', (int) $n )`. */
  headers?: ResultHeaders;
  /** A body that is not JSON (an export file, an HTML preview, or a stream), sent as is. */
  raw?: RawBody;
  /** The answer's links (WordPress's `add_link`): `_links` after `_fields` has filtered the body, so no filter drops them. */
  links?: Record<string, unknown>;
}

export interface Endpoint<S extends ArgShape = ArgShape, P extends string = never> {
  methods: readonly Method[];
  args: S;
  /**
   * The path parameters the handler reads: one `args` does not declare (the legacy index lists no
   * argument for it) comes as matched; a declared one is parsed, and always present.
   */
  path?: readonly P[];
  permission: Permission<Args<S, P>>;
  handler: (ctx: RestContext, args: Args<S, P>) => Promise<RestResult> | RestResult;
  /** Whether `batch/v1` may run this endpoint (the index shows it as `allow_batch: {v1: true}`). */
  allowBatch?: boolean;
  /**
   * Its parameters never reach the store as sent: an index, oEmbed's routes, or `batch/v1`, whose
   * items are each refused input the store cannot hold (core-nul-bytes) as requests of their own.
   * A NUL byte in them is then not refused, as on the legacy site.
   */
  storesNoInput?: true;
  /**
   * The parameters the handler reads into the store without declaring them (from `ctx.params` or
   * `ctx.query`). A NUL byte is refused in these and in the declared arguments (core-nul-bytes); in
   * any other parameter it is ignored with the parameter, as on the legacy site.
   */
  reads?: readonly string[];
  /**
   * WordPress's filters on the arguments it stores (pre_term_name, title_save_pre, ...): each named
   * argument's text as its filter leaves it, before anything reads it; `unlessUnfilteredHtml` for
   * kses_init's filters, which a caller with `unfiltered_html` skips. What they drop (wp_kses_no_null:
   * NUL and the other control characters) never reaches the store, and is not refused (core-nul-bytes).
   * Of kses, only wp_kses_no_null runs: markup is stored as sent (DEVIATIONS.md calendar-kses-markup).
   */
  saveFilters?: { args: Readonly<Record<string, SaveFilter>>; unlessUnfilteredHtml?: true };
  /** What a success answers (see `reply`): the OpenAPI document and the docs page show it. */
  response: Reply;
  /** A one-line summary for the API reference (default: method and path). */
  summary?: string;
}

/** A successful answer as the API reference shows it: status, content type and body schema. */
export interface Reply {
  status: number;
  contentType: string;
  body: z.ZodType;
}

/** An endpoint as declared, whatever its arguments: what a route collects. */
interface DeclaredEndpoint extends Omit<Endpoint, 'permission' | 'handler' | 'path'> {
  path?: readonly string[];
  permission: Permission<never>;
  handler: (ctx: RestContext, args: never) => Promise<RestResult> | RestResult;
}

export interface RouteDecl {
  namespace: string;
  /** The legacy route pattern, e.g. `/calendar/events/v1/events/(?P<id>\d+)`; it is also the index key. */
  pattern: string;
  endpoints: Endpoint[];
  /**
   * Who is shown a route the legacy site does not have (the contract adds it): to anyone else it is
   * no route at all, as on the legacy site (404 `rest_no_route`, OPTIONS `[]`). Default: everyone.
   */
  shownTo?: (user: User | null) => boolean;
  /** The legacy route's item schema, shown only in its help descriptor (OPTIONS, an index with `context=help`). */
  schema?: Record<string, unknown>;
}

/** Declares an endpoint: its permission and handler receive the parsed output of its `args`. */
export function endpoint<S extends ArgShape, const P extends string = never>(e: Endpoint<S, P>): Endpoint<S, P> {
  return e;
}

/**
 * Collects endpoints into a route of the table. The table runs every endpoint alike, so each one's
 * argument type is erased here, and only here: validation parses a request with the same `args`
 * before the handler sees it, and the path parameters an endpoint names are groups of `pattern`.
 */
export function route(namespace: string, pattern: string, ...endpoints: DeclaredEndpoint[]): RouteDecl {
  for (const name of endpoints.flatMap((e) => e.path ?? [])) {
    if (!pattern.includes(`(?P<${name}>`)) throw new Error(`${pattern}: no path parameter ${name}`);
  }
  for (const e of endpoints) {
    for (const name of Object.keys(e.saveFilters?.args ?? {})) if (!Object.hasOwn(e.args, name)) throw new Error(`${pattern}: saveFilters names no argument ${name}`);
  }
  return { namespace, pattern, endpoints: endpoints.map((e) => e as Endpoint) };
}

/** A namespace module: its routes, built from the services it needs. */
export interface NamespaceModule {
  namespace: string;
  routes: RouteDecl[];
}
