/**
 * The legacy objects: event, venue, organizer and the three term shapes, built from store rows.
 */
import type { RestContext } from '../../contract/context.ts';
import type { EventLinks, EventRow, OrganizerRow, TermRow, VenueRow } from '../../store/calendar.ts';
import { fmt, instantToWall, isoWithOffset, zoneAbbr } from '../../lib/time.ts';
import { autop, texturize } from '../../lib/wordpress-text.ts';
import { details } from '../../lib/dates.ts';
import { fieldIncluded } from '../../http/shape.ts';

export interface Site {
  ctx: RestContext;
  zone: string;
  /** `calendar/events/v1` or the alias the request came in under. */
  ns: string;
}

export const restUrl = (s: Site, path: string) => s.ctx.urls.rest(`/${s.ns}/${path}`);
const host = (s: Site) => new URL(s.ctx.urls.home).host.replace(/:\d+$/, '') + new URL(s.ctx.urls.home).pathname.replace(/\/$/, '');
const globalIds = (s: Site, id: number) => ({ global_id: `${host(s)}?id=${id}`, global_id_lineage: [`${host(s)}?id=${id}`] });

/** WordPress keeps no GMT dates for unpublished drafts and pending posts: they read as zero dates. */
const ZERO_DATE = '0000-00-00 00:00:00';

function postDates(s: Site, r: { created: Date; modified: Date; status: string }) {
  const unpublished = r.status === 'draft' || r.status === 'pending';
  return {
    date: fmt(instantToWall(r.created, s.zone)),
    date_utc: unpublished ? ZERO_DATE : fmt(r.created),
    modified: fmt(instantToWall(r.modified, s.zone)),
    modified_utc: unpublished ? ZERO_DATE : fmt(r.modified),
  };
}

export function permalink(s: Site, base: 'event' | 'venue' | 'organizer', r: { id: number; slug: string; status: string }): string {
  const type = { event: 'tribe_events', venue: 'tribe_venue', organizer: 'tribe_organizer' }[base];
  return r.status === 'publish' || r.status === 'private' ? `${s.ctx.urls.home}/${base}/${r.slug}/` : `${s.ctx.urls.home}/?post_type=${type}&p=${r.id}`;
}

const compact = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== '' && v !== false && v !== null && v !== undefined && v !== '0'));

export function venueObject(s: Site, v: VenueRow, single = false, blank = false): Record<string, unknown> {
  const contact = (x: string) => (blank ? '' : x);
  const base: Record<string, unknown> = {
    id: v.id, author: String(v.author), status: v.status, ...postDates(s, v), url: permalink(s, 'venue', v),
    venue: blank ? [] : texturize(v.name), description: blank ? '' : autop(v.description), excerpt: blank ? '' : autop(v.excerpt), slug: v.slug,
    image: false, address: contact(v.address), city: contact(v.city), country: contact(v.country), province: contact(v.province),
    state: contact(v.state), zip: contact(v.zip), phone: contact(v.phone), website: contact(v.website), stateprovince: contact(v.stateprovince),
  };
  if (v.latitude !== null && v.longitude !== null) Object.assign(base, { geo_lat: v.latitude, geo_lng: v.longitude });
  if (single) base.json_ld = placeLd(v);
  return { ...compact(base), show_map: v.show_map, show_map_link: v.show_map_link, ...globalIds(s, v.id) };
}

export function organizerObject(s: Site, o: OrganizerRow, single = false, blank = false): Record<string, unknown> {
  const base: Record<string, unknown> = {
    id: o.id, author: String(o.author), status: o.status, ...postDates(s, o), url: permalink(s, 'organizer', o),
    organizer: blank ? [] : texturize(o.name), description: blank ? '' : autop(o.description), excerpt: blank ? '' : autop(o.excerpt), slug: o.slug,
    image: false, phone: blank ? '' : o.phone, website: blank ? '' : o.website, email: blank ? '' : o.email,
  };
  if (single) base.json_ld = personLd(o);
  return compact({ ...base, ...globalIds(s, o.id) });
}

const ldText = (html: string) => (html ? `${html}\n`.replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '\\n') : '');

