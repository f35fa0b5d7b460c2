/**
 * The calendar's resources (`tribe/events/v1` on the legacy site): categories (with their parents),
 * tags, venues, organizers, then events with their links, in every status an administrator can list.
 * Values are read back from the legacy objects: titles lose their texturized entities, the
 * permalink standing in for an unset website becomes "unset" again, dates keep their time zones.
 * A password-protected event is listed with its fields blanked: its password comes from the
 * `wp/v2` post (edit context, administrators only) and its fields from the single event read with it.
 * Events hidden from listings are never in the archive: they are found through the `wp/v2` post list.
 */
import { wallToInstant } from '../lib/time.ts';
import type { ImportedEvent, LinkedKind, OrganizerRow, Taxonomy, TermRow, VenueRow } from '../store/calendar.ts';
import type { Store } from '../store/store.ts';
import type { LegacyClient, LegacyPage } from './client.ts';
import type { ImportResource, SourcePage } from './resource.ts';

/** The legacy route's namespace: the contract's `calendar/events/v1`. */
const NS = 'tribe/events/v1';
/** Every status an administrator may list (trashed records are not importable through the API). */
export const IMPORTED_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];
/** The archives' largest page. */
const PER_PAGE = 50;

type Json = Record<string, unknown>;
type ImportedTerm = Omit<TermRow, 'count'>;

