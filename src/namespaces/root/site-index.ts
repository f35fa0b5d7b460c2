/**
 * The site index (`GET /`) and the namespace indexes (`GET /<namespace>`), generated from the
 * route table, so every declared route shows with its methods and argument descriptors.
 */
import { z } from 'zod';
import type { ForwardedIndex } from '../../backends/legacy-index.ts';
import { arg } from '../../contract/args.ts';
import { describeRoute } from '../../contract/describe.ts';
import { errors } from '../../contract/error-codes.ts';
import { publicAccess } from '../../contract/permission.ts';
import { json, shape } from '../../contract/reply.ts';
import { endpoint, route, type RouteDecl } from '../../contract/route.ts';
import type { RouteTable } from '../../contract/router.ts';
import type { RestContext } from '../../contract/context.ts';
import { gmtOffset } from '../../lib/time.ts';

/**
 * The described routes, of the site or of one namespace, built on first use per REST root (each
 * locale has its own) and kept: the table does not change once the app is built, and describing
 * every route on every index request was most of its cost. Callers never change the objects.
 */
/** A route of the index (`describeRoute`): its methods and each endpoint's argument descriptors. */
const RouteEntry = z.object({
  namespace: z.string(),
  methods: z.array(z.string()),
  endpoints: z.array(z.object({ methods: z.array(z.string()), allow_batch: z.object({ v1: z.boolean() }).optional(), args: shape.orEmpty(shape.map()) })),
  schema: z.record(z.string(), z.unknown()).optional(),
  _links: shape.links().optional(),
});
const Routes = z.record(z.string(), RouteEntry);
const SiteIndex = z.looseObject({
  name: z.string(), description: z.string(), url: z.string(), home: z.string(), gmt_offset: z.union([z.number(), z.string()]), timezone_string: z.string(),
  namespaces: z.array(z.string()), authentication: shape.orEmpty(shape.map()), routes: Routes, _links: shape.links(),
});

function routeDescriptions(table: RouteTable): (ctx: RestContext, context: unknown, namespace?: string) => Record<string, unknown> {
  const built = new Map<string, Record<string, unknown>>();
  return (ctx, context, namespace) => {
    // `context=help` adds each route's schema, as WordPress's get_data_for_routes does.
    const help = context === 'help';
    const key = `${ctx.urls.apiRoot}\0${namespace ?? ''}\0${help}`;
    let routes = built.get(key);
    if (!routes) {
      routes = {};
      for (const r of namespace === undefined ? table.routes : table.inNamespace(namespace)) {
        routes[r.pattern] = describeRoute(r.decl, (p) => ctx.urls.rest(p), help);
      }
      built.set(key, routes);
    }
    return routes;
  };
}

/** `forwarded`: the routes of the namespaces the legacy origin serves, listed beside Lintel's own. */
export function siteIndexRoutes(table: RouteTable, forwarded?: ForwardedIndex): RouteDecl[] {
  const routesOf = routeDescriptions(table);
  const index = route(
    '',
    '/',
    endpoint({
      methods: ['GET'],
      args: { context: arg.untyped({ default: 'view' }) },
      response: json(SiteIndex),
      summary: 'The site index: the site, its namespaces and every route with its arguments',
      permission: publicAccess,
      storesNoInput: true,
      async handler(ctx, args) {
        const site = await ctx.store.options.site();
        const remote = forwarded ? await forwarded.routes() : {};
        return {
          body: {
            name: site.name,
            description: site.description,
            url: ctx.urls.base,
            home: ctx.urls.home,
            gmt_offset: gmtOffset(site.timezone, ctx.clock.now()),
            timezone_string: site.timezone,
            page_for_posts: site.page_for_posts,
            page_on_front: site.page_on_front,
            show_on_front: site.show_on_front,
            namespaces: forwarded ? [...table.namespaces.filter((n) => !forwarded.namespaces.includes(n)), ...forwarded.namespaces] : table.namespaces,
            authentication: {
              'application-passwords': { endpoints: { authorization: `${ctx.urls.admin}/authorize-application.php` } },
            },
            routes: forwarded?.namespaces.length ? { ...withoutForwarded(routesOf(ctx, args.context), forwarded.namespaces), ...remote } : routesOf(ctx, args.context),
            site_logo: 0,
            site_icon: 0,
            site_icon_url: '',
            _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
          },
        };
      },
    }),
  );
  return [index];
}

/** Lintel's own routes of the namespaces the legacy origin serves now are not listed: the origin's are. */
function withoutForwarded(routes: Record<string, unknown>, forwarded: readonly string[]): Record<string, unknown> {
  const prefixes = forwarded.map((n) => `/${n.toLowerCase()}`);
  const own = (pattern: string) => !prefixes.some((p) => pattern.toLowerCase() === p || pattern.toLowerCase().startsWith(`${p}/`));
  return Object.fromEntries(Object.entries(routes).filter(([pattern]) => own(pattern)));
}

/** `GET /<namespace>`: registered for every namespace, as WordPress does on its first route. */
export function namespaceIndexRoute(table: RouteTable, namespace: string): RouteDecl {
  const routesOf = routeDescriptions(table);
  return route(
    namespace,
    `/${namespace}`,
    endpoint({
      methods: ['GET'],
      args: { namespace: arg.untyped({ default: namespace }), context: arg.untyped({ default: 'view' }) },
      response: json(z.object({ namespace: z.string(), routes: Routes, _links: shape.links() })),
      summary: `The ${namespace} index: its routes with their arguments`,
      permission: publicAccess,
      storesNoInput: true,
      handler(ctx, args) {
        const ns = args.namespace;
        if (typeof ns !== 'string' || !table.namespaces.includes(ns)) throw errors.core.invalidNamespace();
        return { body: { namespace: ns, routes: routesOf(ctx, args.context, ns) }, links: { up: [{ href: ctx.urls.apiRoot }] } };
      },
    }),
  );
}
