/** Venues and organizers: one implementation, two kinds. */
import { fmt, instantToWall, wallToInstant } from '../../lib/time.ts';
import { parseUtc, parseWall } from '../../lib/dates.ts';
import { errors } from '../../contract/error-codes.ts';
import { slugify } from '../../lib/slug.ts';
import { invalidParam } from '../../contract/validate.ts';
import type { RestContext } from '../../contract/context.ts';
import type { LinkedKind, OrganizerFields, OrganizerRow, VenueFields, VenueRow } from '../../store/calendar.ts';
import { asList, isEmpty, isTruthy, phpInt, phpTruthy, type LinkedListArgs } from './args.ts';
import { isPhpList } from '../../lib/php-params.ts';
import { sanitizeTextField } from '../../lib/legacy-html.ts';
import { archiveLinks, statusEcho, type Echo, assertMayAttribute, canEdit, canRead, clampPerPage, forbidden, scaleBackStatus, siteOf, statusesFor, totals } from './common.ts';
import { organizerObject, venueObject, type Site } from './shape.ts';
import { logPost } from '../../audit/log.ts';
import { recordByPath } from './lookups.ts';

export const VENUE_FIELDS = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince', 'website', 'image'] as const;
export const ORGANIZER_FIELDS = ['phone', 'website', 'email', 'image'] as const;
const PLURAL = { venue: 'venues', organizer: 'organizers' } as const;

type Row = VenueRow | OrganizerRow;

export function linkedObject(site: Site, kind: LinkedKind, r: Row, single = false) {
  return kind === 'venue' ? venueObject(site, r as VenueRow, single) : organizerObject(site, r as OrganizerRow, single);
}

export async function linkedArchive(ctx: RestContext, kind: LinkedKind, a: LinkedListArgs) {
  const site = await siteOf(ctx);
  const perPage = clampPerPage(a.per_page);
  // Both read with tribe_is_truthy (a non-empty list is true).
  const { rows, total } = await ctx.store.calendar.linkedArchive(kind, {
    search: a.search,
    event: a.event,
    hasEvents: a.has_events === undefined ? undefined : isTruthy(a.has_events),
    onlyWithUpcoming: isTruthy(a.only_with_upcoming) ? fmt(instantToWall(ctx.clock.now(), site.zone)) : undefined,
    statuses: statusesFor(ctx, a.status),
    limit: perPage,
    offset: (a.page - 1) * perPage,
  });
  if (rows.length === 0 && a.page > 1) throw errors.calendar.linkedPageNotFound(kind);
  const pages = Math.ceil(total / perPage);
  const echo: Echo[] = [['page', a.page], ['per_page', perPage]];
  if (a.event !== undefined) echo.push(['event', a.event]);
  // Echoed as Tribe__Utils__Array::to_list writes it: the items joined by commas, as PHP makes strings of them (a list is "Array").
  if (a.has_events !== undefined) echo.push(['has_events', (typeof a.has_events === 'object' && a.has_events !== null ? Object.values(a.has_events) : [a.has_events]).map(phpString).join(',')]);
  echo.push(statusEcho(ctx, a.status));
  const links = archiveLinks(site.ctx.urls.rest(`/${site.ns}/${PLURAL[kind]}/`), echo, a.page, a.page < pages);
  return { body: { [PLURAL[kind]]: rows.map((r) => linkedObject(site, kind, r)), ...links, total, total_pages: pages }, headers: totals(total, pages) };
}

/** PHP's string of a scalar (true is "1", false and null empty) or of an array ("Array"). */
const phpString = (v: unknown) => (typeof v === 'object' && v !== null ? 'Array' : v === true ? '1' : v === false || v === null ? '' : String(v));

export async function loadLinked(ctx: RestContext, kind: LinkedKind, id: number): Promise<Row> {
  const r = kind === 'venue' ? await ctx.store.calendar.venue(id) : await ctx.store.calendar.organizer(id);
  if (!r) throw invalidParam('id');
  return r;
}

export async function linkedBySlug(ctx: RestContext, kind: LinkedKind, slug: string): Promise<Row> {
  const r = await recordByPath(ctx, kind, slug);
  if (!r) throw invalidParam('slug');
  return r;
}

export async function readLinked(ctx: RestContext, kind: LinkedKind, r: Row) {
  if (!canRead(ctx, r)) throw errors.calendar.linkedNotAccessible(kind);
  return { body: linkedObject(await siteOf(ctx), kind, r, true) };
}

