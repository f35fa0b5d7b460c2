/** The routes of `history/v1` (legacy `simple-history/v1`), declared with the legacy index's descriptors. */
import { can } from '../../lib/roles.ts';
import { z } from 'zod';
import { arg } from '../../contract/args.ts';
import { toBoolean } from '../../contract/coerce.ts';
import { json, raw } from '../../contract/reply.ts';
import { errors } from '../../contract/error-codes.ts';
import { needs, onRecord, type Permission } from '../../contract/permission.ts';
import { endpoint, route, type Args, type RestResult, type ResultHeaders, type RouteDecl } from '../../contract/route.ts';
import type { RestContext } from '../../contract/context.ts';
import { fieldIncluded } from '../../http/shape.ts';
import type { Services } from '../../services.ts';
import type { HistoryRow } from '../../store/history.ts';
import { invalidParam } from '../../contract/validate.ts';
import { dateFilter, PAGER_SIZE, Transients } from './date-filter.ts';
import { emailPreview, htmlPreview } from './email-report.ts';
import { logEvent } from '../../audit/log.ts';
import { userNicename } from '../../lib/slug.ts';
import { ALL_LOGGERS, mayReadLogger } from '../../audit/loggers.ts';
import { buildFilter, listArgs, readableLoggers, type ListArgs } from './query.ts';
import { HistoryEvent, SearchOptions, Stats, UserMatch } from './schemas.ts';
import LEGACY_SCHEMAS from './legacy-schemas.json' with { type: 'json' };
import { eventObject, storedReactions, idIn, type ShapeSite } from './shape.ts';
import { STAT_NAMES, statsArgs, statsBody, type StatName } from './stats.ts';

export const NAMESPACE = 'history/v1';
const P = (path: string) => `/${NAMESPACE}${path}`;
const ID = '(?P<id>[\\d]+)';

const viewer = needs('read', errors.history.cannotViewEvents);
/**
 * The lists: surrounding events need an administrator. The legacy site checks this in the
 * permission callback, so a refused request leaves no method in `Allow`.
 */
type Surrounding = { surrounding_event_id?: number };
const listViewer: Permission<Surrounding> = onRecord<Surrounding>(
  { ...viewer, check: (ctx, a) => (mayAskSurrounding(ctx, a) ? true : errors.history.cannotViewSurrounding(true)) },
  // A refused request's Allow header: the legacy check reads the parameter as sent (isset), valid or not.
  async (ctx) => mayAskSurrounding(ctx, { surrounding_event_id: ctx.params.surrounding_event_id ?? undefined } as Surrounding),
);
function mayAskSurrounding(ctx: RestContext, a: Surrounding): boolean {
  return a.surrounding_event_id === undefined || can(ctx.user, 'manage_options');
}
/**
 * One event: its permission callback looks it up and checks its logger, so a missing or unreadable one
 * leaves no method in `Allow`; an `id` that is no ID (a list) finds no event.
 */
const eventViewer = onRecord(
  viewer,
  async (ctx, a) => {
    const row = await ctx.store.history.byId((a as { id: number }).id);
    const readable = readableLoggers(ctx.user);
    return row !== null && (!readable || readable.includes(row.logger));
  },
  true,
);
const updater = needs('manage_options', errors.history.cannotUpdateEvents);
/** Stick and unstick: the legacy permission check looks the event up, so a missing one leaves no method in `Allow`. */
const eventUpdater = onRecord(updater, async (ctx, a) => (await ctx.store.history.byId((a as { id: number }).id)) !== null, true);
const statsReader = needs('manage_options', errors.history.cannotViewStats);
const admin: Permission = needs('manage_options');
// list_users in WordPress: administrators only, as manage_options.
const userSearcher = needs('manage_options', errors.history.cannotSearchUsers);
const loggedIn: Permission = needs('read');

/**
 * The list routes' arguments: the filter's, and the list's own (paging, grouping, `skip_count_query`).
 * The legacy plugin has no `skip_count_query`, so it never refuses a value of it: one that is no
 * boolean counts as false rather than being refused. The index still shows it as the contract's boolean.
 */
