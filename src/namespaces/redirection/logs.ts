/** The redirect log (`/log`) and the 404 log (`/404`): lists, grouped lists, bulk delete. */
import { z } from 'zod';
import { json } from '../../contract/reply.ts';
import { endpoint, route, type RestResult, type RouteDecl } from '../../contract/route.ts';
import type { RestContext } from '../../contract/context.ts';
import { writeEndpoint } from '../../contract/write-endpoint.ts';
import { NS, P, admin, jsonContext, legacyParams } from './common.ts';
import { logJson, notFoundJson } from './json.ts';
import { GroupedLogJson, listOf, LogBaseJson, LogJson } from './records.ts';
import { LOG_FILTERS, LOG_ORDERBY, NOT_FOUND_FILTERS, itemId, itemsArg, listArgs, logFilter, pageOf, type ListParams } from './params.ts';
import type { LogGroupBy, LogKind, LogOrder } from '../../store/redirection/rows.ts';

/** `groupBy` (not a declared argument): ip, url or agent; the 404 log also takes url-exact (as url). */
function groupByOf(kind: LogKind, p: Record<string, unknown>): LogGroupBy | null {
  const g = p.groupBy;
  if (g === 'ip' || g === 'url' || g === 'agent') return g;
  if (kind === '404' && g === 'url-exact') return 'url';
  return null;
}

async function logList(kind: LogKind, ctx: RestContext, p: ListParams): Promise<RestResult> {
  const repo = ctx.store.redirection;
  const filter = logFilter(kind, p.filterBy);
  const by = groupByOf(kind, legacyParams(ctx, p));
  if (by) {
    const list = await repo.logs.grouped(kind, by, filter, p.direction, pageOf(p));
    return { body: { items: list.items.map((r) => ({ count: r.count, [by]: r.value, id: r.value })), total: list.total } };
  }
  const order: LogOrder = p.orderby === 'url' || p.orderby === 'ip' ? p.orderby : 'id';
  const c = await jsonContext(ctx);
  if (kind === 'log') {
    const list = await repo.logs.list('log', filter, order, p.direction, pageOf(p));
    return { body: { items: list.items.map((r) => logJson(r, c)), total: list.total } };
  }
  const list = await repo.logs.list('404', filter, order, p.direction, pageOf(p));
  return { body: { items: list.items.map((r) => notFoundJson(r, c)), total: list.total } };
}

/** Numeric items delete by ID; other items, with `groupBy`, delete every row with that ip, agent or exact url. */
async function bulkDelete(kind: LogKind, ctx: RestContext, p: ListParams & { items?: (string | number)[] }): Promise<RestResult> {
  const params = legacyParams(ctx, p);
  const by = groupByOf(kind, params);
  await ctx.store.transaction(async (store) => {
    const repo = store.redirection;
    if (p.items && p.items.length) {
      // A numeric item beyond the IDs the store keeps names no row.
      const ids = p.items.filter((i) => /^\d+$/.test(String(i))).map(itemId).filter((n) => n !== null);
      const values = p.items.map(String).filter((i) => !/^\d+$/.test(i));
      if (ids.length) await repo.logs.delete(kind, { ids });
      if (values.length && by) await repo.logs.delete(kind, { column: by === 'ip' || by === 'agent' ? by : 'url', values });
    } else if (params.global === true || params.global === 'true' || params.global === '1') {
      await repo.logs.delete(kind, { filter: logFilter(kind, p.filterBy) });
    }
  });
  return logList(kind, ctx, p);
}

export function logRoutes(): RouteDecl[] {
  const routes: RouteDecl[] = [];
  for (const kind of ['log', '404'] as const) {
    const args = listArgs(LOG_ORDERBY, kind === 'log' ? LOG_FILTERS : NOT_FOUND_FILTERS);
    // Grouped (`groupBy`) pages count rows per value instead.
    const page = json(listOf(z.union([kind === 'log' ? LogJson : LogBaseJson, GroupedLogJson])));
    routes.push(
      route(NS, `${P}/${kind}`, endpoint({ methods: ['GET'], args, response: page, permission: admin, handler: (ctx, a) => logList(kind, ctx, a) })),
      route(
        NS,
        `${P}/bulk/${kind}/(?P<bulk>delete)`,
        writeEndpoint({
          methods: ['POST', 'PUT', 'PATCH'],
          args: { ...args, items: itemsArg('Comma separated list of item IDs to perform action on') },
          response: page,
          permission: admin,
          handler: (ctx, a) => bulkDelete(kind, ctx, a),
        }),
      ),
    );
  }
  return routes;
}
