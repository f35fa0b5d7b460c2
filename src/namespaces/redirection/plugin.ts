/**
 * Plugin maintenance routes. Lintel's schema is migrated at start, so there is no plugin database
 * to install, upgrade or repair: these answer with the state of the store as it is.
 */
import { z } from 'zod';
import { json } from '../../contract/reply.ts';
import { arg } from '../../contract/args.ts';
import { endpoint, route, type RouteDecl } from '../../contract/route.ts';
import type { RestContext } from '../../contract/context.ts';
import { logRedirection } from '../../audit/log.ts';
import { errors } from '../../contract/error-codes.ts';
import { NS, P, admin, contractRoute } from './common.ts';
import { listOf, PluginStatus, RedirectJson, UpgradeStatus } from './records.ts';

const DB_VERSION = '4.2';
const EDIT = ['POST', 'PUT', 'PATCH'] as const;
const Success = z.object({ success: z.literal(true) });
const IP_HEADERS = ['HTTP_CF_CONNECTING_IP', 'HTTP_CLIENT_IP', 'HTTP_X_FORWARDED_FOR', 'HTTP_X_FORWARDED', 'HTTP_X_CLUSTER_CLIENT_IP', 'HTTP_FORWARDED_FOR', 'HTTP_FORWARDED', 'HTTP_VIA'];

/** The fixer's checks, run against the store. */
async function status(ctx: RestContext) {
  const repo = ctx.store.redirection;
  const groups = await repo.groups.all();
  const settings = await repo.settings.get();
  const check = (id: string, name: string, ok: boolean, good: string, problem: string) => ({ name, id, message: ok ? good : problem, status: ok ? 'good' : 'problem' });
  const header = (name: string) => {
    const v = ctx.headers[name.slice(5).toLowerCase().replace(/_/g, '-')];
    return typeof v === 'string' ? v : false;
  };
  return {
    status: [
      { id: 'db', name: 'Database tables', status: 'good', message: 'All tables present' },
      check('groups', 'Valid groups', groups.length > 0, 'Valid groups detected', 'No valid groups, so you will not be able to create any redirects'),
      // Redirects reference their group with a foreign key: none can be orphaned.
      { name: 'Valid redirect group', id: 'redirect_groups', message: 'All redirects have a valid group', status: 'good' },
      check('monitor', 'Post monitor group', settings.monitor_post === 0 || groups.some((g) => g.id === settings.monitor_post), 'Post monitor group is valid', 'Post monitor group is invalid'),
      { name: 'Site and home protocol', id: 'redirect_url', message: 'Site and home are consistent', status: 'good' },
    ],
    debug: {
      database: { current: DB_VERSION, latest: DB_VERSION },
      ip_header: { ...Object.fromEntries(IP_HEADERS.map((h) => [h, header(h)])), REMOTE_ADDR: ctx.ip },
    },
  };
}

/** The fixer: a default group when none exists, an invalid monitor group reset. */
async function fix(ctx: RestContext) {
  await ctx.store.transaction(async (store) => {
    const repo = store.redirection;
    const groups = await repo.groups.all();
    if (groups.length === 0) {
      await repo.groups.create('Redirections', 1);
      await logRedirection(store, ctx, 'redirection_group_added', { group_name: 'Redirections' });
    }
    const settings = await repo.settings.get();
    if (settings.monitor_post !== 0 && !groups.some((g) => g.id === settings.monitor_post)) await repo.settings.save({ monitor_post: 0 });
  });
  return status(ctx);
}

const dbStatus = { status: 'ok', inProgress: false, complete: 100 };