const eventListArgs = (sinceIdRequired: boolean) => ({
  ...listArgs(sinceIdRequired),
  skip_count_query: arg.untyped({ description: 'Skip the total count query.', default: false, keywords: { type: 'boolean' } }),
});
type List = Args<ReturnType<typeof eventListArgs>>;
const skipsCount = (a: List) => toBoolean(a.skip_count_query) === true;

async function siteOf(ctx: RestContext): Promise<ShapeSite> {
  return { urls: ctx.urls, zone: (await ctx.store.options.site()).timezone };
}

const storable = (id: number | null): id is number => id !== null && Number.isSafeInteger(id);

/**
 * The users the events name who still exist, by ID, in one query: those who reacted (their display
 * names are shown with the reactions), and the event's user and a created user (only theirs have an edit link).
 */
async function namedUsers(ctx: RestContext, rows: HistoryRow[]): Promise<Map<number, string>> {
  const ids = new Set<number>();
  for (const r of rows) {
    for (const id of [idIn(r.context, '_user_id'), idIn(r.context, 'created_user_id'), ...Object.values(storedReactions(r.context)).flat()]) if (storable(id)) ids.add(id);
  }
  return new Map((await ctx.store.users.byIds([...ids])).map((u) => [u.id, u.displayName]));
}

/** The calendar records the post logger's events name that still exist (in the trash too): theirs link to their edit page. */
async function existingPosts(ctx: RestContext, rows: HistoryRow[]): Promise<Set<number>> {
  return ctx.store.calendar.existing(rows.filter((r) => r.logger === 'SimplePostLogger').map((r) => idIn(r.context, 'post_id')).filter(storable));
}

/** The terms the term logger's events name that still exist: theirs link to their edit page. */
async function existingTerms(ctx: RestContext, rows: HistoryRow[]): Promise<Set<number>> {
  return ctx.store.calendar.existingTerms(rows.filter((r) => r.logger === 'SimpleCategoriesLogger').map((r) => idIn(r.context, 'term_id')).filter(storable));
}

async function shapeAll(ctx: RestContext, rows: HistoryRow[], stickyAppended = false) {
  const [site, names, posts, terms] = await Promise.all([siteOf(ctx), namedUsers(ctx, rows), existingPosts(ctx, rows), existingTerms(ctx, rows)]);
  const editsUsers = can(ctx.user, 'manage_options');
  const messageShown = fieldIncluded(ctx.params._fields, 'message') || fieldIncluded(ctx.params._fields, 'message_html');
  return rows.map((r) => eventObject(site, r, { stickyAppended, reader: ctx.user?.id ?? null, names, editsUsers, users: new Set(names.keys()), posts, terms, messageShown }));
}

