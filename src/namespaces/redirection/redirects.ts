/** Redirect routes: the list, create (answers the list), update (answers `{item}`), bulk actions, post search. */
import { z } from 'zod';
import { arg } from '../../contract/args.ts';
import { json } from '../../contract/reply.ts';
import { endpoint, route, type RestResult, type RouteDecl } from '../../contract/route.ts';
import type { RestContext } from '../../contract/context.ts';
import type { Services } from '../../services.ts';
import type { Store } from '../../store/store.ts';
import { NS, P, admin, fieldsOf, jsonContext, ruleWrite } from './common.ts';
import { redirectJson } from './json.ts';
import { listOf, RedirectJson } from './records.ts';
import { REDIRECT_FILTERS, REDIRECT_ORDERBY, itemId, itemsArg, listArgs, pageOf, redirectFilter, type BulkParams, type ListParams } from './params.ts';
import type { RedirectOrder, RedirectRow, Selection, RedirectFilter } from '../../store/redirection/rows.ts';
import { errors } from '../../contract/error-codes.ts';
import { REDIRECT_FIELDS, countOf, sanitizeRedirect, sourceUrls, type SanitizeContext } from './sanitize.ts';
import { bulkItems, logRedirection } from '../../audit/log.ts';

const args = listArgs(REDIRECT_ORDERBY, REDIRECT_FILTERS);
const redirectPage = json(listOf(RedirectJson));

/** A create also takes the hit count and last access it is sent (an update keeps the redirect's own). */
const CREATE_FIELDS = [...REDIRECT_FIELDS, 'hits', 'last_access'] as const;

const ORDER: Record<string, RedirectOrder> = { source: 'url', last_count: 'hits', last_access: 'last_access', position: 'position' };

/** The paged list for the request's filter, order and page (what every write answers too). */
export async function redirectList(ctx: RestContext, p: ListParams): Promise<RestResult> {
  const store = ctx.store.redirection;
  const list = await store.redirects.list(redirectFilter(p.filterBy, ctx.clock.now()), ORDER[p.orderby ?? ''] ?? 'id', p.direction, pageOf(p));
  const c = await jsonContext(ctx);
  return { body: { items: list.items.map((r) => redirectJson(r, c)), total: list.total } };
}

function sanitizeContext(ctx: RestContext, store: Store, settings: SanitizeContext['settings'], existing?: RedirectRow): SanitizeContext {
  return {
    settings,
    siteHost: new URL(ctx.urls.home).hostname,
    groupExists: async (id) => (await store.redirection.groups.byId(id)) !== null,
    existing,
  };
}

async function create(ctx: RestContext, p: ListParams): Promise<RestResult> {
  const body = fieldsOf(ctx, CREATE_FIELDS);
  const urls = sourceUrls(body);
  // No `url`: nothing to create; the list is still the answer.
  if (urls) {
    await ctx.store.transaction(async (store) => {
      const settings = await store.redirection.settings.get();
      for (const url of urls) {
        const r = await sanitizeRedirect(body, url, sanitizeContext(ctx, store, settings));
        const position = r.position || (await store.redirection.redirects.countInGroup(r.groupId));
        const lastAccess = typeof body.last_access === 'string' && !Number.isNaN(Date.parse(body.last_access)) ? new Date(body.last_access) : null;
        await store.redirection.redirects.insert({ ...r, position, hits: countOf(body.hits), lastAccess });
        // The plugin remembers the group last written to as the default group.
        if (settings.last_group_id !== r.groupId) await store.redirection.settings.save({ last_group_id: r.groupId });
      }
      await logRedirection(store, ctx, 'redirection_redirection_added', { source_url: body.url, target_url: (body.action_data as { url?: unknown } | undefined)?.url });
    });
  }
  return redirectList(ctx, p);
}

