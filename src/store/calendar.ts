/**
 * The calendar repository: events, venues, organizers and their terms. Rows come back as the
 * stored values (local wall times as text); the namespace shapes them into legacy objects.
 * Slug lookups are cached per store (see `SlugCache`); a hit is only trusted once the record it
 * names still has that slug, so a rename or trash by another replica cannot serve the wrong record.
 */
import type { LRUCache } from 'lru-cache';
import { boundedLru } from '../lib/lru.ts';
import type { ChangeFeed } from './change-feed.ts';
import { isRecordId, nextId, reserveId } from './ids.ts';
import { UniqueViolation, type Sql } from './sql.ts';
import { TopicCache } from './topic-cache.ts';
import { like, likePrefix, Where } from './where.ts';

export type Taxonomy = 'category' | 'tag';

/** Every calendar record (they share the post ID space), with its kind. */
const RECORDS = `select id, 'event' as kind, slug, status from calendar_events union all select id, 'venue', slug, status from calendar_venues
  union all select id, 'organizer', slug, status from calendar_organizers`;
export type LinkedKind = 'venue' | 'organizer';

export interface EventRow {
  id: number; author: number; status: string; password: string; slug: string; title: string; description: string; excerpt: string;
  start_date: string; end_date: string; utc_start_date: string; utc_end_date: string; timezone: string; all_day: boolean;
  cost: string; currency_symbol: string; currency_code: string; currency_position: string; website: string | null; image: string;
  show_map: boolean; show_map_link: boolean; hide_from_listings: boolean; sticky: boolean; featured: boolean; post_parent: number;
  created: Date; modified: Date;
}
export interface VenueRow {
  id: number; author: number; status: string; slug: string; name: string; description: string; excerpt: string;
  address: string; city: string; country: string; province: string; state: string; zip: string; phone: string; website: string;
  stateprovince: string; image: string; show_map: boolean; show_map_link: boolean; latitude: number | null; longitude: number | null;
  created: Date; modified: Date;
}
export interface OrganizerRow {
  id: number; author: number; status: string; slug: string; name: string; description: string; excerpt: string;
  phone: string; website: string; email: string; image: string; created: Date; modified: Date;
}
export interface TermRow { id: number; taxonomy: Taxonomy; name: string; slug: string; description: string; parent: number; count: number }

/** An event as read: its row, and what it links, by ID: venues and organizers in link order, terms by name. */
export type StoredEvent = EventRow & { venue_ids: number[]; organizer_ids: number[]; term_ids: number[] };
/** The records an event links, in the order of its `StoredEvent` IDs. */
export interface EventLinks {
  venues: VenueRow[];
  organizers: OrganizerRow[];
  terms: TermRow[];
}

export type EventFields = Omit<EventRow, 'id' | 'created' | 'modified'>;
/** An event as imported: its row and the IDs of its venues, organizers and terms, in order. */
export type ImportedEvent = EventRow & { venues: number[]; organizers: number[]; terms: number[] };
export type VenueFields = Omit<VenueRow, 'id' | 'created' | 'modified'>;
export type OrganizerFields = Omit<OrganizerRow, 'id' | 'created' | 'modified'>;

/** What the event archive filters on; bounds are local wall times (`YYYY-MM-DD HH:MM:SS`). */
export interface EventQuery {
  startsOnOrAfter?: string; endsOnOrBefore?: string;
  startsBefore?: string; startsAfter?: string; endsBefore?: string; endsAfter?: string;
  search?: string;
  /** Whose password-protected events the search may match by description/excerpt: every author's, one author's, or none (title only). */
  searchProtectedOf?: 'all' | number;
  categories?: number[]; tags?: number[]; venues?: number[]; organizers?: number[];
  featured?: boolean; statuses: string[]; include?: number[]; postParent?: number;
  /** Venues within `radiusKm` of a point, or (point null) any venue with coordinates. */
  limit: number; offset: number;
}

export interface LinkedQuery {
  search?: string; event?: number; hasEvents?: boolean; onlyWithUpcoming?: string; statuses: string[]; limit: number; offset: number;
}

export interface TermQuery {
  taxonomy: Taxonomy; search?: string; include?: number[]; exclude?: number[]; parent?: number; post?: number; slug?: string;
  hideEmpty: boolean; orderby: 'name' | 'id' | 'slug' | 'count' | 'description' | 'term_group'; order: 'asc' | 'desc'; limit: number; offset: number;
}

const LINKED = { venue: 'calendar_venues', organizer: 'calendar_organizers' } as const;
const LINK = {
  venue: { table: 'calendar_event_venues', col: 'venue_id' },
  organizer: { table: 'calendar_event_organizers', col: 'organizer_id' },
} as const;

// Counts only published events, as WordPress term counts do.
// The count of published events is kept on the term by triggers (migration 011).
const TERM_SELECT = `select t.*, t.published_count as count from calendar_terms t`;