/** `Link` with prev/next as core's collections write it: the request's query with `page` changed. */
function linkHeader(ctx: RestContext, page: number, pages: number): string | undefined {
  const base = ctx.urls.rest(ctx.route);
  const pairs: [string, string][] = [];
  const flatten = (k: string, v: unknown) => {
    if (Array.isArray(v)) for (const [i, x] of v.entries()) flatten(`${k}[${i}]`, x);
    else if (v && typeof v === 'object') for (const [kk, vv] of Object.entries(v)) flatten(`${k}[${kk}]`, vv);
    else pairs.push([k, String(v ?? '')]);
  };
  for (const [k, v] of Object.entries(ctx.query)) if (k !== 'page') flatten(k, v);
  const url = (p: number) => `${base}?${[...pairs, ['page', String(p)]].map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
  const links: string[] = [];
  if (page > 1) links.push(`<${url(Math.min(page - 1, pages))}>; rel="prev"`);
  if (page < pages) links.push(`<${url(page + 1)}>; rel="next"`);
  return links.length ? links.join(', ') : undefined;
}

async function listEvents(ctx: RestContext, a: List): Promise<RestResult> {
  if (a.surrounding_event_id !== undefined) return surrounding(ctx, a.surrounding_event_id, a.surrounding_count);
  if (a.type === 'occasions') {
    if (a.logRowID === undefined || !a.occasionsID || a.occasionsCount === undefined) throw invalidParam(a.occasionsCount === undefined ? 'occasionsCount' : a.logRowID === undefined ? 'logRowID' : 'occasionsID');
    const limit = Math.max(0, Math.min(a.occasionsCount, a.occasionsCountMaxReturn ?? a.occasionsCount));
    return { body: await shapeAll(ctx, await ctx.store.history.occasions(a.occasionsID, a.logRowID, limit, readableLoggers(ctx.user))) };
  }
  const zone = (await ctx.store.options.site()).timezone;
  const filter = buildFilter(a, ctx.user, zone, ctx.clock);
  if (a.logRowID !== undefined) filter.belowId = a.logRowID;
  // The legacy site accepts any integer offset (its query ignores it): a negative one reads from the start, as SQL takes none.
  const offset = Math.max(0, a.offset ?? (a.page - 1) * a.per_page);
  const [rows, total] = await Promise.all([
    ctx.store.history.list(filter, { limit: a.per_page, offset }),
    skipsCount(a) ? Promise.resolve(null) : ctx.store.history.count(filter),
  ]);
  const pages = total === null ? 0 : Math.ceil(total / a.per_page);
  let body = await shapeAll(ctx, rows);
  if (a.include_sticky && filter.grouped && !a.only_sticky) {
    const sticky = await ctx.store.history.list({ readable: filter.readable, grouped: false, onlySticky: true }, { limit: 100, offset: 0 });
    body = [...(await shapeAll(ctx, sticky, true)), ...body];
  }
  const headers: ResultHeaders = { 'X-WP-Total': total ?? 0, 'X-WP-TotalPages': pages, 'X-SimpleHistory-MaxId': rows[0]?.id ?? 0 };
  if (rows[0]) headers['X-SimpleHistory-MaxDate'] = rows[0].date;
  const link = linkHeader(ctx, a.page, pages);
  if (link) headers.Link = link;
  return { body, headers };
}

async function surrounding(ctx: RestContext, id: number, count: number): Promise<RestResult> {
  const s = await ctx.store.history.surrounding(id, count);
  if (!s.center) throw errors.history.invalidEventId();
  const rows = [...s.before, s.center, ...s.after];
  return {
    body: await shapeAll(ctx, rows),
    headers: {
      'X-WP-Total': rows.length,
      'X-WP-TotalPages': 1,
      'X-SimpleHistory-CenterEventId': id,
      'X-SimpleHistory-EventsBefore': s.after.length,
      'X-SimpleHistory-EventsAfter': s.before.length,
      'X-SimpleHistory-MaxId': Math.max(...rows.map((r) => r.id)),
      'X-SimpleHistory-MinId': Math.min(...rows.map((r) => r.id)),
      'X-SimpleHistory-MaxDate': rows[0].date,
    },
  };
}

async function hasUpdates(ctx: RestContext, a: List): Promise<RestResult> {
  const zone = (await ctx.store.options.site()).timezone;
  const keep: ListArgs = { ...a, ungrouped: true, exclude_search: undefined, exclude_loglevels: undefined, exclude_loggers: undefined, exclude_messages: undefined, exclude_users: undefined, exclude_user: undefined, exclude_initiator: undefined, only_sticky: false };
  if (skipsCount(a)) return { body: { new_events_count: null } };
  return { body: { new_events_count: await ctx.store.history.count(buildFilter(keep, ctx.user, zone, ctx.clock)) } };
}

async function loadEvent(ctx: RestContext, id: number): Promise<HistoryRow> {
  const row = await ctx.store.history.byId(id);
  if (!row) throw errors.history.invalidEventId();
  return row;
}

/** The event, if the reader may read its logger's events (403 otherwise). */
async function loadReadableEvent(ctx: RestContext, id: number): Promise<HistoryRow> {
  const row = await loadEvent(ctx, id);
  const readable = readableLoggers(ctx.user);
  if (readable && !readable.includes(row.logger)) throw errors.history.cannotViewEvent();
  return row;
}

async function singleEvent(ctx: RestContext, id: number): Promise<RestResult> {
  return { body: (await shapeAll(ctx, [await loadReadableEvent(ctx, id)]))[0] };
}

const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const entryArgs = {
  message: arg.string({ description: 'Short message to log', required: true }),
  note: arg.string({ description: 'Additional note or details about the event' }),
  level: arg.enum(['emergency', 'alert', 'critical', 'error', 'warning', 'notice', 'info', 'debug'], { description: 'Log level', default: 'info' }),
  date: arg.string({ description: 'Date and time for the event in MySQL datetime format (Y-m-d H:i:s). If not provided, current time will be used.', format: 'date-time' }),
};

async function createEntry(ctx: RestContext, a: Args<typeof entryArgs>): Promise<RestResult> {
  if (a.date !== undefined && !DATE.test(a.date)) {
    throw errors.history.invalidDate();
  }
  await ctx.store.transaction((store) =>
    logEvent(store, ctx, { logger: 'CustomEntryLogger', key: 'custom_entry_added', level: a.level, date: a.date, context: { message: a.message, note: a.note || undefined } }),
  );
  return { status: 201, body: { message: 'Event logged successfully', data: { status: 201 } } };
}

/** Stick and unstick: `_sticky` in the event's context. Unsticking an event that is not sticky answers it as it is. */
async function setSticky(ctx: RestContext, id: number, sticky: boolean): Promise<RestResult> {
  await loadEvent(ctx, id);
  await ctx.store.transaction((store) => store.history.setContext(id, '_sticky', sticky ? '{}' : null));
  return { body: (await shapeAll(ctx, [await loadEvent(ctx, id)]))[0] };
}

/** React and unreact: the reader's ID in `_reactions[type]`, idempotent. */
async function react(ctx: RestContext, id: number, type: string, on: boolean): Promise<RestResult> {
  const userId = ctx.user!.id;
  // A reaction answers the whole event: only on events the reader may read.
  await loadReadableEvent(ctx, id);
  await ctx.store.transaction(async (store) => {
    const row = await store.history.byId(id);
    if (!row) throw errors.history.eventNotFound();
    const all = storedReactions(row.context);
    const ids = new Set(all[type] ?? []);
    if (on) ids.add(userId);
    else ids.delete(userId);
    all[type] = [...ids];
    const kept = Object.fromEntries(Object.entries(all).filter(([, v]) => v.length));
    await store.history.setContext(id, '_reactions', Object.keys(kept).length ? JSON.stringify(kept) : null);
  });
  return { body: (await shapeAll(ctx, [await loadEvent(ctx, id)]))[0] };
}

/** search-user reads `q` from the query string only. */
async function searchUser(ctx: RestContext): Promise<RestResult> {
  const q = typeof ctx.query.q === 'string' ? ctx.query.q.trim() : '';
  if (!q) throw errors.history.missingSearchQuery();
  const users = await ctx.store.history.searchUsers(q, 20);
  return { body: users.map((u) => ({ ID: String(u.id), user_login: u.login, user_nicename: userNicename(u.login), user_email: u.email, display_name: u.display_name, id: String(u.id) })) };
}

async function searchOptions(ctx: RestContext, kept: Transients): Promise<RestResult> {
  return {
    body: {
      dates: await dateFilter(ctx, kept),
      loggers: ALL_LOGGERS.filter((l) => mayReadLogger(ctx.user, l)).map(({ slug, name, search_data }) => ({ slug, name, search_data })),
      initiators: [
        { value: 'wp_user', label: 'WordPress user' },
        { value: 'web_user', label: 'Anonymous web user' },
        { value: 'wp', label: 'WordPress' },
        { value: 'wp_cli', label: 'WP-CLI' },
        { value: 'other', label: 'Other' },
      ],
      pager_size: { page: PAGER_SIZE, dashboard: 5 },
      new_events_check_interval: 10000,
      maps_api_key: '',
      addons: { addons: [], has_extended_settings_add_on: false, has_premium_add_on: false },
      // The plugin's experimental features are off unless enabled on its settings page, which Lintel does not have.
      experimental_features_enabled: false,
      events_admin_page_url: `${ctx.urls.admin}/admin.php?page=simple_history_admin_menu_page`,
      // The history menu's default place (top level) puts the settings page under admin.php.
      settings_page_url: `${ctx.urls.admin}/admin.php?page=simple_history_settings_page`,
      current_user_id: ctx.user?.id ?? 0,
      current_user_can_manage_options: can(ctx.user, 'manage_options'),
    },
  };
}

/** Lintel has no backfill of events from before it ran: nothing is pending. */
function backfillStatus(): RestResult {
  return { body: { completed: true, type_stats: {} } };
}

const idArg = { id: arg.integer({ description: 'Unique identifier for the event.' }) };
const reactionArgs = { ...idArg, type: arg.enum(['thumbsup'], { description: 'Reaction type.', required: true }) };

/** A route with the legacy controller's item schema (its OPTIONS answer shows it). */
function withSchema(schema: Record<string, unknown>, ...decl: Parameters<typeof route>): RouteDecl {
  return { ...route(...decl), schema };
}

export function historyRoutes(services: Services): RouteDecl[] {
  const kept = new Transients();
  return [
    route(NAMESPACE, P('/email-report/preview/email'), endpoint({ methods: ['POST', 'GET'], args: {}, response: json(z.object({ success: z.boolean(), message: z.string() })), permission: admin, handler: (ctx) => emailPreview(ctx, services.config) })),
    route(NAMESPACE, P('/email-report/preview/html'), endpoint({ methods: ['GET'], args: {}, response: raw('text/html', 'The weekly e-mail report as HTML'), permission: admin, handler: (ctx) => htmlPreview(ctx) })),
    withSchema(
      LEGACY_SCHEMAS.event,
      NAMESPACE,
      P('/events'),
      endpoint({ methods: ['GET'], args: eventListArgs(false), response: json(z.array(HistoryEvent)), permission: listViewer, handler: (ctx, a) => listEvents(ctx, a) }),
      endpoint({
        methods: ['POST'],
        args: entryArgs,
        response: json(z.object({ message: z.string(), data: z.object({ status: z.int() }) }), 201),
        permission: admin,
        handler: (ctx, a) => createEntry(ctx, a),
      }),
    ),
    route(NAMESPACE, P('/events/has-updates'), endpoint({ methods: ['GET'], args: eventListArgs(true), response: json(z.object({ new_events_count: z.int().nullable() })), permission: listViewer, handler: (ctx, a) => hasUpdates(ctx, a) })),
    route(NAMESPACE, P(`/events/${ID}`), endpoint({ methods: ['GET'], args: idArg, path: ['id'], response: json(HistoryEvent), permission: eventViewer, handler: (ctx, a) => singleEvent(ctx, a.id) })),
    route(NAMESPACE, P(`/events/${ID}/stick`), endpoint({ methods: ['POST'], args: idArg, path: ['id'], response: json(HistoryEvent), permission: eventUpdater, handler: (ctx, a) => setSticky(ctx, a.id, true) })),
    route(NAMESPACE, P(`/events/${ID}/unstick`), endpoint({ methods: ['POST'], args: idArg, path: ['id'], response: json(HistoryEvent), permission: eventUpdater, handler: (ctx, a) => setSticky(ctx, a.id, false) })),
    route(NAMESPACE, P(`/events/${ID}/react`), endpoint({ methods: ['POST'], args: reactionArgs, path: ['id'], response: json(HistoryEvent), permission: loggedIn, handler: (ctx, a) => react(ctx, a.id, a.type, true) })),
    route(NAMESPACE, P(`/events/${ID}/unreact`), endpoint({ methods: ['POST'], args: reactionArgs, path: ['id'], response: json(HistoryEvent), permission: loggedIn, handler: (ctx, a) => react(ctx, a.id, a.type, false) })),
    route(NAMESPACE, P('/backfill-status'), endpoint({ methods: ['GET'], args: {}, response: json(z.object({ completed: z.boolean(), type_stats: z.record(z.string(), z.unknown()) })), permission: loggedIn, handler: backfillStatus })),
    route(NAMESPACE, P('/search-options'), endpoint({ methods: ['GET'], args: {}, response: json(SearchOptions), permission: viewer, handler: (ctx) => searchOptions(ctx, kept) })),
    route(NAMESPACE, P('/search-user'), endpoint({ methods: ['GET'], args: {}, reads: ['q'], response: json(z.array(UserMatch)), permission: userSearcher, handler: (ctx) => searchUser(ctx) })),
    ...STAT_NAMES.map((name: StatName) =>
      withSchema(LEGACY_SCHEMAS.stats, NAMESPACE, P(`/stats/${name}`), endpoint({ methods: ['GET'], args: statsArgs, response: json(Stats), permission: statsReader, handler: (ctx, a) => statsBody(ctx, name, a) })),
    ),
  ];
}