function linkedFields(ctx: RestContext, kind: LinkedKind, a: Record<string, unknown>, creating: boolean): Partial<VenueFields & OrganizerFields> {
  const f: Record<string, unknown> = {};
  const name = a[kind];
  if (name !== undefined && name !== null) {
    f.name = String(name);
    if (creating) f.slug = slugify(String(name));
  }
  if (a.description !== undefined && a.description !== null) f.description = String(a.description);
  // Updates too: one that sends no status publishes a draft or trashed record (for those who may publish).
  f.status = scaleBackStatus(ctx, a.status === undefined || a.status === null ? undefined : String(a.status));
  if (a.author !== undefined && a.author !== null) {
    f.author = Number(a.author);
    assertMayAttribute(ctx, f.author as number, creating);
  } else if (creating) f.author = ctx.user?.id ?? 0;
  for (const k of kind === 'venue' ? VENUE_FIELDS : ORGANIZER_FIELDS) if (a[k] !== undefined && a[k] !== null) f[k] = String(a[k]);
  if (kind === 'venue') {
    f.stateprovince = stateProvince(f);
    // Venue::create and Venue::update alike turn a flag on unless the request sent a false one (tribe_is_truthy):
    // an update that does not send it shows the map again.
    for (const k of ['show_map', 'show_map_link']) f[k] = a[k] === undefined || a[k] === null || isTruthy(a[k]);
    for (const k of ['latitude', 'longitude']) if (a[k] !== undefined && Number.isFinite(Number(a[k]))) f[k] = Number(a[k]);
  }
  return f as Partial<VenueFields & OrganizerFields>;
}

/** What Tribe's save_meta writes: post meta (not the name, description, status or dates), the text through sanitize_text_field. */
const META_FIELDS: Record<LinkedKind, readonly string[]> = { venue: [...VENUE_FIELDS, 'show_map', 'show_map_link'], organizer: ORGANIZER_FIELDS };

function sanitizedMeta(kind: LinkedKind, f: Partial<VenueFields & OrganizerFields>): Partial<VenueFields & OrganizerFields> {
  const out: Record<string, unknown> = { ...f };
  for (const k of META_FIELDS[kind]) if (k !== 'image' && typeof out[k] === 'string') out[k] = sanitizeTextField(out[k]);
  return out;
}

const metaOf = (kind: LinkedKind, f: Partial<VenueFields & OrganizerFields>) => Object.fromEntries(Object.entries(f).filter(([k]) => META_FIELDS[kind].includes(k)));

/**
 * The legacy site writes `stateprovince` on every venue create and update from that request alone: the
 * one sent, else the state of a US (or country-less) venue, else the province, else empty. An update
 * that sends neither blanks it.
 */
function stateProvince(f: Record<string, unknown>): string {
  if (f.stateprovince) return String(f.stateprovince);
  if (f.state && (!f.country || f.country === 'US' || f.country === 'United States')) return String(f.state);
  return f.province ? String(f.province) : '';
}

/**
 * The post date a write names (prepare_postarr): `date_utc` in UTC, else on a create `date` in site
 * time, read as strtotime does; none keeps the record's own. (An update's `date` alone changes the
 * local date only, wp_update_post keeping the UTC one: Lintel, one date per record, keeps both.)
 */
async function postDate(ctx: RestContext, a: Record<string, unknown>, creating: boolean): Promise<Date | undefined> {
  const now = ctx.clock.now();
  if (typeof a.date_utc === 'string') {
    const date = parseUtc(a.date_utc, now);
    if (date) return date;
  }
  if (!creating || typeof a.date !== 'string') return undefined;
  const zone = (await siteOf(ctx)).zone;
  const wall = parseWall(a.date, instantToWall(now, zone));
  return wall ? wallToInstant(wall, zone) : undefined;
}

/** wp_insert_post: a post published with a date a minute or more ahead is scheduled (future), a future one whose date has come is published. */
function scheduled(status: string | undefined, date: Date, now: Date): string | undefined {
  const ahead = date.getTime() - now.getTime() >= 60_000;
  return status === 'publish' && ahead ? 'future' : status === 'future' && !ahead ? 'publish' : status;
}

/**
 * Creates a venue/organizer, or reuses one of the same name (the legacy duplicate check), on which
 * Venue::create and Organizer::create then save this request's post meta (save_meta): the record's
 * name, description, status and dates stay, and so does its modified date. Only a record the caller
 * may edit is reused (see DEVIATIONS.md, calendar-duplicate-access): the legacy site hands any
 * matching one, a draft it hides from them included, to every caller.
 */