// An event with the IDs of what it links, in one statement: a page of events is one query, and the
// linked records come from the caches (`linksOf`).
const EVENT_SELECT = `select e.*, e.start_date::text as start_date, e.end_date::text as end_date,
  e.utc_start_date::text as utc_start_date, e.utc_end_date::text as utc_end_date,
  array_to_json(array(select l.venue_id from calendar_event_venues l where l.event_id = e.id order by l.position)) as venue_ids,
  array_to_json(array(select l.organizer_id from calendar_event_organizers l where l.event_id = e.id order by l.position)) as organizer_ids,
  array_to_json(array(select et.term_id from calendar_event_terms et join calendar_terms t on t.id = et.term_id
    where et.event_id = e.id order by t.name, t.id)) as term_ids
  from calendar_events e`;

/**
 * A store's calendar caches, shared by its transaction views, never across stores: `table:slug` →
 * record ID (checked on use), and, until a calendar write is announced, archive counts and the
 * records events link.
 */
export interface CalendarCaches {
  slugs: LRUCache<string, number>;
  totals: TopicCache<string, number>;
  /** Archive pages' event IDs, by the page's statement and parameters. */
  pages: TopicCache<string, number[]>;
  /** A category filter's terms with all their descendants, by the filter's sorted term IDs. */
  withChildren: TopicCache<string, number[]>;
  /** Events as archive pages list them; the same object while nothing changed, so what is shaped from it can be kept with it. */
  events: TopicCache<number, StoredEvent>;
  venues: TopicCache<number, VenueRow>;
  organizers: TopicCache<number, OrganizerRow>;
  terms: TopicCache<number, TermRow>;
}

/** With a feed that never goes live (a store without one), only the slug cache keeps anything. */
export function calendarCaches(feed: ChangeFeed): CalendarCaches {
  const topics = ['calendar'];
  return {
    slugs: boundedLru<string, number>({ max: 5000 }),
    totals: new TopicCache(feed, topics, 2000),
    pages: new TopicCache(feed, topics, 2000),
    withChildren: new TopicCache(feed, topics, 1000),
    events: new TopicCache(feed, topics, 2000),
    venues: new TopicCache(feed, topics, 5000),
    organizers: new TopicCache(feed, topics, 5000),
    terms: new TopicCache(feed, topics, 5000),
  };
}

export class CalendarRepo {
  private readonly sql: Sql;
  private readonly caches: CalendarCaches;
  constructor(sql: Sql, caches: CalendarCaches) {
    this.sql = sql;
    this.caches = caches;
  }

  // ---- events

  /**
   * From the events cache, as archive pages read them (outside a transaction; inside one, from the
   * store): like them, as fresh as the change feed's announcements.
   */
  async event(id: number): Promise<StoredEvent | null> {
    if (!isRecordId(id)) return null;
    return (await this.caches.events.many(this.sql, [id], (missing) => this.byIds<StoredEvent>(EVENT_SELECT, missing, 'e'))).get(id) ?? null;
  }

  /** Read from the store: a slug lookup checks the record it finds against the slug (another replica may have just renamed it). */
  private async storedEvent(id: number): Promise<StoredEvent | null> {
    return (await this.sql.query<StoredEvent>(`${EVENT_SELECT} where e.id = $1`, [id]))[0] ?? null;
  }

  /** These events, in one query (the importer compares a page at a time). */
  async events(ids: number[]): Promise<StoredEvent[]> {
    return [...(await this.byIds<StoredEvent>(EVENT_SELECT, ids, 'e')).values()];
  }

  /** Which kind of calendar record an ID names (the post ID space is shared). */
  async kindOf(id: number): Promise<'event' | LinkedKind | null> {
    if (!isRecordId(id)) return null;
    const [r] = await this.sql.query<{ kind: string }>(`select 'event' as kind from calendar_events where id = $1
      union all select 'venue' from calendar_venues where id = $1 union all select 'organizer' from calendar_organizers where id = $1`, [id]);
    return (r?.kind as 'event' | LinkedKind | undefined) ?? null;
  }

