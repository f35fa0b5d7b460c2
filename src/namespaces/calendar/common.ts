/** What every calendar handler shares: the site view, errors, access rules and archive paging. */
import { can } from '../../lib/roles.ts';
import { errors } from '../../contract/error-codes.ts';
import type { RestContext } from '../../contract/context.ts';
import type { Site } from './shape.ts';
import { kindOf } from './args.ts';

export const NAMESPACE = 'calendar/events/v1';
export const MAX_PER_PAGE = 50;
export const STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

export async function siteOf(ctx: RestContext): Promise<Site> {
  const zone = (await ctx.store.options.site()).timezone;
  // Links name the namespace the request came in under (calendar/events/v1 or an alias).
  const ns = ctx.route.split('/').slice(1, 4).join('/');
  return { ctx, zone, ns: ns.endsWith('/v1') ? ns : NAMESPACE };
}

/** A handler-side check that fails as the legacy validate callback did: the bare "Invalid parameter.". */
export const canEditAny = (ctx: RestContext) => can(ctx.user, 'edit_others_posts');

/** The statuses listed: those asked for (the `status` argument's callback checked them), else all an editor may see, or publish. */
export function statusesFor(ctx: RestContext, asked: string[] | undefined): string[] {
  return asked?.length ? asked : can(ctx.user, 'edit_posts') ? STATUSES : ['publish'];
}

/**
 * scale_back_post_status, on every create and update of an event, venue or organizer: the status sent,
 * else publish; those who may not publish get pending for publish or future, and draft when they sent none.
 */
export function scaleBackStatus(ctx: RestContext, asked: string | undefined): string {
  if (can(ctx.user, 'publish_posts')) return asked || 'publish';
  if (asked === 'publish' || asked === 'future') return 'pending';
  return asked || 'draft';
}

/** May this user read a record in this status? Drafts and the like need an editor, or their author. */
export function canRead(ctx: RestContext, r: { status: string; author: number }): boolean {
  if (r.status === 'publish') return true;
  if (!ctx.user) return false;
  return can(ctx.user, 'edit_others_posts') || (r.author === ctx.user.id && can(ctx.user, 'edit_posts'));
}

/**
 * WordPress's edit_post and delete_post on a record (map_meta_cap; every role holds both kinds alike):
 * another's needs edit_others_posts, one's own edit_posts, and once published the right to publish
 * (a contributor may not change a published record of theirs). A trashed record is read as an
 * unpublished one: Lintel does not keep the status it was trashed from.
 */
export function canEdit(ctx: RestContext, r: { author: number; status: string }): boolean {
  const user = ctx.user;
  if (user === null) return false;
  if (r.author !== user.id) return can(user, 'edit_others_posts');
  return can(user, r.status === 'publish' || r.status === 'future' ? 'publish_posts' : 'edit_posts');
}

/** The calendar record an ID names, whatever its kind (get_post). */
export async function postOf(ctx: RestContext, id: number): Promise<{ author: number; status: string } | null> {
  const kind = await kindOf(ctx, id);
  if (kind === null) return null;
  return kind === 'event' ? ctx.store.calendar.event(id) : kind === 'venue' ? ctx.store.calendar.venue(id) : ctx.store.calendar.organizer(id);
}

/** Post types whose capabilities are all edit_theme_options (menus, templates, styles, fonts): administrators'. */
const THEME_TYPES = new Set(['wp_navigation', 'nav_menu_item', 'wp_template', 'wp_template_part', 'wp_global_styles', 'wp_font_family', 'wp_font_face']);

/**
 * The legacy edit_post or delete_post (map_meta_cap) on the post an ID names, whatever it is: a
 * calendar record, or another post of the legacy site (`lintel import` keeps them). A revision is
 * edited as its post and never deleted; a page needs the page capabilities (editors and
 * administrators hold them all, authors and contributors none); menus, templates, styles and fonts
 * edit_theme_options; posts, attachments and the like are checked as calendar records. Null: no post.
 */
export async function mayChangePost(ctx: RestContext, id: number, action: 'edit' | 'delete'): Promise<boolean | null> {
  const record = await postOf(ctx, id);
  if (record) return canEdit(ctx, record);
  const post = await ctx.store.legacyPosts.byId(id);
  if (!post) return null;
  if (post.post_type === 'revision') return action === 'edit' && post.parent !== id && ((await mayChangePost(ctx, post.parent, action)) ?? false);
  if (post.post_type === 'page') return can(ctx.user, 'edit_others_posts');
  if (THEME_TYPES.has(post.post_type)) return can(ctx.user, 'manage_options');
  return canEdit(ctx, post);
}

/** Attributing a record to another user needs `edit_others_posts`, as in WordPress core's posts controller (0 is no one, as PHP's `empty`). */
export function assertMayAttribute(ctx: RestContext, author: number, creating: boolean): void {
  if (author === 0 || author === ctx.user?.id || canEditAny(ctx)) return;
  throw errors.calendar.cannotEditOthers(ctx.user !== null, creating);
}

export const forbidden = (ctx: RestContext) => errors.core.forbidden(ctx.user !== null);

/** An echoed argument; `null` is an empty list, which add_query_arg writes as nothing between its separators. */
export type Echo = [string, string | number | null];
/** One query pair as WordPress's add_query_arg writes it: an empty value leaves the bare name. */
const pair = (k: string, v: string | null) => (v === null ? '' : v === '' ? k : `${k}=${v}`);

/** The archives' echoed `status`: the list asked for (an empty one, '0', as nothing), else the caller's default. */
export function statusEcho(ctx: RestContext, asked: string[] | undefined): Echo {
  return ['status', asked ? (asked.length ? asked.join(',') : null) : can(ctx.user, 'edit_posts') ? 'any' : 'publish'];
}

/** rest_url and its neighbours: the first as given (raw spaces), the others urlencoded with `page` last. */
export function archiveLinks(base: string, args: Echo[], page: number, hasNext: boolean, extras: [string, string][] = []) {
  const enc = (list: Echo[]) =>
    list.map(([k, v]) => pair(k, v === null ? null : encodeURIComponent(String(v)).replace(/%20/g, '+').replace(/%2C/gi, ','))).join('&');
  const reencode = extras.length > 0;
  // Appending extra args re-encodes the earlier ones (WordPress add_query_arg).
  extras = extras.filter(([, v]) => v !== '');
  const raw = reencode ? [enc(args), ...extras.map(([k, v]) => pair(k, v))].join('&') : args.map(([k, v]) => pair(k, v === null ? null : String(v))).join('&');
  const links: Record<string, string> = { rest_url: `${base}?${raw}` };
  args = [...args, ...extras];
  const rest = args.filter(([k]) => k !== 'page');
  if (hasNext) links.next_rest_url = `${base}?${enc([...rest, ['page', page + 1]])}`;
  if (page > 1) links.previous_rest_url = `${base}?${enc(page === 2 ? rest : [...rest, ['page', page - 1]])}`;
  return links;
}

export function totals(total: number, total_pages: number) {
  // Integers, as the legacy controller sets them: an `_envelope` or a batch item shows them as numbers.
  return { 'X-TEC-Total': total, 'X-TEC-TotalPages': total_pages };
}

export const clampPerPage = (n: number) => Math.min(n, MAX_PER_PAGE);
