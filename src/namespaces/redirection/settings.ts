/** `setting` GET/POST: the plugin options with the legacy names, sent flat and sanitized as the plugin does. */
import { z } from 'zod';
import { json } from '../../contract/reply.ts';
import { endpoint, route, type RestResult, type RouteDecl } from '../../contract/route.ts';
import type { RestContext } from '../../contract/context.ts';
import type { Services } from '../../services.ts';
import type { Store } from '../../store/store.ts';
import { NS, P, admin, fieldsOf, ruleWrite } from './common.ts';
import { groupsDropdown } from './groups.ts';
import { GroupsDropdown } from './records.ts';
import { FLAG_QUERY, type RedirectionSettings } from '../../store/redirection/rows.ts';
import { logRedirection } from '../../audit/log.ts';

const int = (v: unknown) => {
  const n = Number.parseInt(String(v), 10);
  return Number.isNaN(n) ? 0 : n;
};
const clamp = (v: unknown, lo: number, hi: number) => Math.min(hi, Math.max(lo, int(v)));
const bool = (v: unknown) => v === true || v === 'true' || v === 1 || v === '1';
const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x) => typeof x === 'string' || typeof x === 'number').map(String) : []);
const text = (v: unknown) => (typeof v === 'string' ? v.replace(/<[^>]*>/g, '').trim() : '');

/** The post types the monitor can watch, as the settings page lists them. */
const POST_TYPES = { post: 'Posts', page: 'Pages', tribe_events: 'Events', trash: 'Trash' };

/**
 * The settings a write reads (`red_set_options`' known keys that Lintel keeps): no other parameter
 * reaches the store, so a NUL byte elsewhere is ignored as on the legacy site (core-nul-bytes).
 */
const SETTING_FIELDS = [
  'support', 'https', 'log_external', 'log_header', 'track_hits', 'expire_redirect', 'expire_404', 'ip_logging', 'redirect_cache', 'rest_api', 'monitor_post',
  'last_group_id', 'monitor_types', 'associated_redirect', 'auto_target', 'ip_headers', 'ip_proxy', 'aliases', 'permalinks', 'preferred_domain', 'plugin_update',
  'update_notice', 'headers', 'cache_key', 'flag_query', 'flag_case', 'flag_trailing', 'flag_regex', 'relocate',
] as const;