  /** Which of these IDs name a calendar record of any kind, in one query. */
  async existing(ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await this.sql.query<{ id: number }>(`select id from calendar_events where id = any($1::int8[])
      union all select id from calendar_venues where id = any($1::int8[]) union all select id from calendar_organizers where id = any($1::int8[])`, [ids]);
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** Which of these IDs name a category or tag, in one query. */
  async existingTerms(ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    return new Set((await this.sql.query<{ id: number }>('select id from calendar_terms where id = any($1::int8[])', [ids])).map((r) => Number(r.id)));
  }

  async eventBySlug(slug: string): Promise<StoredEvent | null> {
    return this.bySlug('calendar_events', slug, (id) => this.storedEvent(id));
  }

  /** The record with the slug; a cached ID counts only if its record still has the slug. */
  private async bySlug<R extends { slug: string }>(table: string, slug: string, load: (id: number) => Promise<R | null>): Promise<R | null> {
    const key = `${table}:${slug}`;
    const hit = this.caches.slugs.get(key);
    if (hit !== undefined) {
      const row = await load(hit);
      if (row?.slug === slug) return row;
      this.caches.slugs.delete(key);
    }
    const [r] = await this.sql.query<{ id: number }>(`select id from ${table} where slug = $1`, [slug]);
    if (!r) return null;
    this.caches.slugs.set(key, r.id);
    return load(r.id);
  }

  /** A page of the listed events the query matches, and how many match in all (the archive). */
  async eventArchive(q: EventQuery): Promise<{ rows: StoredEvent[]; total: number }> {
    const { cond, p } = await this.archiveWhere(q);
    const total = await this.caches.totals.get(this.sql, `events\0${cond}\0${JSON.stringify(p.params)}`, async () =>
      (await this.sql.query<{ n: number }>(`select count(*)::int8 as n from calendar_events e where ${cond}`, p.params))[0].n);
    return { rows: await this.archivePage(q, cond, p), total };
  }

  /** A page of the listed events the query matches, without counting them all (the iCal feed). */
  async eventPage(q: EventQuery): Promise<StoredEvent[]> {
    const { cond, p } = await this.archiveWhere(q);
    return this.archivePage(q, cond, p);
  }

  /**
   * The page's IDs (kept, as the count is, until a calendar write is announced: a page asked again
   * runs no statement), then the events from the cache (one query for those not kept). An event
   * gone in between is left out.
   */
  private async archivePage(q: EventQuery, cond: string, p: Where): Promise<StoredEvent[]> {
    const order = q.include ? 'e.created, e.id' : 'e.start_date, e.id';
    const text = `select e.id from calendar_events e where ${cond} order by ${order} limit ${p.next(q.limit)} offset ${p.next(q.offset)}`;
    const ids = await this.caches.pages.get(this.sql, `${text}\0${JSON.stringify(p.params)}`, async () =>
      (await this.sql.query<{ id: number }>(text, p.params)).map((r) => r.id));
    const found = await this.caches.events.many(this.sql, ids, (missing) => this.byIds<StoredEvent>(EVENT_SELECT, missing, 'e'));
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  private async archiveWhere(q: EventQuery): Promise<{ cond: string; p: Where }> {
    const p = new Where();
    const where: string[] = [`e.status = any(${p.next(q.statuses)}::text[])`, 'not e.hide_from_listings'];
    const cmp = (col: string, op: string, v: string | undefined) => v !== undefined && where.push(`e.${col} ${op} ${p.next(v)}::timestamp`);
    cmp('start_date', '>=', q.startsOnOrAfter);
    cmp('end_date', '<=', q.endsOnOrBefore);
    cmp('start_date', '<', q.startsBefore);
    cmp('start_date', '>', q.startsAfter);
    cmp('end_date', '<', q.endsBefore);
    cmp('end_date', '>', q.endsAfter);
    if (q.search !== undefined) {
      const pattern = p.next(like(q.search));
      // A password hides the description and excerpt: the search may not reveal them to whoever may not read them.
      const readable = q.searchProtectedOf === 'all' ? 'true'
        : q.searchProtectedOf !== undefined ? `(e.password = '' or e.author = ${p.next(q.searchProtectedOf)})` : `e.password = ''`;
      where.push(`(e.title ilike ${pattern} or (${readable} and (e.description ilike ${pattern} or e.excerpt ilike ${pattern})))`);
    }
    for (const ids of [q.categories, q.tags]) {
      // Child categories count as their parent's, as WordPress's tax_query includes children. The
      // terms are expanded first, so that each event is checked by one primary-key lookup while the
      // page is read in date order (the count is what reads every match, and it is kept).
      if (ids) where.push(`exists (select 1 from calendar_event_terms et where et.event_id = e.id and et.term_id = any(${p.next(await this.withChildTerms(ids))}::int8[]))`);
    }
    if (q.venues) where.push(`exists (select 1 from calendar_event_venues l where l.event_id = e.id and l.venue_id = any(${p.next(q.venues)}::int8[]))`);
    if (q.organizers) where.push(`exists (select 1 from calendar_event_organizers l where l.event_id = e.id and l.organizer_id = any(${p.next(q.organizers)}::int8[]))`);
    if (q.featured !== undefined) where.push(`e.featured = ${p.next(q.featured)}`);
    if (q.include) where.push(`e.id = any(${p.next(q.include)}::int8[])`);
    if (q.postParent !== undefined) where.push(`e.post_parent = ${p.next(q.postParent)}`);
    return { cond: where.join(' and '), p };
  }

  private withChildTerms(ids: number[]): Promise<number[]> {
    const key = [...ids].sort((a, b) => a - b).join(',');
    return this.caches.withChildren.get(this.sql, key, async () => {
      const rows = await this.sql.query<{ id: number }>(`with recursive sub(id) as (select unnest($1::int8[])
        union select t.id from calendar_terms t join sub on t.parent = sub.id) select id from sub`, [ids]);
      return rows.map((r) => r.id);
    });
  }

  async createEvent(f: EventFields, now: Date): Promise<number> {
    return this.sql.transaction(async (tx) => {
      const id = await nextId(tx, 'post_id_seq');
      await insertRow(tx, 'calendar_events', id, f, now);
      return id;
    });
  }

  async updateEvent(id: number, f: Partial<EventFields>, now: Date): Promise<void> {
    await this.sql.transaction((tx) => updateRow(tx, 'calendar_events', id, f, now));
  }

  /** Replaces an event's links of one kind, keeping the given order. */
  async setLinks(eventId: number, kind: LinkedKind, ids: number[]): Promise<void> {
    const { table, col } = LINK[kind];
    await this.sql.query(`delete from ${table} where event_id = $1`, [eventId]);
    for (const [i, id] of ids.entries()) {
      await this.sql.query(`insert into ${table} (event_id, ${col}, position) values ($1, $2, $3) on conflict do nothing`, [eventId, id, i]);
    }
  }

  async setTerms(eventId: number, taxonomy: Taxonomy, ids: number[]): Promise<void> {
    await this.sql.query(`delete from calendar_event_terms et using calendar_terms t where et.event_id = $1 and t.id = et.term_id and t.taxonomy = $2`, [eventId, taxonomy]);
    for (const id of ids) await this.sql.query('insert into calendar_event_terms (event_id, term_id) values ($1, $2) on conflict do nothing', [eventId, id]);
  }

  /** The records these events link, by event ID: one query per kind of record not cached yet, none once they are. */
  async linksOf(events: readonly StoredEvent[]): Promise<Map<number, EventLinks>> {
    const [venues, organizers, terms] = await Promise.all([
      this.caches.venues.many(this.sql, events.flatMap((e) => e.venue_ids), (ids) => this.byIds<VenueRow>('select * from calendar_venues t', ids)),
      this.caches.organizers.many(this.sql, events.flatMap((e) => e.organizer_ids), (ids) => this.byIds<OrganizerRow>('select * from calendar_organizers t', ids)),
      this.caches.terms.many(this.sql, events.flatMap((e) => e.term_ids), (ids) => this.byIds<TermRow>(TERM_SELECT, ids)),
    ]);
    // A record removed since the event was read is left out.
    const pick = <R>(ids: number[], found: Map<number, R>) => ids.flatMap((id) => found.get(id) ?? []);
    return new Map(events.map((e) => [e.id, { venues: pick(e.venue_ids, venues), organizers: pick(e.organizer_ids, organizers), terms: pick(e.term_ids, terms) }]));
  }

  /** `select` names its table `alias`. */
  private async byIds<R extends { id: number }>(select: string, ids: number[], alias = 't'): Promise<Map<number, R>> {
    const rows = await this.sql.query<R>(`${select} where ${alias}.id = any($1::int8[])`, [ids]);
    return new Map(rows.map((r) => [r.id, r]));
  }

  // ---- venues and organizers

  async venue(id: number): Promise<VenueRow | null> {
    if (!isRecordId(id)) return null;
    return (await this.sql.query<VenueRow>('select * from calendar_venues where id = $1', [id]))[0] ?? null;
  }

  async organizer(id: number): Promise<OrganizerRow | null> {
    if (!isRecordId(id)) return null;
    return (await this.sql.query<OrganizerRow>('select * from calendar_organizers where id = $1', [id]))[0] ?? null;
  }

  /** Serializes the writes that change a taxonomy's hierarchy, until the transaction ends. */
  async lockTermHierarchy(taxonomy: string): Promise<void> {
    await this.lockUntilCommit(`calendar_term_hierarchy:${taxonomy}`);
  }

  /**
   * Serializes the creates of venues and organizers (each one's duplicate check, then the insert) until the
   * transaction ends. One lock for both kinds: a batch run as one transaction may create an organizer then a
   * venue while another creates a venue then an organizer, and a lock per kind could deadlock them.
   */
  async lockLinkedCreates(): Promise<void> {
    await this.lockUntilCommit('calendar_linked_create');
  }

  /** A transaction-scoped advisory lock on `key`: the transactions that take it run one at a time. */
  private async lockUntilCommit(key: string): Promise<void> {
    await this.sql.query('select pg_advisory_xact_lock(hashtext($1))', [key]);
  }

  /**
   * The first published calendar record of these kinds whose slug starts with `prefix`
   * (redirect_guess_404_permalink's `post_name LIKE 'prefix%'` over the public post types, or the one a
   * `tribe_events` query var asks for): where WordPress redirects a front-page request for a post slug
   * it does not find.
   */
  async publishedBySlugPrefix(prefix: string, kinds: readonly ('event' | LinkedKind)[] = ['event', 'venue', 'organizer']): Promise<{ kind: 'event' | LinkedKind; slug: string } | null> {
    const [r] = await this.sql.query<{ kind: 'event' | LinkedKind; slug: string }>(
      `select kind, slug from (${RECORDS}) found where status = 'publish' and slug like $1 and kind = any($2::text[]) order by id limit 1`,
      [likePrefix(prefix), kinds],
    );
    return r ?? null;
  }

  /** The calendar record of any kind with this ID: its kind, slug and status. */
  async record(id: number): Promise<{ kind: 'event' | LinkedKind; slug: string; status: string } | null> {
    if (!isRecordId(id)) return null;
    return (await this.sql.query<{ kind: 'event' | LinkedKind; slug: string; status: string }>(`select kind, slug, status from (${RECORDS}) found where id = $1`, [id]))[0] ?? null;
  }

  /** Whether `author` has a published calendar record (redirect_canonical sends `?author=` on to the author page of one with any published post). */
  async hasPublishedBy(author: number): Promise<boolean> {
    if (!isRecordId(author)) return false;
    const found = await this.sql.query(
      `select 1 from calendar_events where status = 'publish' and author = $1 union all select 1 from calendar_venues where status = 'publish' and author = $1
        union all select 1 from calendar_organizers where status = 'publish' and author = $1 limit 1`,
      [author],
    );
    return found.length > 0;
  }

  async linkedBySlug(kind: LinkedKind, slug: string): Promise<VenueRow | OrganizerRow | null> {
    return this.bySlug<VenueRow | OrganizerRow>(LINKED[kind], slug, (id) => (kind === 'venue' ? this.venue(id) : this.organizer(id)));
  }

  async linkedArchive<K extends LinkedKind>(kind: K, q: LinkedQuery): Promise<{ rows: (K extends 'venue' ? VenueRow : OrganizerRow)[]; total: number }> {
    const p = new Where();
    const { table, col } = LINK[kind];
    const where = [`r.status = any(${p.next(q.statuses)}::text[])`];
    if (q.event !== undefined) where.push(`exists (select 1 from ${table} l where l.${col} = r.id and l.event_id = ${p.next(q.event)})`);
    const linked = `exists (select 1 from ${table} l join calendar_events e on e.id = l.event_id where l.${col} = r.id and e.status not in ('draft', 'pending', 'trash')`;
    if (q.hasEvents !== undefined) where.push(`${q.hasEvents ? '' : 'not '}${linked})`);
    if (q.onlyWithUpcoming !== undefined) where.push(`${linked} and e.end_date >= ${p.next(q.onlyWithUpcoming)}::timestamp)`);
    // The legacy site counts before applying the search (see DEVIATIONS.md); Lintel counts what it lists.
    if (q.search !== undefined) {
      // find_like: the search cut at every character but letters, digits and hyphens (empty and '0' pieces
      // dropped, array_filter), each piece found in the same field; no piece finds nothing.
      const pieces = q.search.split(/[^a-z\d-]+/i).filter((x) => x !== '' && x !== '0').map((x) => p.next(`%${x.toLowerCase()}%`));
      const fields = ['name', 'description', 'excerpt', ...(kind === 'venue' ? ['address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'] : ['phone', 'email', 'website'])];
      where.push(pieces.length ? `(${fields.map((c) => `(${pieces.map((x) => `r.${c} ilike ${x}`).join(' and ')})`).join(' or ')})` : 'false');
    }
    const cond = where.join(' and ');
    const [{ n }] = await this.sql.query<{ n: number }>(`select count(*)::int8 as n from ${LINKED[kind]} r where ${cond}`, p.params);
    // As MySQL orders the legacy query's ties (post_date keeps whole seconds): one status reads the (type, status, date,
    // ID) index backwards; several are read forwards (by status, then ID) and sorted by date alone, keeping that order.
    const ties = new Set(q.statuses).size === 1 ? 'r.id desc' : 'r.status collate "C", r.id';
    const rows = await this.sql.query<never>(`select r.* from ${LINKED[kind]} r where ${cond} order by date_trunc('second', r.created) desc, ${ties}
      limit ${p.next(q.limit)} offset ${p.next(q.offset)}`, p.params);
    return { rows, total: n };
  }

  /**
   * The records a create may reuse (Tribe__Duplicate__Post, on every venue and organizer create), by
   * ID: those not trashed with the same name and, when one is sent, the same description, compared as
   * the legacy table's collation compares them (case, accents and trailing spaces aside).
   */
  async findDuplicates(kind: LinkedKind, name: string, description: string): Promise<Pick<VenueRow, 'id' | 'author' | 'status'>[]> {
    return this.sql.query<Pick<VenueRow, 'id' | 'author' | 'status'>>(`select id, author, status from ${LINKED[kind]} where status <> 'trash'
      and mysql_ci_key(name) = mysql_ci_key($1) and ($2 = '' or mysql_ci_key(description) = mysql_ci_key($2)) order by id`, [name, description]);
  }

  async createLinked(kind: LinkedKind, f: VenueFields | OrganizerFields, now: Date): Promise<number> {
    return this.sql.transaction(async (tx) => {
      const id = await nextId(tx, 'post_id_seq');
      await insertRow(tx, LINKED[kind], id, f, now);
      return id;
    });
  }

  /** Updates the record's fields; `now` is its modified date, none (post meta alone written, as WordPress does) keeps the one it has. */
  async updateLinked(kind: LinkedKind, id: number, f: Partial<VenueFields> | Partial<OrganizerFields>, now: Date | null): Promise<void> {
    await this.sql.transaction((tx) => updateRow(tx, LINKED[kind], id, f, now));
  }

  // ---- terms

  async term(taxonomy: Taxonomy, id: number): Promise<TermRow | null> {
    // An ID no term can have (`categories=99999999999999999999` in an event write) names none; int8 would refuse it.
    if (!isRecordId(id)) return null;
    return (await this.sql.query<TermRow>(`${TERM_SELECT} where t.taxonomy = $1 and t.id = $2`, [taxonomy, id]))[0] ?? null;
  }

  async termBySlug(taxonomy: Taxonomy, slug: string): Promise<TermRow | null> {
    return (await this.sql.query<TermRow>(`${TERM_SELECT} where t.taxonomy = $1 and t.slug = $2`, [taxonomy, slug]))[0] ?? null;
  }

  /** The taxonomy's term of the lowest ID (term_exists' get_terms when it has no slug to filter by). */
  async firstTerm(taxonomy: Taxonomy): Promise<TermRow | null> {
    return (await this.sql.query<TermRow>(`${TERM_SELECT} where t.taxonomy = $1 order by t.id limit 1`, [taxonomy]))[0] ?? null;
  }

  async termBySlugOrName(taxonomy: Taxonomy, value: string): Promise<TermRow | null> {
    return (await this.sql.query<TermRow>(`${TERM_SELECT} where t.taxonomy = $1 and (t.slug = $2 or lower(t.name) = lower($2)) order by (t.slug = $2) desc limit 1`, [taxonomy, value]))[0] ?? null;
  }

  async termArchive(q: TermQuery): Promise<{ rows: TermRow[]; total: number }> {
    const p = new Where();
    const where = [`t.taxonomy = ${p.next(q.taxonomy)}`];
    if (q.search !== undefined) where.push(`(t.name ilike ${p.next(`%${q.search}%`)} or t.slug ilike ${p.next(`%${q.search}%`)})`);
    if (q.include) where.push(`t.id = any(${p.next(q.include)}::int8[])`);
    if (q.exclude) where.push(`not t.id = any(${p.next(q.exclude)}::int8[])`);
    if (q.parent !== undefined) where.push(`t.parent = ${p.next(q.parent)}`);
    if (q.post !== undefined) where.push(`exists (select 1 from calendar_event_terms et where et.term_id = t.id and et.event_id = ${p.next(q.post)})`);
    if (q.slug !== undefined) where.push(`t.slug = ${p.next(q.slug)}`);
    if (q.hideEmpty) where.push('t.count > 0');
    const from = `(${TERM_SELECT}) t where ${where.join(' and ')}`;
    const [{ n }] = await this.sql.query<{ n: number }>(`select count(*)::int8 as n from ${from}`, p.params);
    const col = q.orderby === 'term_group' ? 't.id' : `t.${q.orderby}`;
    const rows = await this.sql.query<TermRow>(`select t.* from ${from} order by ${col} ${q.order}, t.id ${q.order}
      limit ${p.next(q.limit)} offset ${p.next(q.offset)}`, p.params);
    return { rows, total: n };
  }

  /** Creates the term, unless its taxonomy has one with the slug already, even one created concurrently: then that one's ID. */
  /** An empty slug is the new term's ID, as WordPress names a term whose name makes no slug. */
  async createTerm(t: Omit<TermRow, 'id' | 'count'>): Promise<{ id: number; created: boolean }> {
    for (;;) {
      const [r] = await this.sql.query<{ id: number }>(`with n as (select nextval('term_id_seq') as id)
        insert into calendar_terms (id, taxonomy, name, slug, description, parent)
        select n.id, $1, $2, case when $3 = '' then n.id::text else $3 end, $4, $5 from n on conflict (taxonomy, slug) do nothing returning id`, [t.taxonomy, t.name, t.slug, t.description, t.parent]);
      if (r) return { id: r.id, created: true };
      // The conflicting term is committed by now (the insert waited for it), unless it was deleted since: then insert again.
      const [existing] = await this.sql.query<{ id: number }>('select id from calendar_terms where taxonomy = $1 and slug = $2', [t.taxonomy, t.slug]);
      if (existing) return { id: existing.id, created: false };
    }
  }

  /** Throws `UniqueViolation` when another term of the taxonomy has the new slug. */
  async updateTerm(id: number, t: Partial<Omit<TermRow, 'id' | 'count' | 'taxonomy'>>): Promise<void> {
    const cols = Object.keys(t) as (keyof typeof t)[];
    if (cols.length) await this.sql.query(`update calendar_terms set ${cols.map((c, i) => `${c} = $${i + 2}`).join(', ')} where id = $1`, [id, ...cols.map((c) => t[c])]);
  }

  async deleteTerm(id: number): Promise<void> {
    await this.sql.query('update calendar_terms set parent = (select parent from calendar_terms where id = $1) where parent = $1', [id]);
    await this.sql.query('delete from calendar_terms where id = $1', [id]);
  }

  /** A public record by the slug of its page (`/event/{slug}/`, ...), for the oEmbed and page modules. */
  async publicBySlug(kind: 'event' | LinkedKind, slug: string): Promise<StoredEvent | VenueRow | OrganizerRow | null> {
    const row = kind === 'event' ? await this.eventBySlug(slug) : await this.linkedBySlug(kind, slug);
    return row && row.status === 'publish' && !('password' in row && row.password) ? row : null;
  }

  /** Consumes one post ID without a record, as the legacy site's revisions did. */
  async skipPostId(): Promise<void> {
    await nextId(this.sql, 'post_id_seq');
  }

  // ---- import: records keep their legacy IDs; importing one again updates it in place

  async importLinked(kind: LinkedKind, rows: (VenueRow | OrganizerRow)[]): Promise<void> {
    await upsertById(this.sql, LINKED[kind], rows);
    if (rows.length) await reserveId(this.sql, 'post_id_seq', Math.max(...rows.map((r) => r.id)));
  }

  async importTerms(rows: Omit<TermRow, 'count'>[]): Promise<void> {
    await upsertById(this.sql, 'calendar_terms', rows);
    if (rows.length) await reserveId(this.sql, 'term_id_seq', Math.max(...rows.map((r) => r.id)));
  }

  /** Events with their links; a link to a record that is not in the store (a trashed venue) is left out. */
  async importEvents(rows: ImportedEvent[]): Promise<void> {
    if (!rows.length) return;
    await upsertById(this.sql, 'calendar_events', rows.map(({ venues: _v, organizers: _o, terms: _t, ...e }) => e));
    await reserveId(this.sql, 'post_id_seq', Math.max(...rows.map((r) => r.id)));
    const ids = rows.map((r) => r.id);
    for (const kind of ['venue', 'organizer'] as const) {
      const { table, col } = LINK[kind];
      const pairs = rows.flatMap((r) => (kind === 'venue' ? r.venues : r.organizers).map((id, i) => [r.id, id, i]));
      await this.sql.query(`delete from ${table} where event_id = any($1::int8[])`, [ids]);
      await this.sql.query(`insert into ${table} (event_id, ${col}, position) select u.e, u.l, u.p from unnest($1::int8[], $2::int8[], $3::int[]) as u(e, l, p)
        where exists (select 1 from ${LINKED[kind]} r where r.id = u.l) on conflict do nothing`, [pairs.map((p) => p[0]), pairs.map((p) => p[1]), pairs.map((p) => p[2])]);
    }
    const terms = rows.flatMap((r) => r.terms.map((t) => [r.id, t]));
    await this.sql.query('delete from calendar_event_terms where event_id = any($1::int8[])', [ids]);
    await this.sql.query(`insert into calendar_event_terms (event_id, term_id) select u.e, u.t from unnest($1::int8[], $2::int8[]) as u(e, t)
      where exists (select 1 from calendar_terms t where t.id = u.t) on conflict do nothing`, [terms.map((p) => p[0]), terms.map((p) => p[1])]);
  }

  /**
   * IDs of the records of a kind the store holds (posts in the given statuses), as the legacy
   * listings show them: `listed-event` the archive's, `unlisted-event` those hidden from it.
   */
  async importedIds(kind: 'listed-event' | 'unlisted-event' | LinkedKind | Taxonomy, statuses: string[]): Promise<number[]> {
    const rows = kind === 'category' || kind === 'tag'
      ? await this.sql.query<{ id: number }>('select id from calendar_terms where taxonomy = $1 order by id', [kind])
      : kind === 'listed-event' || kind === 'unlisted-event'
        ? await this.sql.query<{ id: number }>(`select id from calendar_events where status = any($1::text[]) and ${kind === 'unlisted-event' ? '' : 'not '}hide_from_listings order by id`, [statuses])
        : await this.sql.query<{ id: number }>(`select id from ${LINKED[kind]} where status = any($1::text[]) order by id`, [statuses]);
    return rows.map((r) => r.id);
  }

  /** Moves these posts to the trash, as the legacy site does (their slugs marked `__trashed`). */
  async trashPosts(kind: 'event' | LinkedKind, ids: readonly number[]): Promise<void> {
    const table = kind === 'event' ? 'calendar_events' : LINKED[kind];
    await this.sql.query(`update ${table} set status = 'trash', slug = slug || '__trashed' where id = any($1::int8[]) and status <> 'trash'`, [ids]);
  }

  /** Of these event IDs, those the store lacks or holds hidden from listings (the archive never shows them). */
  async unlistedOrMissing(ids: number[]): Promise<number[]> {
    const listed = new Set((await this.sql.query<{ id: number }>('select id from calendar_events where id = any($1::int8[]) and not hide_from_listings', [ids])).map((r) => r.id));
    return ids.filter((id) => !listed.has(id));
  }
}

/** `wanted`, or the first of `wanted-2`, `wanted-3`, ... that no other record has and was not `tried`. */
async function uniqueSlug(sql: Sql, table: string, wanted: string, id: number, tried: ReadonlySet<string>): Promise<string> {
  const taken = new Set((await sql.query<{ slug: string }>(`select slug from ${table} where id <> $1 and (slug = $2 or slug like $3)`, [id, wanted, `${wanted}-%`])).map((r) => r.slug));
  const free = (slug: string) => !taken.has(slug) && !tried.has(slug);
  if (free(wanted)) return wanted;
  for (let n = 2; ; n++) if (free(`${wanted}-${n}`)) return `${wanted}-${n}`;
}

/**
 * Writes a record (`write`, in the transaction `tx`) under the first free slug. Another transaction
 * can take the same candidate meanwhile (parallel creates with one title): the unique index refuses
 * the second write, which a savepoint undoes, and the next candidate is tried. An empty slug (a
 * title of symbols only) is the record's ID, as wp_insert_post names such a post (sanitize_title's
 * fallback).
 */
async function withFreeSlug(tx: Sql, table: string, wanted: string, id: number, write: (slug: string) => Promise<unknown>): Promise<void> {
  const tried = new Set<string>();
  for (;;) {
    const slug = await uniqueSlug(tx, table, wanted || String(id), id, tried);
    await tx.query('savepoint free_slug');
    try {
      await write(slug);
      await tx.query('release savepoint free_slug');
      return;
    } catch (e) {
      if (!(e instanceof UniqueViolation && e.constraint === `${table}_slug`)) throw e;
      await tx.query('rollback to savepoint free_slug');
      tried.add(slug);
    }
  }
}

/** Post dates have whole seconds, as on the legacy site: records created in one second sort by ID. */
function toSecond(d: Date): Date {
  return new Date(Math.floor(d.getTime() / 1000) * 1000);
}

/** Inserts the record in the transaction `tx`, under the first free slug. */
async function insertRow(tx: Sql, table: string, id: number, f: { slug: string } & Record<string, unknown>, now: Date): Promise<void> {
  const cols = Object.keys(f);
  await withFreeSlug(tx, table, f.slug, id, (slug) => tx.query(`insert into ${table} (id, created, modified, ${cols.join(', ')})
    values ($1, $2, $2, ${cols.map((_, i) => `$${i + 3}`).join(', ')})`, [id, toSecond(now), ...cols.map((c) => (c === 'slug' ? slug : f[c]))]));
}

/** Updates the record's fields in the transaction `tx` (and its modified date, unless `now` is null); a new slug becomes the first free one. */
async function updateRow(tx: Sql, table: string, id: number, f: Record<string, unknown>, now: Date | null): Promise<void> {
  const cols = Object.keys(f).filter((c) => f[c] !== undefined);
  const update = (slug?: string) => tx.query(`update ${table} set modified = coalesce($2, modified)${cols.map((c, i) => `, ${c} = $${i + 3}`).join('')} where id = $1`,
    [id, now && toSecond(now), ...cols.map((c) => (c === 'slug' ? slug : f[c]))]);
  await (typeof f.slug === 'string' ? withFreeSlug(tx, table, f.slug, id, update) : update());
}

/** Inserts rows with their IDs, or updates the rows that already have them (one statement per chunk). */
export async function upsertById(sql: Sql, table: string, rows: object[]): Promise<void> {
  if (!rows.length) return;
  const cols = Object.keys(rows[0]);
  // Parameters per statement stay under the protocol's 65535.
  const chunk = Math.floor(60000 / cols.length);
  for (let start = 0; start < rows.length; start += chunk) {
    const part = rows.slice(start, start + chunk) as Record<string, unknown>[];
    const tuples = part.map((_, i) => `(${cols.map((_, j) => `$${i * cols.length + j + 1}`).join(', ')})`);
    await sql.query(`insert into ${table} (${cols.join(', ')}) values ${tuples.join(', ')}
      on conflict (id) do update set ${cols.filter((c) => c !== 'id').map((c) => `${c} = excluded.${c}`).join(', ')}`, part.flatMap((r) => cols.map((c) => r[c])));
  }
}