async function update(ctx: RestContext, a: { id: string }): Promise<RestResult> {
  const id = Number(a.id);
  const body = fieldsOf(ctx, REDIRECT_FIELDS);
  const item = await ctx.store.transaction(async (store) => {
    const existing = await store.redirection.redirects.byId(id);
    if (!existing) throw errors.redirection.invalid('Invalid redirect details', 'redirect_update_failed', 375);
    const settings = await store.redirection.settings.get();
    const url = typeof body.url === 'string' ? body.url : existing.url;
    const r = await sanitizeRedirect(body, url, sanitizeContext(ctx, store, settings, existing));
    // Unsent fields keep their values (the plugin resets position and title: see DEVIATIONS.md).
    const saved = await store.redirection.redirects.update(id, { ...r, position: r.position ?? existing.position });
    if (settings.last_group_id !== r.groupId) await store.redirection.settings.save({ last_group_id: r.groupId });
    await logRedirection(store, ctx, 'redirection_redirection_edited', { new_source_url: saved!.url, new_target: saved!.actionData?.url, redirection_id: id, prev_source_url: existing.url, prev_target: existing.actionData?.url });
    return saved!;
  });
  return { body: { item: redirectJson(item, await jsonContext(ctx)) } };
}

/** Bulk actions, each in one transaction; `items` wins over `global`, neither does nothing. */
async function bulk(ctx: RestContext, p: BulkParams & { bulk: string }): Promise<RestResult> {
  const action = p.bulk;
  let sel: Selection<RedirectFilter> | null = null;
  if (p.items && p.items.length) {
    const ids = p.items.map(itemId);
    if (ids.includes(null)) throw errors.redirection.invalid('Invalid redirect', 'redirect_bulk_failed', 395);
    sel = { ids: ids as number[] };
  }
  else if (p.global) sel = { filter: redirectFilter(p.filterBy, ctx.clock.now()) };
  if (sel) {
    const chosen = sel;
    await ctx.store.transaction(async (store) => {
      const repo = store.redirection;
      if ('ids' in chosen) {
        const known = await repo.redirects.existingIds(chosen.ids);
        if (chosen.ids.some((id) => !known.has(id))) throw errors.redirection.invalid('Invalid redirect', 'redirect_bulk_failed', 395);
      }
      if (action === 'delete') await repo.redirects.delete(chosen);
      else if (action === 'reset') await repo.redirects.resetHits(chosen);
      else await repo.redirects.setEnabled(chosen, action === 'enable');
      // Resetting hit counters is bookkeeping, not a change to the rules: the legacy logger has no message for it.
      if (action !== 'reset') await logRedirection(store, ctx, `redirection_redirection_${action}d`, bulkItems('ids' in chosen ? chosen.ids : []));
    });
  }
  return redirectList(ctx, p);
}

export function redirectRoutes(services: Services): RouteDecl[] {
  return [
    route(
      NS,
      `${P}/redirect`,
      endpoint({ methods: ['GET'], args, response: redirectPage, permission: admin, handler: (ctx, a) => redirectList(ctx, a) }),
      ruleWrite(services, { methods: ['POST', 'PUT', 'PATCH'], args, reads: CREATE_FIELDS, response: redirectPage, permission: admin, handler: (ctx, a) => create(ctx, a) }),
    ),
    route(NS, `${P}/redirect/(?P<id>[\\d]+)`, ruleWrite(services, { methods: ['POST', 'PUT', 'PATCH'], args: {}, reads: REDIRECT_FIELDS, path: ['id'], response: json(z.object({ item: RedirectJson })), permission: admin, handler: (ctx, a) => update(ctx, a) })),
    route(
      NS,
      `${P}/redirect/post`,
      endpoint({
        methods: ['GET'],
        args: { text: arg.string({ description: 'Text to match', required: true }) },
        response: json(z.array(z.object({ title: z.string(), value: z.string() }))),
        permission: admin,
        // The target autocomplete searches published posts and pages; Lintel keeps none (see DEVIATIONS.md).
        handler: () => ({ body: [] }),
      }),
    ),
    route(
      NS,
      `${P}/bulk/redirect/(?P<bulk>delete|enable|disable|reset)`,
      ruleWrite(services, {
        methods: ['POST', 'PUT', 'PATCH'],
        args: { ...args, global: arg.boolean({ description: 'Apply bulk action globally, as per filters' }), items: itemsArg('Array of IDs to perform action on') },
        path: ['bulk'],
        response: redirectPage,
        permission: admin,
        handler: (ctx, a) => bulk(ctx, a),
      }),
    ),
  ];
}