/** `red_set_options`: each known key sanitized; unknown keys dropped. */
async function sanitize(store: Store, now: Date, sent: { [F in (typeof SETTING_FIELDS)[number]]?: unknown }): Promise<Partial<RedirectionSettings>> {
  const out: Partial<RedirectionSettings> = {};
  const has = (k: keyof typeof sent) => sent[k] !== undefined;
  const validGroup = async (v: unknown) => {
    const id = int(v);
    if (id > 0 && (await store.redirection.groups.byId(id))) return id;
    return (await store.redirection.groups.all())[0]?.id ?? 0;
  };
  for (const k of ['support', 'https', 'log_external', 'log_header', 'track_hits'] as const) if (has(k)) out[k] = bool(sent[k]);
  for (const k of ['expire_redirect', 'expire_404'] as const) if (has(k)) out[k] = clamp(sent[k], -1, 60);
  if (has('ip_logging')) out.ip_logging = clamp(sent.ip_logging, 0, 2);
  if (has('redirect_cache')) out.redirect_cache = [-1, 0, 1, 24, 168].includes(int(sent.redirect_cache)) ? int(sent.redirect_cache) : 1;
  if (has('rest_api')) out.rest_api = [0, 1, 3].includes(int(sent.rest_api)) ? int(sent.rest_api) : 0;
  if (has('monitor_post')) out.monitor_post = /^\d+$/.test(String(sent.monitor_post)) ? (int(sent.monitor_post) === 0 ? 0 : await validGroup(sent.monitor_post)) : 0;
  if (has('last_group_id')) out.last_group_id = await validGroup(sent.last_group_id);
  if (has('monitor_types')) {
    out.monitor_types = strings(sent.monitor_types);
    if (out.monitor_types.length === 0) Object.assign(out, { monitor_post: 0, associated_redirect: '' });
  }
  for (const k of ['associated_redirect', 'auto_target'] as const) if (has(k)) out[k] = text(sent[k]);
  if (has('ip_headers')) out.ip_headers = strings(sent.ip_headers);
  if (has('ip_proxy')) out.ip_proxy = strings(sent.ip_proxy);
  if (has('aliases')) out.aliases = strings(sent.aliases).map((a) => a.replace(/^https?:\/\//i, '').replace(/\/.*$/, '')).filter(Boolean).slice(0, 20);
  if (has('permalinks')) out.permalinks = strings(sent.permalinks).slice(0, 10);
  if (has('preferred_domain')) out.preferred_domain = sent.preferred_domain === 'www' || sent.preferred_domain === 'nowww' ? sent.preferred_domain : '';
  if (has('plugin_update')) out.plugin_update = sent.plugin_update === 'admin' ? 'admin' : 'prompt';
  if (has('update_notice')) out.update_notice = text(sent.update_notice);
  if (has('headers') && Array.isArray(sent.headers)) out.headers = sent.headers.filter((h) => h && typeof h === 'object') as RedirectionSettings['headers'];
  if (has('cache_key')) out.cache_key = sent.cache_key === true ? Math.floor(now.getTime() / 1000) : 0;
  const flagQuery = FLAG_QUERY.find((f) => f === sent.flag_query);
  if (has('flag_query') && flagQuery !== undefined) out.flag_query = flagQuery;
  // Flags go through the source-flag parser: only real booleans count.
  for (const k of ['flag_case', 'flag_trailing', 'flag_regex'] as const) if (typeof sent[k] === 'boolean') out[k] = sent[k];
  if (has('relocate')) {
    out.relocate = text(sent.relocate);
    if (out.relocate !== '') Object.assign(out, { preferred_domain: '', aliases: [], https: false });
  }
  return out;
}

/** What settings reads and writes answer. */
const settingsAnswer = json(
  z.object({ settings: z.record(z.string(), z.unknown()), groups: GroupsDropdown, installed: z.string(), canDelete: z.boolean(), post_types: z.array(z.unknown()) }),
);

async function answer(ctx: RestContext, settings: RedirectionSettings): Promise<RestResult> {
  return {
    body: {
      // `modules` is an empty PHP array when no module has a location.
      settings: { ...settings, modules: Object.keys(settings.modules).length ? settings.modules : [] },
      groups: groupsDropdown(await ctx.store.redirection.groups.all()),
      // The legacy value is the site's folder on the server's disk; Lintel shows where the site sits in its URL space instead.
      installed: new URL(ctx.urls.base).pathname.replace(/\/?$/, '/'),
      canDelete: true,
      post_types: POST_TYPES,
    },
  };
}

/** A settings write changes the default source flags the site's rules are read with. */
export function settingRoutes(services: Services): RouteDecl[] {
  return [
    route(
      NS,
      `${P}/setting`,
      endpoint({ methods: ['GET'], args: {}, response: settingsAnswer, permission: admin, handler: async (ctx) => answer(ctx, await ctx.store.redirection.settings.get()) }),
      ruleWrite(services, {
        methods: ['POST', 'PUT', 'PATCH'],
        args: {},
        reads: SETTING_FIELDS,
        response: settingsAnswer,
        permission: admin,
        handler: async (ctx) => {
          const saved = await ctx.store.transaction(async (store) => {
            const current = await store.redirection.settings.get();
            const patch = await sanitize(store, ctx.clock.now(), fieldsOf(ctx, SETTING_FIELDS));
            if (!Object.keys(patch).length) return current;
            await logRedirection(store, ctx, 'redirection_options_saved');
            return store.redirection.settings.save(patch);
          });
          return answer(ctx, saved);
        },
      }),
    ),
  ];
}
