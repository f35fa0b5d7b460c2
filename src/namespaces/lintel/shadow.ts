/**
 * `lintel/v1`, a namespace of Lintel's own (not the contract's), registered when `mappings/`
 * shadows a namespace: the shadow report for administrators, the same one `lintel shadow report`
 * prints. `GET /lintel/v1/shadow`: match rates per route and the most frequent differing paths;
 * `GET /lintel/v1/shadow/mismatches?namespace=&route=`: a route's stored mismatches, newest first.
 */
import { z } from 'zod';
import { arg } from '../../contract/args.ts';
import { json } from '../../contract/reply.ts';
import { errors } from '../../contract/error-codes.ts';
import { needs } from '../../contract/permission.ts';
import { endpoint, route, type RouteDecl } from '../../contract/route.ts';
import { ShadowComparison, ShadowReport } from '../../store/shadow.ts';

export const LINTEL_NAMESPACE = 'lintel/v1';

const admin = needs('manage_options', errors.lintel.shadowAdminOnly);

export function shadowRoutes(): RouteDecl[] {
  return [
    route(
      LINTEL_NAMESPACE,
      `/${LINTEL_NAMESPACE}/shadow`,
      endpoint({
        methods: ['GET'],
        args: { limit: arg.integer({ default: 20, minimum: 1, maximum: 100, description: 'How many of the most frequent differences to list.' }) },
        response: json(ShadowReport),
        permission: admin,
        async handler(ctx, a) {
          return { body: await ctx.store.shadow.report(a.limit) };
        },
      }),
    ),
    route(
      LINTEL_NAMESPACE,
      `/${LINTEL_NAMESPACE}/shadow/mismatches`,
      endpoint({
        methods: ['GET'],
        args: {
          namespace: arg.string({ required: true, description: 'The namespace, by its contract name.' }),
          route: arg.string({ required: true, description: 'The route as the report names it, e.g. "GET /history/v1/events/{n}".' }),
          limit: arg.integer({ default: 10, minimum: 1, maximum: 100 }),
        },
        response: json(z.array(ShadowComparison.extend({ at: z.iso.datetime() }))),
        permission: admin,
        async handler(ctx, a) {
          return { body: await ctx.store.shadow.mismatches(a.namespace, a.route, a.limit) };
        },
      }),
    ),
  ];
}

/** The report as text: one line per route (match rate), then the top differences. */
export function formatShadowReport(r: ShadowReport): string {
  if (r.routes.length === 0) return 'No shadowed reads compared yet.\n';
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const lines = ['match rate  matched/compared  route'];
  for (const x of r.routes) lines.push(`${pct(x.rate).padStart(10)}  ${`${x.matched}/${x.compared}`.padStart(16)}  ${x.namespace}  ${x.route}`);
  if (r.differences.length) {
    lines.push('', 'top differences (count, route, JSON path)');
    for (const d of r.differences) lines.push(`${String(d.count).padStart(6)}  ${d.route}  ${d.path}`);
  }
  return `${lines.join('\n')}\n`;
}
