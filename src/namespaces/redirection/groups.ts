/** Group routes: the list (with the default group marked), create (answers the list), update, bulk, dropdown. */
import { z } from 'zod';
import { arg } from '../../contract/args.ts';
import { json } from '../../contract/reply.ts';
import { endpoint, route, type Args, type RestResult, type RouteDecl } from '../../contract/route.ts';
import type { RestContext } from '../../contract/context.ts';
import type { Services } from '../../services.ts';
import { NS, P, admin, contractRoute, ruleWrite } from './common.ts';
import { groupJson } from './json.ts';
import { GROUP_FILTERS, GROUP_ORDERBY, groupFilter, itemId, itemsArg, listArgs, pageOf, type BulkParams, type ListParams } from './params.ts';
import { GroupJson, GroupsDropdown, listOf, MODULES } from './records.ts';
import type { GroupFilter, GroupRow, Selection } from '../../store/redirection/rows.ts';
import { errors } from '../../contract/error-codes.ts';
import { bulkItems, logRedirection } from '../../audit/log.ts';

const args = listArgs(GROUP_ORDERBY, GROUP_FILTERS);
const groupPage = json(listOf(GroupJson));
const groupFields = {
  moduleId: arg.integer({ description: 'Module ID', minimum: 0, maximum: 3, required: true }),
  name: arg.string({ description: 'Group name', required: true }),
  status: arg.untyped({ description: 'Status of the group' }),
};

/** The group name as the plugin keeps it: tags stripped, trimmed, at most 50 characters. */
const cleanName = (s: string) => s.replace(/<[^>]*>/g, '').trim().slice(0, 50);

export async function groupList(ctx: RestContext, p: ListParams): Promise<RestResult> {
  const list = await ctx.store.redirection.groups.list(groupFilter(p.filterBy), p.orderby === 'id' ? 'id' : 'name', p.direction, pageOf(p));
  const { last_group_id } = await ctx.store.redirection.settings.get();
  return {
    body: {
      items: list.items.map((g) => (g.id === last_group_id ? { ...groupJson(g), default: true } : groupJson(g))),
      total: list.total,
    },
  };
}

/** Groups by module, as the settings and the group pickers show them. */
export function groupsDropdown(groups: GroupRow[]) {
  const out: z.infer<typeof GroupsDropdown> = [];
  for (const [id, label] of Object.entries(MODULES)) {
    const value = groups.filter((g) => g.moduleId === Number(id)).map((g) => ({ label: g.name, value: g.id }));
    if (value.length) out.push({ label, value });
  }
  return out;
}

type GroupFields = Args<typeof groupFields>;

async function create(ctx: RestContext, p: ListParams & GroupFields): Promise<RestResult> {
  const name = cleanName(p.name);
  if (name === '' || !MODULES[p.moduleId]) throw errors.redirection.invalid('Invalid group or parameters', 'redirect_group_invalid', 311);
  await ctx.store.transaction(async (store) => {
    await store.redirection.groups.create(name, p.moduleId);
    await logRedirection(store, ctx, 'redirection_group_added', { group_name: name });
  });
  return groupList(ctx, p);
}

async function update(ctx: RestContext, p: GroupFields & { id: string }): Promise<RestResult> {
  const id = Number(p.id);
  const group = await ctx.store.transaction(async (store) => {
    const prev = await store.redirection.groups.byId(id);
    if (!prev) throw errors.redirection.invalid('Invalid group details', 'redirect_group_invalid', 332);
    // The module changes only to a valid one; an empty name is accepted, as by the plugin.
    const saved = await store.redirection.groups.update(id, { name: cleanName(p.name), moduleId: MODULES[p.moduleId] ? p.moduleId : undefined });
    await logRedirection(store, ctx, 'redirection_group_edited', { group_id: id, new_group_name: saved!.name, new_group_module_id: saved!.moduleId, prev_group_name: prev.name, prev_group_module_id: prev.moduleId });
    return saved;
  });
  return { body: { item: groupJson(group!) } };
}

async function bulk(ctx: RestContext, p: BulkParams & { bulk: string }): Promise<RestResult> {
  const action = p.bulk;
  let sel: Selection<GroupFilter> | null = null;
  // Unknown IDs are skipped, as by the plugin.
  if (p.items && p.items.length) sel = { ids: p.items.map(itemId).filter((n) => n !== null) };
  else if (p.global) sel = { filter: groupFilter(p.filterBy) };
  if (sel) {
    const chosen = sel;
    await ctx.store.transaction(async (store) => {
      if (action === 'delete') await store.redirection.groups.delete(chosen);
      else await store.redirection.groups.setEnabled(chosen, action === 'enable');
      await logRedirection(store, ctx, `redirection_group_${action}d`, bulkItems('ids' in chosen ? chosen.ids : []));
    });
  }
  return groupList(ctx, p);
}

export function groupRoutes(services: Services): RouteDecl[] {
  return [
    route(
      NS,
      `${P}/group`,
      endpoint({ methods: ['GET'], args, response: groupPage, permission: admin, handler: (ctx, a) => groupList(ctx, a) }),
      ruleWrite(services, { methods: ['POST', 'PUT', 'PATCH'], args: { ...args, ...groupFields }, response: groupPage, permission: admin, handler: (ctx, a) => create(ctx, a) }),
    ),
    contractRoute(
      'group/dropdown',
      endpoint({
        methods: ['GET'],
        args: {},
        response: json(GroupsDropdown),
        permission: admin,
        handler: async (ctx) => ({ body: groupsDropdown(await ctx.store.redirection.groups.all()) }),
      }),
    ),
    route(NS, `${P}/group/(?P<id>[\\d]+)`, ruleWrite(services, { methods: ['POST', 'PUT', 'PATCH'], args: groupFields, path: ['id'], response: json(z.object({ item: GroupJson })), permission: admin, handler: (ctx, a) => update(ctx, a) })),
    route(
      NS,
      `${P}/bulk/group/(?P<bulk>delete|enable|disable)`,
      ruleWrite(services, {
        methods: ['POST', 'PUT', 'PATCH'],
        args: { ...args, items: itemsArg('Comma separated list of item IDs to perform action on') },
        path: ['bulk'],
        response: groupPage,
        permission: admin,
        handler: (ctx, a) => bulk(ctx, a),
      }),
    ),
  ];
}