const ZERO_DATE = '0000-00-00 00:00:00';
const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null || v === false ? '' : String(v));
const bool = (v: unknown, absent = false) => (typeof v === 'boolean' ? v : absent);
/** `wptexturize` undone for what it changes in titles (the store keeps the plain text). */
const untexturize = (s: string) => s.replace(/&#8217;/g, "'").replace(/&#038;/g, '&');
const wall = (s: string) => new Date(`${s.replace(' ', 'T')}Z`);

/** A post's creation and modification instants, from its UTC dates or, for drafts (zero UTC dates), its local ones. */
function postDates(o: Json, zone: string): { created: Date; modified: Date } {
  const at = (utc: unknown, local: unknown) => (str(utc) && str(utc) !== ZERO_DATE ? wall(str(utc)) : wallToInstant(wall(str(local)), zone));
  return { created: at(o.date_utc, o.date), modified: at(o.modified_utc, o.modified) };
}

function venueRow(v: Json, zone: string): VenueRow {
  return {
    id: Number(v.id), author: Number(v.author ?? 0), status: str(v.status), slug: str(v.slug), name: untexturize(str(v.venue)),
    description: str(v.description), excerpt: str(v.excerpt), address: str(v.address), city: str(v.city), country: str(v.country),
    province: str(v.province), state: str(v.state), zip: str(v.zip), phone: str(v.phone), website: str(v.website),
    stateprovince: str(v.stateprovince), image: '', show_map: bool(v.show_map, true), show_map_link: bool(v.show_map_link, true),
    latitude: typeof v.geo_lat === 'number' ? v.geo_lat : null, longitude: typeof v.geo_lng === 'number' ? v.geo_lng : null,
    ...postDates(v, zone),
  };
}

function organizerRow(o: Json, zone: string): OrganizerRow {
  return {
    id: Number(o.id), author: Number(o.author ?? 0), status: str(o.status), slug: str(o.slug), name: untexturize(str(o.organizer)),
    description: str(o.description), excerpt: str(o.excerpt), phone: str(o.phone), website: str(o.website), email: str(o.email), image: '',
    ...postDates(o, zone),
  };
}

function eventRow(e: Json, zone: string, password: string): ImportedEvent {
  const cost = (e.cost_details ?? {}) as { currency_symbol?: string; currency_code?: string; currency_position?: string; values?: string[] };
  const values = cost.values ?? [];
  const venues = Array.isArray(e.venue) ? (e.venue as Json[]) : e.venue ? [e.venue as Json] : [];
  const ids = (list: unknown) => (Array.isArray(list) ? (list as Json[]).map((x) => Number(x.id)) : []);
  // The website is the permalink when none was ever set, with `&` escaped as the legacy site does.
  const website = str(e.website) === str(e.url) ? null : str(e.website).replace(/&amp;/g, '&');
  return {
    id: Number(e.id), author: Number(e.author ?? 0), status: str(e.status), password, slug: str(e.slug), title: untexturize(str(e.title)),
    description: str(e.description), excerpt: str(e.excerpt),
    start_date: str(e.start_date), end_date: str(e.end_date), utc_start_date: str(e.utc_start_date), utc_end_date: str(e.utc_end_date),
    timezone: str(e.timezone), all_day: bool(e.all_day),
    // Numeric costs are their sorted values ("20 - 30" formats as "$20 – $30" again); a text cost is kept as shown.
    cost: values.length && values.every((v) => /^\d+(\.\d+)?$/.test(v)) ? values.join(' - ') : str(e.cost),
    currency_symbol: str(cost.currency_symbol), currency_code: str(cost.currency_code), currency_position: str(cost.currency_position),
    website, image: '', show_map: bool(e.show_map), show_map_link: bool(e.show_map_link), hide_from_listings: bool(e.hide_from_listings),
    sticky: bool(e.sticky), featured: bool(e.featured), post_parent: 0,
    ...postDates(e, zone),
    venues: venues.map((v) => Number(v.id)), organizers: ids(e.organizer), terms: [...ids(e.categories), ...ids(e.tags)],
  };
}

/** Rows of an archive page; `key` is the list's name in the body (`events`, `venues`, ...). */
async function archive(client: LegacyClient, route: string, key: string, page: number, query: Json): Promise<LegacyPage<Json>> {
  const { body } = await client.get<Record<string, unknown>>(`${NS}/${route}`, { ...(query as Record<string, string>), per_page: PER_PAGE, page });
  return { items: (body[key] as Json[] | undefined) ?? [], total: Number(body.total ?? 0), totalPages: Number(body.total_pages ?? 0) };
}

function termResource(client: LegacyClient, taxonomy: Taxonomy): ImportResource<ImportedTerm> {
  const key = taxonomy === 'category' ? 'categories' : 'tags';
  return {
    name: `calendar.${key}`,
    family: 'calendar',
    async fetchPage(page) {
      const a = await archive(client, key, key, page, { hide_empty: 'false', orderby: 'id', order: 'asc' });
      const records = a.items.map((t) => ({ id: Number(t.id), taxonomy, name: str(t.name), slug: str(t.slug), description: str(t.description), parent: Number(t.parent ?? 0) }));
      return { page, records, total: a.total, totalPages: a.totalPages };
    },
    writeBatch: (store, rows) => store.calendar.importTerms(rows),
    storedIds: (store) => store.calendar.importedIds(taxonomy, []),
    async remove(store, ids) {
      for (const id of ids) await store.calendar.deleteTerm(id);
    },
    async sample(store, ids) {
      const out = new Map<number, ImportedTerm>();
      for (const id of ids) {
        const t = await store.calendar.term(taxonomy, id);
        if (t) out.set(id, { id: t.id, taxonomy: t.taxonomy, name: t.name, slug: t.slug, description: t.description, parent: Number(t.parent) });
      }
      return out;
    },
  };
}

function linkedResource(client: LegacyClient, kind: LinkedKind): ImportResource<VenueRow | OrganizerRow> {
  const key = kind === 'venue' ? 'venues' : 'organizers';
  const toRow = kind === 'venue' ? venueRow : organizerRow;
  return {
    name: `calendar.${key}`,
    family: 'calendar',
    async fetchPage(page) {
      const a = await archive(client, key, key, page, { status: IMPORTED_STATUSES.join(',') });
      const z = await client.timezone();
      return { page, records: a.items.map((x) => toRow(x, z)), total: a.total, totalPages: a.totalPages };
    },
    writeBatch: (store, rows) => store.calendar.importLinked(kind, rows),
    storedIds: (store) => store.calendar.importedIds(kind, IMPORTED_STATUSES),
    remove: (store, ids) => store.calendar.trashPosts(kind, ids),
    confirmGone: (ids) => postsGone(client, kind === 'venue' ? 'tribe_venue' : 'tribe_organizer', ids),
    async sample(store, ids) {
      const out = new Map<number, VenueRow | OrganizerRow>();
      for (const id of ids) {
        const r = kind === 'venue' ? await store.calendar.venue(id) : await store.calendar.organizer(id);
        if (r) out.set(id, r);
      }
      return out;
    },
  };
}

/** The stored form of these events (for `--verify`). */
async function storedEvents(store: Store, ids: number[]): Promise<Map<number, ImportedEvent>> {
  const events = await store.calendar.events(ids);
  const links = await store.calendar.linksOf(events);
  const out = new Map<number, ImportedEvent>();
  for (const { venue_ids, organizer_ids, term_ids: _, ...e } of events) {
    const byTaxonomy = (tax: Taxonomy) => links.get(e.id)!.terms.filter((t) => t.taxonomy === tax).map((t) => t.id);
    out.set(e.id, { ...e, venues: venue_ids, organizers: organizer_ids, terms: [...byTaxonomy('category'), ...byTaxonomy('tag')] });
  }
  return out;
}

/** One event read on its own, with its password (a protected event is blanked in the archive). */
async function singleEvent(client: LegacyClient, id: number, password: string, zone: string): Promise<ImportedEvent> {
  const { body } = await client.get<Json>(`${NS}/events/${id}`, password ? { password } : {});
  return eventRow(body, zone, password);
}

/** The events the archive lists: every date, every status. */
function eventResource(client: LegacyClient): ImportResource<ImportedEvent> {
  return {
    name: 'calendar.events',
    family: 'calendar',
    async fetchPage(page): Promise<SourcePage<ImportedEvent>> {
      // Every date: the archive's default window would leave out past events.
      const a = await archive(client, 'events', 'events', page, { status: IMPORTED_STATUSES.join(','), start_date: '1900-01-01', end_date: '2999-12-31' });
      const z = await client.timezone();
      const records = await Promise.all(a.items.map(async (e) => {
        // The archive blanks a protected event's fields (show_map null among them).
        if (e.show_map !== null) return eventRow(e, z, '');
        const { body: post } = await client.get<{ password?: string }>(`wp/v2/tribe_events/${e.id}`, { context: 'edit', _fields: 'id,password' });
        return singleEvent(client, Number(e.id), str(post.password), z);
      }));
      return { page, records, total: a.total, totalPages: a.totalPages };
    },
    writeBatch: (store, rows) => store.calendar.importEvents(rows),
    sample: storedEvents,
    storedIds: (store) => store.calendar.importedIds('listed-event', IMPORTED_STATUSES),
    remove: (store, ids) => store.calendar.trashPosts('event', ids),
    confirmGone: (ids) => postsGone(client, 'tribe_events', ids),
  };
}

/**
 * The events the archive never lists (hidden from listings): the legacy `wp/v2` post list (edit
 * context) names every event with its password; those the store lacks after the archive, or holds
 * as hidden, are read one by one.
 */
function unlistedEventResource(client: LegacyClient): ImportResource<ImportedEvent> {
  return {
    name: 'calendar.unlisted-events',
    family: 'calendar',
    async fetchPage(page, target): Promise<SourcePage<ImportedEvent>> {
      const l = await client.list<{ id: number; password?: string }>('wp/v2/tribe_events', {
        context: 'edit', status: IMPORTED_STATUSES.join(','), orderby: 'id', order: 'asc', per_page: 100, page, _fields: 'id,password',
      });
      const wanted = new Set(await target.calendar.unlistedOrMissing(l.items.map((p) => p.id)));
      const z = await client.timezone();
      const unlisted = l.items.filter((p) => wanted.has(p.id));
      const records = await Promise.all(unlisted.map((p) => singleEvent(client, p.id, str(p.password), z)));
      // This resource's listing: the events the archive does not show.
      return { page, records, ids: unlisted.map((p) => p.id), total: l.total, totalPages: l.totalPages };
    },
    writeBatch: (store, rows) => store.calendar.importEvents(rows),
    sample: storedEvents,
    storedIds: (store) => store.calendar.importedIds('unlisted-event', IMPORTED_STATUSES),
    remove: (store, ids) => store.calendar.trashPosts('event', ids),
    // The post list hides past events: one missing from it may only have ended.
    confirmGone: (ids) => postsGone(client, 'tribe_events', ids),
  };
}

/** Of these posts, those the legacy site has deleted or trashed (asked one by one: deletions are few). */
async function postsGone(client: LegacyClient, type: string, ids: number[]): Promise<number[]> {
  const gone = await Promise.all(ids.map(async (id) => {
    const status = await client.status(`wp/v2/${type}/${id}`, { context: 'edit', _fields: 'id,status' });
    return status === 404 || status === 410 || status === 'trash';
  }));
  return ids.filter((_, i) => gone[i]);
}

/** The calendar resources in the order their references need: terms and linked records before events. */
export function calendarResources(client: LegacyClient): ImportResource[] {
  return [
    termResource(client, 'category'),
    termResource(client, 'tag'),
    linkedResource(client, 'venue'),
    linkedResource(client, 'organizer'),
    eventResource(client),
    unlistedEventResource(client),
  ] as ImportResource[];
}
