/** What every redirection route shares: the namespace, the administrator check, the JSON context. */
import { needs } from '../../contract/permission.ts';
import { route, type ArgShape, type Endpoint, type RouteDecl } from '../../contract/route.ts';
import { writeEndpoint } from '../../contract/write-endpoint.ts';
import { edgeFor } from './edge/registry.ts';
import type { RestContext } from '../../contract/context.ts';
import type { Services } from '../../services.ts';
import type { JsonContext } from './json.ts';

export const NS = 'redirection/v1';
export const P = `/${NS}`;

/** Every route needs `manage_options` (the plugin's `redirection_role`): 401 anonymous, 403 otherwise. */
export const admin = needs('manage_options');

/**
 * A route the contract adds and the legacy plugin lacks: only a caller who may use it is shown it;
 * to anyone else it is no route, the legacy answer (404 `rest_no_route`, OPTIONS `[]`).
 */
export function contractRoute(pattern: string, ...endpoints: Parameters<typeof route>[2][]): RouteDecl {
  return { ...route(NS, `${P}/${pattern}`, ...endpoints), shownTo: admin.allows };
}

export async function jsonContext(ctx: RestContext): Promise<JsonContext> {
  return { settings: await ctx.store.redirection.settings.get(), site: await ctx.store.options.site() };
}

/**
 * The request's parameters including those the legacy route reads without declaring them (the
 * redirect body, the flat settings, `groupBy`); declared arguments come validated.
 */
export function legacyParams<A extends object>(ctx: RestContext, args: A): Record<string, unknown> & A {
  return { ...ctx.params, ...args };
}

/**
 * The fields a legacy route reads from the request's parameters without declaring them, and only
 * those: the route's `reads`, so a NUL byte in any other parameter is ignored (core-nul-bytes).
 */
export function fieldsOf<const F extends string>(ctx: RestContext, fields: readonly F[]): { [K in F]?: unknown } {
  const out: { [K in F]?: unknown } = {};
  for (const f of fields) if (ctx.params[f] !== undefined) out[f] = ctx.params[f];
  return out;
}

/** A write that changes the site's rules: the edge drops its loaded index, so the next front-end request sees the change. */
export function ruleWrite<S extends ArgShape, const Path extends string = never>(services: Services, e: Endpoint<S, Path>): Endpoint<S, Path> {
  return writeEndpoint({
    ...e,
    handler: async (ctx, a) => {
      const result = await e.handler(ctx, a);
      edgeFor(services).invalidate();
      return result;
    },
  });
}