function placeLd(v: VenueRow) {
  const address = compact({ '@type': 'PostalAddress', streetAddress: v.address, addressLocality: v.city,
    addressRegion: v.stateprovince || v.state || v.province, postalCode: v.zip, addressCountry: v.country });
  return {
    '@type': 'Place', name: v.name, description: ldText(autop(v.description)), url: '', address,
    ...(v.latitude !== null && v.longitude !== null ? { geo: { '@type': 'GeoCoordinates', latitude: v.latitude, longitude: v.longitude } } : {}),
    telephone: v.phone, sameAs: v.website,
  };
}

function personLd(o: OrganizerRow) {
  return { '@type': 'Person', name: o.name, description: ldText(autop(o.description)), url: o.website, telephone: o.phone, email: o.email, sameAs: o.website };
}

const TAXONOMY = { category: 'tribe_events_cat', tag: 'post_tag' } as const;
const COLLECTION = { category: 'categories', tag: 'tags' } as const;

function termUrls(s: Site, t: TermRow) {
  const c = COLLECTION[t.taxonomy];
  return { self: restUrl(s, `${c}/${t.id}`), collection: restUrl(s, c), ...(t.parent ? { up: restUrl(s, `${c}/${t.parent}`) } : {}) };
}

/** A term as embedded in an event (the raw WP_Term). */
export function embeddedTerm(s: Site, t: TermRow) {
  return { name: t.name, slug: t.slug, term_group: 0, term_taxonomy_id: t.id, taxonomy: TAXONOMY[t.taxonomy], description: t.description,
    parent: t.parent, count: t.count, filter: 'raw', id: t.id, urls: termUrls(s, t) };
}

/**
 * A term of the archives and single-term routes; `path` is the slug path of its archive page.
 * Single terms carry `_links`, with the methods the caller may use on the term as target hints.
 * WordPress's terms controller prepares only the fields `_fields` asks for (`id` always), then
 * Tribe's prepare_term_data renames its `link` to `url` and adds `urls`: a term listed with
 * `_fields=tags` is its `id` and `urls`, and one asked for `url` without `link` has no `url`.
 */
export function termObject(s: Site, t: TermRow, path: string, links?: { allow: readonly string[] }) {
  const asked = (field: string) => field === 'id' || fieldIncluded(s.ctx.params._fields, field);
  const prepared: Record<string, unknown> = { id: t.id, count: t.count, description: t.description, name: t.name, slug: t.slug, taxonomy: TAXONOMY[t.taxonomy] };
  if (t.taxonomy === 'category') prepared.parent = t.parent;
  prepared.meta = [];
  const obj = Object.fromEntries(Object.entries(prepared).filter(([k]) => asked(k)));
  if (asked('link')) obj.url = `${s.ctx.urls.home}/${t.taxonomy === 'category' ? 'events/category' : 'tag'}/${path}/`;
  obj.urls = termUrls(s, t);
  if (links) {
    const wp = (p: string) => s.ctx.urls.rest(`/wp/v2/${p}`);
    const tax = TAXONOMY[t.taxonomy];
    const coll = t.taxonomy === 'category' ? tax : 'tags';
    obj._links = {
      self: [{ href: wp(`${coll}/${t.id}`), targetHints: { allow: links.allow } }],
      collection: [{ href: wp(coll) }],
      about: [{ href: wp(`taxonomies/${tax}`) }],
      ...(t.parent ? { up: [{ embeddable: true, href: wp(`${coll}/${t.parent}`) }] } : {}),
      'wp:post_type': [...(tax === 'post_tag' ? [{ href: `${wp('posts')}?tags=${t.id}` }] : []), { href: `${wp('tribe_events')}?${tax === 'post_tag' ? 'tags' : tax}=${t.id}` }, { href: `${wp('tec_calendar_embed')}?${tax === 'post_tag' ? 'tags' : tax}=${t.id}` }],
      curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
    };
  }
  return obj;
}

