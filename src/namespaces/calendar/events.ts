/** Events: the archive with its filters, single reads, and writes. */
import { can } from '../../lib/roles.ts';
import { errors } from '../../contract/error-codes.ts';
import { slugify } from '../../lib/slug.ts';
import { invalidParam } from '../../contract/validate.ts';
import type { RestContext } from '../../contract/context.ts';
import { JsonText } from '../../http/shape.ts';
import type { EventFields, EventQuery, EventRow, StoredEvent, Taxonomy } from '../../store/calendar.ts';
import type { Store } from '../../store/store.ts';
import { fmt, instantToWall, wallToInstant } from '../../lib/time.ts';
import { isNumeric, type EventListArgs, type EventWriteArgs } from './args.ts';
import { archiveLinks, statusEcho, type Echo, assertMayAttribute, canEdit, canEditAny, canRead, clampPerPage, forbidden, scaleBackStatus, siteOf, STATUSES, statusesFor, totals } from './common.ts';
import { endOfDay, numericDate, parseWall, startOfDay } from '../../lib/dates.ts';
import { resolveLinked } from './linked.ts';
import { eventObject, type Site } from './shape.ts';
import { logPost } from '../../audit/log.ts';
import { resolveTermsForWrite } from './terms.ts';
import { termOf } from './lookups.ts';
import { sameSecret } from '../../lib/secrets.ts';

export async function eventBody(site: Site, e: StoredEvent, single = false) {
  const links = (await site.ctx.store.calendar.linksOf([e])).get(e.id)!;
  // JSON-LD is left out for those who only pass the password check.
  return eventObject(site, e, links, { single, withLd: e.password === '' || canEdit(site.ctx, e) });
}

/**
 * Archive event objects, serialized, kept with the stored event they were shaped from: the store
 * hands out the same object until a calendar write is announced (its links included), so the
 * object shaped from it holds as long as it does. Kept per namespace name, site zone and REST
 * root (the locale).
 */
const shapedEvents = new WeakMap<StoredEvent, Map<string, Buffer>>();

/** The archive's `events`: the page's event objects as one JSON array. */
async function archiveEvents(site: Site, rows: StoredEvent[]): Promise<JsonText> {
  const key = `${site.ns}\0${site.zone}\0${site.ctx.urls.apiRoot}`;
  const links = await site.ctx.store.calendar.linksOf(rows.filter((e) => !shapedEvents.get(e)?.has(key)));
  const items = rows.map((e) => {
    const kept = shapedEvents.get(e) ?? shapedEvents.set(e, new Map()).get(e)!;
    let item = kept.get(key);
    if (item === undefined) kept.set(key, (item = Buffer.from(JSON.stringify(eventObject(site, e, links.get(e.id)!, { protectedView: e.password !== '' })))));
    return item;
  });
  return JsonText.list(items);
}