export async function createLinkedRecord(ctx: RestContext, kind: LinkedKind, a: Record<string, unknown>): Promise<number> {
  const f = sanitizedMeta(kind, linkedFields(ctx, kind, a, true));
  return ctx.store.transaction(async (store) => {
    // Under the venue and organizer creates' lock until commit: parallel creates of one name would otherwise each find no record and make one.
    await store.calendar.lockLinkedCreates();
    const dup = (await store.calendar.findDuplicates(kind, f.name ?? '', f.description ?? '')).find((r) => canEdit(ctx, r));
    if (dup) {
      await store.calendar.updateLinked(kind, dup.id, metaOf(kind, f), null);
      return dup.id;
    }
    // A new record's date, given or now, is its modified date too.
    const date = (await postDate(ctx, a, true)) ?? ctx.clock.now();
    f.status = scheduled(f.status, date, ctx.clock.now());
    const id = await store.calendar.createLinked(kind, f as VenueFields, date);
    await logPost(store, ctx, 'post_created', kind, { id, name: f.name, status: String(f.status) });
    return id;
  });
}

/** A name the save filters emptied (control characters only), without a description, is no post wp_insert_post inserts (empty_content). */
const insertable = (kind: LinkedKind, a: Record<string, unknown>) => !(a[kind] === '' && !a.description);

export async function createLinked(ctx: RestContext, kind: LinkedKind, a: Record<string, unknown>) {
  if (!insertable(kind, a)) throw errors.calendar.linkedNotCreated(kind);
  return ctx.store.transaction(async (store) => {
    const tctx = { ...ctx, store };
    const id = await createLinkedRecord(tctx, kind, a);
    return { status: 201, body: linkedObject(await siteOf(tctx), kind, await loadLinked(tctx, kind, id)) };
  });
}

export async function updateLinked(ctx: RestContext, kind: LinkedKind, r: Row, a: Record<string, unknown>) {
  if (!canEdit(ctx, r)) throw forbidden(ctx);
  const f: Partial<VenueFields & OrganizerFields> & { created?: Date } = sanitizedMeta(kind, linkedFields(ctx, kind, a, false));
  const date = await postDate(ctx, a, false);
  if (date) f.created = new Date(Math.floor(date.getTime() / 1000) * 1000);
  f.status = scheduled(f.status, date ?? r.created, ctx.clock.now());
  // Out of the trash, the record takes back the slug it had (wp_insert_post's `_wp_desired_post_slug`).
  if (r.status === 'trash' && f.status !== 'trash') f.slug = r.slug.replace(/__trashed$/, '');
  const updated = await ctx.store.transaction(async (store) => {
    await store.calendar.updateLinked(kind, r.id, f, ctx.clock.now());
    const row = await loadLinked({ ...ctx, store }, kind, r.id);
    const visibility = (x: Row) => ({ status: x.status, password: '', terms: [] });
    await logPost(store, ctx, 'post_updated', kind, row, { before: visibility(r), after: visibility(row) });
    return row;
  });
  return { body: linkedObject(await siteOf(ctx), kind, updated) };
}

export async function deleteLinked(ctx: RestContext, kind: LinkedKind, r: Row) {
  if (!canEdit(ctx, r)) throw forbidden(ctx);
  if (r.status === 'trash') throw errors.calendar.linkedInTrash(kind);
  await ctx.store.transaction(async (store) => {
    await store.calendar.updateLinked(kind, r.id, { status: 'trash', slug: `${r.slug}__trashed` }, ctx.clock.now());
    await logPost(store, ctx, 'post_trashed', kind, r);
  });
  return { body: linkedObject(await siteOf(ctx), kind, await loadLinked(ctx, kind, r.id)) };
}

/** An event's `venue`/`organizer` value as its validate callback accepted it: IDs (falsy items skipped), `{id}` objects, or inline records to create or match. */
export async function resolveLinked(ctx: RestContext, kind: LinkedKind, value: unknown): Promise<number[]> {
  const items = typeof value !== 'object' || value === null ? asList(value) : isPhpList(value) ? Object.values(value) : [value];
  const out: number[] = [];
  for (const item of items) {
    if (typeof item === 'object' && item !== null) {
      const o = item as Record<string, unknown>;
      // An inline record wp_insert_post refuses is none: the event is written without it.
      if (!isEmpty(o.id)) out.push(phpInt(o.id));
      else if (insertable(kind, o)) out.push(await createLinkedRecord(ctx, kind, o));
    } else if (phpTruthy(item)) out.push(phpInt(item));
  }
  return out;
}