/** The formatted cost: "Free" for 0, the site currency ($, prefix) unless the cost names its own, ranges with an en dash. */
export function costOf(e: EventRow): { cost: string; values: string[] } {
  const raw = e.cost.trim();
  if (raw === '') return { cost: '', values: [] };
  const nums = raw.match(/\d+(?:\.\d+)?/g) ?? [];
  if (nums.length === 0) return { cost: raw, values: [raw.toLowerCase()] };
  const sorted = [...new Set(nums)].sort((a, b) => Number(a) - Number(b));
  const symbol = e.currency_symbol || '$';
  const money = (n: string) => (Number(n) === 0 ? 'Free' : e.currency_position === 'postfix' ? `${n}${symbol}` : `${symbol}${n}`);
  const cost = sorted.length === 1 ? money(sorted[0]) : `${money(sorted[0])} – ${money(sorted[sorted.length - 1])}`;
  return { cost, values: sorted };
}

/** The full event object; `protectedView` blanks what a password hides (archives). */
export function eventObject(s: Site, e: EventRow, l: EventLinks, opts: { single?: boolean; protectedView?: boolean; withLd?: boolean } = {}): Record<string, unknown> {
  const hidden = opts.protectedView === true;
  const url = permalink(s, 'event', e);
  const { cost, values } = costOf(e);
  const when = (prefix: string, wall: string) => ({ [prefix]: wall, [`${prefix}_details`]: details(wall) });
  const venues = l.venues.map((v) => venueObject(s, v, opts.single));
  const body: Record<string, unknown> = {
    id: e.id, ...globalIds(s, e.id), author: String(e.author), status: e.status, ...postDates(s, e), url,
    rest_url: restUrl(s, `events/${e.id}`), title: texturize(e.title), description: hidden ? '' : autop(e.description),
    excerpt: hidden ? '' : autop(e.excerpt), slug: e.slug, image: false, all_day: hidden ? null : e.all_day,
    ...when('start_date', e.start_date), ...when('end_date', e.end_date), ...when('utc_start_date', e.utc_start_date), ...when('utc_end_date', e.utc_end_date),
    timezone: e.timezone, timezone_abbr: zoneAbbr(e.timezone, new Date(`${e.utc_start_date.replace(' ', 'T')}Z`)),
    cost: hidden ? '' : cost,
    cost_details: hidden
      ? { currency_symbol: '', currency_position: '', currency_code: '', values: [] }
      : { currency_symbol: e.currency_symbol, currency_code: e.currency_code, currency_position: e.currency_position, values },
    website: hidden ? '' : (e.website ?? url),
    show_map: hidden ? null : e.show_map, show_map_link: hidden ? null : e.show_map_link, hide_from_listings: hidden ? null : e.hide_from_listings,
    sticky: hidden ? null : e.sticky, featured: hidden ? null : e.featured,
    categories: hidden ? [] : l.terms.filter((t) => t.taxonomy === 'category').map((t) => embeddedTerm(s, t)),
    tags: hidden ? [] : l.terms.filter((t) => t.taxonomy === 'tag').map((t) => embeddedTerm(s, t)),
    venue: hidden || venues.length === 0 ? [] : venues.length === 1 ? venues[0] : venues,
    organizer: hidden ? [] : l.organizers.map((o) => organizerObject(s, o, opts.single)),
    custom_fields: [],
  };
  if (opts.single && opts.withLd !== false) body.json_ld = eventLd(e, l, url, cost, values);
  return body;
}

function eventLd(e: EventRow, l: EventLinks, url: string, cost: string, values: string[]) {
  const ld: Record<string, unknown> = {
    '@context': 'http://schema.org', '@type': 'Event', name: texturize(e.title), description: ldText(autop(e.excerpt || e.description)), url,
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode', eventStatus: 'https://schema.org/EventScheduled',
    startDate: isoWithOffset(e.start_date, e.timezone), endDate: isoWithOffset(e.end_date, e.timezone),
  };
  if (l.venues[0]) ld.location = placeLd(l.venues[0]);
  if (l.organizers[0]) ld.organizer = personLd(l.organizers[0]);
  if (cost) {
    ld.offers = { '@type': 'Offer', price: values.length > 1 ? `${values[0]} – ${values[values.length - 1]}` : values[0] === 'free' ? '0' : values[0], priceCurrency: e.currency_code || 'USD', url, category: 'primary',
      availability: 'inStock', validFrom: `${fmt(e.created).slice(0, 10)}T00:00:00+00:00` };
  }
  ld.performer = 'Organization';
  return ld;
}