export async function eventArchive(ctx: RestContext, a: EventListArgs) {
  const site = await siteOf(ctx);
  const store = ctx.store.calendar;
  const now = ctx.clock.now();
  const nowWall = instantToWall(now, site.zone);
  const strict = ['1', 'true', 'yes', 'on'].includes(String(a.strict_dates ?? 'false').toLowerCase());
  const explicit = (k: string) => ctx.query[k] !== undefined;
  // The defaults: "yesterday 23:59" UTC in site time, and now + 24 months (UTC clock).
  const yesterday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1, 23, 59));
  const defaults = { start_date: fmt(instantToWall(yesterday, site.zone)), end_date: fmt(new Date(new Date(now).setUTCMonth(now.getUTCMonth() + 24))) };
  const bounded = (['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const).some((k) => a[k] !== undefined);
  // A number localize_date reads as no date makes the bound `false`: the query drops a start or end
  // date, and reads a starts_*/ends_* bound as now; neither is echoed in the links.
  const unechoed = new Set<string>();
  const bound = (k: 'start_date' | 'end_date' | 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after', round: (d: Date) => Date): string | undefined => {
    const raw = a[k] ?? (!bounded || explicit(k) ? defaults[k as keyof typeof defaults] : undefined);
    if (raw === undefined) return undefined;
    const wall = isNumeric(raw) ? numericDate(raw, now) : parseWall(raw, nowWall);
    if (!wall && isNumeric(raw)) {
      unechoed.add(k);
      return k === 'start_date' || k === 'end_date' ? undefined : fmt(nowWall);
    }
    if (!wall) throw invalidParam(k);
    // Strict: the value is read as UTC and moved to site time; otherwise whole days.
    return fmt(strict ? instantToWall(wall, site.zone) : round(wall));
  };
  const include = a.include;
  const q: EventQuery = {
    startsOnOrAfter: include ? defaults.start_date : bound('start_date', startOfDay),
    endsOnOrBefore: include ? defaults.end_date : bound('end_date', endOfDay),
    startsBefore: bound('starts_before', endOfDay), startsAfter: bound('starts_after', endOfDay),
    endsBefore: bound('ends_before', endOfDay), endsAfter: bound('ends_after', endOfDay),
    search: a.search,
    // Those who may edit a protected event may search its content (as canEdit): editors all, authors and contributors their own.
    searchProtectedOf: canEditAny(ctx) ? 'all' : ctx.user && can(ctx.user, 'edit_posts') ? ctx.user.id : undefined,
    statuses: statusesFor(ctx, a.status),
    featured: a.featured,
    include,
    limit: clampPerPage(a.per_page), offset: (a.page - 1) * clampPerPage(a.per_page),
  };
  // The lists were looked up by their validate callbacks (term_exists), but the query finds some items
  // no term: a negative ID (term_exists reads it as positive) and a text whose slug is empty (term_exists
  // took the taxonomy's first term for it). Those match no event: they are left out (a list of none matches none).
  const termIds = async (taxonomy: Taxonomy, items: (string | number)[]) => {
    const found = await Promise.all(items.map((x) => (typeof x === 'number' && x < 0 ? null : termOf(ctx, taxonomy, x))));
    return found.flatMap((t) => (t ? [t.id] : []));
  };
  if (a.categories) q.categories = await termIds('category', a.categories);
  if (a.tags) q.tags = await termIds('tag', a.tags);
  // The query compares the stored IDs with the items as given: a fractional one (`7.5`) matches none.
  const linkedIds = (items: (string | number)[]) => items.map((x) => (Number.isInteger(x) ? Number(x) : 0));
  if (a.venue) q.venues = linkedIds(a.venue);
  if (a.organizer) q.organizers = linkedIds(a.organizer);
  // Its validate callback (is_event_id) found the event.
  if (a.post_parent !== undefined) q.postParent = a.post_parent;
  // geoloc, geoloc_lat and geoloc_lng need the paid Pro add-on: the legacy site passes them on to its links (with geoloc only) and filters nothing.

  const { rows, total } = await store.eventArchive(q);
  if (rows.length === 0 && a.page > 1) throw errors.calendar.eventPageNotFound();
  const events = await archiveEvents(site, rows);
  const perPage = clampPerPage(a.per_page);
  const pages = Math.ceil(total / perPage);
  const echo: Echo[] = [['page', a.page], ['per_page', perPage]];
  if (q.startsOnOrAfter && !include) echo.push(['start_date', q.startsOnOrAfter]);
  if (q.endsOnOrBefore && !include) echo.push(['end_date', q.endsOnOrBefore]);
  if (include) echo.push(['start_date', defaults.start_date], ['end_date', defaults.end_date]);
  if (a.search !== undefined) echo.push(['search', a.search]);
  if (a.geoloc) echo.push(['geoloc', 1], ['geoloc_lat', a.geoloc_lat === undefined ? '' : String(a.geoloc_lat)], ['geoloc_lng', a.geoloc_lng === undefined ? '' : String(a.geoloc_lng)]);
  echo.push(statusEcho(ctx, a.status));
  if (q.postParent !== undefined) echo.push(['post_parent', q.postParent]);
  if (include) echo.push(['include', include.join(',')]);
  const boundKeys = { starts_before: q.startsBefore, starts_after: q.startsAfter, ends_before: q.endsBefore, ends_after: q.endsAfter };
  for (const [k, v] of Object.entries(boundKeys)) if (v !== undefined && !unechoed.has(k)) echo.push([k, v]);
  if (a.ticketed !== undefined) echo.push(['ticketed', a.ticketed ? 1 : 0]);
  const extras: [string, string][] = [];
  if (a.venue) extras.push(['venue', a.venue.join(',')]);
  if (a.organizer) extras.push(['organizer', a.organizer.join(',')]);
  // featured=false is dropped by add_query_arg, which still re-encodes the others.
  if (q.featured !== undefined) extras.push(['featured', q.featured ? '1' : '']);
  const base = site.ctx.urls.rest(`/${site.ns}/events/`);
  const { rest_url, ...neighbours } = archiveLinks(base, echo, a.page, a.page < pages, extras);
  return { body: { events, rest_url, ...neighbours, total, total_pages: pages }, headers: totals(total, pages) };
}

/** Resolves an event for a single route; errors as the legacy site orders them. */
export async function loadEvent(ctx: RestContext, id: number): Promise<StoredEvent> {
  const e = await ctx.store.calendar.event(id);
  if (e) return e;
  // Another post (a venue, or a post of the legacy site's the import kept) is no event; no post at all is not found.
  const post = (await ctx.store.calendar.kindOf(id)) ?? (await ctx.store.legacyPosts.byId(id));
  throw post ? errors.calendar.invalidEventId() : errors.calendar.eventNotFound(id);
}

export async function readEvent(ctx: RestContext, e: StoredEvent, password: string | undefined) {
  if (e.status === 'trash') throw errors.calendar.eventGone();
  if (!canRead(ctx, e)) throw errors.calendar.eventNotAccessible();
  // Only the event's own password opens it, for administrators too: the route has no `context=edit`, the legacy site's other way in.
  if (e.password !== '' && (password === undefined || !sameSecret(e.password, password))) throw errors.calendar.eventPasswordProtected();
  return { body: await eventBody(await siteOf(ctx), e, true) };
}

const FLAGS = ['all_day', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'] as const;

/** Builds the stored fields from the sent ones: only what was sent changes (see DEVIATIONS.md). */
async function fieldsFrom(ctx: RestContext, a: EventWriteArgs, current: EventRow | null, zone: string): Promise<Partial<EventFields>> {
  const f: Partial<EventFields> = {};
  const nowWall = instantToWall(ctx.clock.now(), zone);
  if (a.title !== undefined) f.title = String(a.title);
  if (a.description !== undefined) f.description = String(a.description);
  if (a.excerpt !== undefined) f.excerpt = String(a.excerpt);
  // wp_insert_post makes a slug that sanitizes to nothing from the title (and the store one of neither from the ID).
  if (a.slug !== undefined) f.slug = slugify(String(a.slug)) || slugify(String(a.title ?? current?.title ?? ''));
  else if (!current) f.slug = slugify(String(a.title));
  if (a.author !== undefined) {
    assertMayAttribute(ctx, a.author, !current);
    f.author = a.author;
  } else if (!current) f.author = ctx.user?.id ?? 0;
  if (a.status !== undefined || !current) {
    f.status = scaleBackStatus(ctx, a.status);
    if (!STATUSES.includes(f.status)) throw invalidParam('status');
  }
  if (a.password !== undefined && current) f.password = String(a.password);
  for (const k of FLAGS) {
    const flag = a[k];
    if (flag !== undefined) f[k] = flag;
  }
  if (a.website !== undefined) f.website = String(a.website ?? '');
  if (a.cost !== undefined) Object.assign(f, costFields(a.cost));

  const timezone = a.timezone || current?.timezone || zone;
  if (a.timezone !== undefined) f.timezone = timezone;
  const allDay = f.all_day ?? current?.all_day ?? false;
  const start = a.start_date !== undefined ? parseWall(String(a.start_date), nowWall) : null;
  const end = a.end_date !== undefined ? parseWall(String(a.end_date), nowWall) : null;
  if (a.start_date !== undefined && !start) throw invalidParam('start_date');
  if (a.end_date !== undefined && !end) throw invalidParam('end_date');
  if (start || end || a.timezone !== undefined || a.all_day !== undefined) {
    let s = start ?? (current ? new Date(`${current.start_date.replace(' ', 'T')}Z`) : null);
    let e = end ?? (current ? new Date(`${current.end_date.replace(' ', 'T')}Z`) : null);
    if (!s || !e) throw invalidParam(!s ? 'start_date' : 'end_date');
    if (allDay) [s, e] = [startOfDay(s), endOfDay(e)];
    // An end before the start is moved to the start, as the legacy site does.
    if (e < s) e = s;
    Object.assign(f, {
      start_date: fmt(s), end_date: fmt(e), timezone,
      utc_start_date: fmt(wallToInstant(s, timezone)), utc_end_date: fmt(wallToInstant(e, timezone)),
    });
  }
  return f;
}

export function costFields(cost: unknown) {
  const text = Array.isArray(cost) ? cost.map(String).join(' - ') : String(cost ?? '');
  // "0" is dropped as PHP drops falsy values on save.
  const raw = text.trim() === '0' ? '' : text.trim();
  const sym = /^([^\d\s.,-]+)\s*\d/.exec(raw) ?? /\d\s*([^\d\s.,-]+)$/.exec(raw);
  const symbol = sym && !/^free$/i.test(sym[1]) ? sym[1] : '';
  return { cost: raw, currency_symbol: symbol, currency_position: symbol ? (raw.startsWith(symbol) ? 'prefix' : 'postfix') : '', currency_code: '' };
}

type Links = { venue?: number[]; organizer?: number[] };

/** Resolves (and creates inline) the venues and organizers first, so they take post IDs before their event, as on the legacy site. */
async function resolveLinks(ctx: RestContext, a: EventWriteArgs): Promise<Links> {
  const links: Links = {};
  if (a.venue !== undefined) links.venue = await resolveLinked(ctx, 'venue', a.venue);
  if (a.organizer !== undefined) links.organizer = await resolveLinked(ctx, 'organizer', a.organizer);
  return links;
}

async function applyLinks(ctx: RestContext, id: number, a: EventWriteArgs, links: Links): Promise<void> {
  const store = ctx.store.calendar;
  if (links.venue) await store.setLinks(id, 'venue', links.venue);
  if (links.organizer) await store.setLinks(id, 'organizer', links.organizer);
  if (a.categories !== undefined) await store.setTerms(id, 'category', await resolveTermsForWrite(ctx, 'category', a.categories));
  if (a.tags !== undefined) await store.setTerms(id, 'tag', await resolveTermsForWrite(ctx, 'tag', a.tags));
}

export async function createEvent(ctx: RestContext, a: EventWriteArgs) {
  if (typeof a.title !== 'string') throw invalidParam('title');
  // A title the save filters emptied (control characters only) makes an empty post unless a description or excerpt is left.
  if (a.title === '' && !a.description && !a.excerpt) throw errors.calendar.emptyContent();
  return ctx.store.transaction(async (store) => {
    const tctx = { ...ctx, store };
    const site = await siteOf(tctx);
    const f = await fieldsFrom(tctx, a, null, site.zone);
    const full: EventFields = {
      author: 0, status: 'publish', password: '', slug: '', title: '', description: '', excerpt: '', start_date: '', end_date: '', utc_start_date: '', utc_end_date: '',
      timezone: site.zone, all_day: false, cost: '', currency_symbol: '', currency_code: '', currency_position: '', website: null, image: '',
      show_map: false, show_map_link: false, hide_from_listings: false, sticky: false, featured: false, post_parent: 0, ...f,
    };
    const links = await resolveLinks(tctx, a);
    const id = await store.calendar.createEvent(full, ctx.clock.now());
    // The legacy site saved a revision when making an event sticky, which took the next post ID.
    if (full.sticky) await store.calendar.skipPostId();
    await applyLinks(tctx, id, a, links);
    await logPost(store, ctx, 'post_created', 'event', { id, title: full.title, status: full.status, password: full.password });
    return { status: 201, body: await eventBody(site, (await store.calendar.event(id))!) };
  });
}

/** An event as the history's post logger compares it before and after an update: title, visibility and terms. */
async function loggedState(store: Store, id: number) {
  const event = (await store.calendar.event(id))!;
  const terms = (await store.calendar.linksOf([event])).get(id)?.terms ?? [];
  return { id, title: event.title, status: event.status, password: event.password, terms };
}

export async function updateEvent(ctx: RestContext, e: EventRow, a: EventWriteArgs) {
  if (!canEdit(ctx, e)) throw forbidden(ctx);
  return ctx.store.transaction(async (store) => {
    const tctx = { ...ctx, store };
    const site = await siteOf(tctx);
    const fields = await fieldsFrom(tctx, a, e, site.zone);
    const links = await resolveLinks(tctx, a);
    const before = await loggedState(store, e.id);
    await store.calendar.updateEvent(e.id, fields, ctx.clock.now());
    await applyLinks(tctx, e.id, a, links);
    const after = await loggedState(store, e.id);
    await logPost(store, ctx, 'post_updated', 'event', after, { before, after });
    return { body: await eventBody(site, (await store.calendar.event(e.id))!) };
  });
}

export async function deleteEvent(ctx: RestContext, e: EventRow) {
  if (!canEdit(ctx, e)) throw forbidden(ctx);
  if (e.status === 'trash') throw errors.calendar.eventInTrash();
  // Read back inside the transaction: outside it, the events cache may still hold the event until the write is announced.
  const trashed = await ctx.store.transaction(async (store) => {
    await store.calendar.updateEvent(e.id, { status: 'trash', slug: `${e.slug}__trashed` }, ctx.clock.now());
    await logPost(store, ctx, 'post_trashed', 'event', e);
    return (await store.calendar.event(e.id))!;
  });
  return { body: await eventBody(await siteOf(ctx), trashed) };
}