/** sanitize_text_field, as far as a reason or version string needs it: tags, octets and runs of white space go. */
const textField = (v: string) =>
  v
    .replace(/<[^>]*>?/g, '')
    .replace(/%[a-f0-9]{2}/gi, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * plugin/fix (route_fix_status): after a manual database install the version is noted and the
 * install's groups are made when there are none; `database` is the only reason it knows.
 */
async function fixStatus(ctx: RestContext, a: { reason: string; current: string }) {
  const reason = textField(a.reason);
  if (reason === '') throw errors.redirection.invalid('Missing or invalid reason parameter', 'redirection_invalid_reason', 314);
  if (textField(a.current) === '') throw errors.redirection.invalid('Missing or invalid current version parameter', 'redirection_invalid_version', 321);
  if (reason !== 'database') throw errors.redirection.invalid(`Unsupported reason: ${reason}`, 'redirection_unsupported_reason', 338);
  await ctx.store.transaction(async (store) => {
    const repo = store.redirection;
    let groups = await repo.groups.all();
    if (groups.length === 0) {
      await repo.groups.reinstall();
      groups = await repo.groups.all();
    }
    // The first group of the table becomes the default one (create_groups).
    await repo.settings.save({ last_group_id: Math.min(...groups.map((g) => g.id)) });
  });
  return { success: true, database: { status: dbStatus.status, inProgress: dbStatus.inProgress } };
}

export function pluginRoutes(): RouteDecl[] {
  return [
    route(
      NS,
      `${P}/plugin`,
      endpoint({ methods: ['GET'], args: {}, response: json(PluginStatus), permission: admin, handler: async (ctx) => ({ body: await status(ctx) }) }),
      endpoint({
        methods: [...EDIT],
        args: { name: arg.string({ description: 'Name' }), value: arg.string({ description: 'Value' }) },
        response: json(PluginStatus),
        permission: admin,
        handler: async (ctx) => ({ body: await fix(ctx) }),
      }),
    ),
    route(
      NS,
      `${P}/plugin/delete`,
      endpoint({
        methods: [...EDIT],
        args: {},
        response: json(z.object({ location: z.string() })),
        permission: admin,
        // Removing the plugin's data: every redirect, group and log row goes; the install's groups come back.
        handler: async (ctx) => {
          await ctx.store.transaction(async (store) => {
            await store.redirection.wipe();
            await logRedirection(store, ctx, 'redirection_options_removed_all');
          });
          return { body: { location: `${ctx.urls.home}/wp-admin/plugins.php` } };
        },
      }),
    ),
    route(NS, `${P}/plugin/test`, endpoint({ methods: ['GET', ...EDIT, 'DELETE'], args: {}, response: json(Success), permission: admin, handler: () => ({ body: { success: true } }) })),
    route(
      NS,
      `${P}/plugin/data`,
      endpoint({
        methods: [...EDIT],
        args: { upgrade: arg.enum(['stop', 'skip', 'retry'], { description: 'Upgrade parameter' }) },
        response: json(UpgradeStatus),
        permission: admin,
        handler: () => ({ body: dbStatus }),
      }),
    ),
    route(NS, `${P}/plugin/finish`, endpoint({ methods: [...EDIT], args: {}, response: json(Success), permission: admin, handler: () => ({ body: { success: true } }) })),
    route(
      NS,
      `${P}/plugin/fix`,
      endpoint({
        methods: [...EDIT],
        args: {
          reason: arg.string({ description: 'Reason for fix', required: true }),
          current: arg.string({ description: 'Current version', required: true }),
        },
        response: json(Success.extend({ database: UpgradeStatus.omit({ complete: true }) })),
        permission: admin,
        handler: async (ctx, a) => ({ body: await fixStatus(ctx, a) }),
      }),
    ),
    // Importers read other redirect plugins' tables; this store holds none, so there is nothing to offer.
    route(
      NS,
      `${P}/import/plugin`,
      endpoint({ methods: ['GET'], args: {}, response: json(z.object({ importers: z.array(z.looseObject({})) })), permission: admin, handler: () => ({ body: { importers: [] } }) }),
      endpoint({ methods: [...EDIT], args: {}, response: json(z.object({ imported: z.int() })), permission: admin, handler: () => ({ body: { imported: 0 } }) }),
    ),
    contractRoute(
      'import/plugin/(?P<plugin>[a-z0-9-]+)/preview',
      endpoint({ methods: ['GET'], args: {}, response: json(listOf(RedirectJson)), permission: admin, handler: () => ({ body: { items: [], total: 0 } }) }),
    ),
  ];
}
