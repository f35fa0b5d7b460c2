/**
 * The calendar's iCal feeds as the legacy site (The Events Calendar 6.17) serves them:
 * `/events/?ical=1` (the upcoming events of the list view, at most 30) and `/event/{slug}/?ical=1`
 * (one published event), also under a locale segment (`/fr/events/?ical=1`).
 *
 * The body is written here rather than with ical-generator: subscribers have the legacy feed's
 * layout, and it is not what the library writes (no line folding, commas in CATEGORIES left
 * unescaped, the quoted ORGANIZER CN, one VTIMEZONE per zone listing every DAYLIGHT/STANDARD
 * transition year by year rather than an RRULE, a non-standard X-Robots-Tag property).
 * The zones' abbreviations are the zone database's (`zoneName`, src/lib/time.ts).
 */
import type { Params } from '../../lib/php-params.ts';
import { createHash } from 'node:crypto';
import { slugify, slugInPath } from '../../lib/slug.ts';
import { rawurlencode } from '../../lib/url-encoding.ts';
import { siteUrls } from '../../contract/site-urls.ts';
import { autop, texturize } from '../../lib/wordpress-text.ts';
import { htmlEntityDecode, stripAllTags } from '../../lib/legacy-html.ts';
import type { Services } from '../../services.ts';
import type { EventRow, OrganizerRow, StoredEvent, VenueRow } from '../../store/calendar.ts';
import { attachment } from '../../http/attachment.ts';
import type { SiteHandler } from '../../http/site-handler.ts';
import { fmt, instantToWall, offsetMinutes, offsetText, zoneName } from '../../lib/time.ts';

const FEED = /^(?:\/([^/]+))?\/(?:events|event\/([^/]+))\/$/;

/** Whether the request asks for a calendar feed (`/events/?ical=1`, `/event/{slug}/?ical=1`, under a locale or not). */
export const isFeed = (pathname: string, query: Params) => query.ical !== undefined && FEED.test(pathname);

/** The list feed's length: The Events Calendar's `tribe_ical_feed_posts_per_page` default. */
export const LIST_FEED_SIZE = 30;

/** The plugin version the legacy feed names in PRODID, which subscribers may key on. */
const PRODUCT_VERSION = '6.17.2';

export interface FeedEvent {
  event: EventRow;
  /** The first linked venue and organizer, as the legacy feed reads them. */
  venue?: VenueRow;
  organizer?: OrganizerRow;
  /** Category names, by name. */
  categories: string[];
  url: string;
}

export interface FeedSite {
  name: string;
  /** The home address the feed names (X-ORIGINAL-URL) and whose host ends each UID. */
  home: string;
}

export function icalFeeds(services: Services): SiteHandler {
  const { config, mappings, store, clock } = services;
  return async (req, reply, pathname, query) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || query.ical === undefined) return false;
    const m = FEED.exec(pathname);
    if (!m) return false;
    const [, locale = null, rawSlug] = m;
    if (locale !== null && !mappings.locales.includes(locale)) return false;
    const urls = siteUrls(config.baseUrl, config.restPrefix, config.adminPath, locale);
    const site = await store.options.site();
    let rows: StoredEvent[];
    if (rawSlug === undefined) {
      const now = fmt(instantToWall(clock.now(), site.timezone));
      rows = await store.calendar.eventPage({ statuses: ['publish'], endsAfter: now, limit: LIST_FEED_SIZE, offset: 0 });
    } else {
      const slug = slugInPath(rawSlug);
      // No event's slug holds a NUL byte (the store cannot keep one).
      if (slug.includes('\0')) return false;
      const event = await store.calendar.eventBySlug(slug);
      // Drafts, private, scheduled and trashed events have no feed, as they have no page.
      if (event?.status !== 'publish') return false;
      rows = [event];
    }
    const ids = rows.map((e) => e.id);
    const links = await store.calendar.linksOf(rows);
    const events = rows.map((event) => ({
      event,
      venue: links.get(event.id)!.venues[0],
      organizer: links.get(event.id)!.organizers[0],
      categories: links.get(event.id)!.terms.filter((t) => t.taxonomy === 'category').map((t) => t.name),
      url: `${urls.home}/event/${event.slug}/`,
    }));
    reply
      .code(200)
      .type('text/calendar; charset=UTF-8')
      .header('Content-Disposition', attachment(feedFileName(site.name, ids)))
      .header('X-Robots-Tag', 'noindex, nofollow');
    await reply.send(icalFeed({ name: site.name, home: urls.home }, events));
    return true;
  };
}

/** `{site-slug}-{hash}.ics`: the hash is the legacy one, md5 of "ical" and the event IDs run together, 11 hex digits. */
export function feedFileName(siteName: string, ids: number[]): string {
  return `${slugify(siteName)}-${createHash('md5').update(`ical${ids.join('')}`).digest('hex').slice(0, 11)}.ics`;
}

export function icalFeed(site: FeedSite, events: FeedEvent[]): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${site.name} - ECPv${PRODUCT_VERSION}//NONSGML v1.0//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    ...(site.name ? [`X-WR-CALNAME:${site.name}`] : []),
    `X-ORIGINAL-URL:${site.home}`,
    `X-WR-CALDESC:Events for ${site.name}`,
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-Robots-Tag:noindex',
    'X-PUBLISHED-TTL:PT1H',
    ...timezones(events.map((e) => e.event)),
    ...events.flatMap((e) => vevent(e, new URL(site.home).hostname)),
  ];
  // The legacy feed ends without a line break after END:VCALENDAR.
  return `${lines.join('\r\n')}\r\nEND:VCALENDAR`;
}

// ---- events

const compact = (wall: string) => wall.replace(/[-:]/g, '').replace(' ', 'T');
const utcStamp = (d: Date) => `${compact(fmt(d))}Z`;
/** The legacy UID's times: the event's wall-clock time read as if it were UTC. */
const wallEpoch = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}Z`) / 1000;

/** TEXT values as the legacy feed writes them: entities decoded (html_entity_decode), then commas and line breaks escaped (not semicolons or backslashes). */
const text = (s: string) => htmlEntityDecode(s).replace(/,/g, '\\,').replace(/\n/g, '\\n').replace(/\r/g, '');

function description(e: EventRow): string {
  if (e.password !== '') return 'Content is protected.';
  // the_content, with a space after each paragraph so that paragraphs do not run together.
  return stripAllTags(texturize(autop(e.description)).replace(/<\/p>/g, '</p> '));
}

/** The venue's name and address parts that are set, comma-separated. */
function location(v: VenueRow): string {
  return [v.name, v.address, v.city, v.stateprovince || v.state || v.province, v.zip, v.country].filter((p) => p !== '').join(', ');
}

/** What sanitize_organizer_name leaves of a character rawurlencode escapes: these, and a double quote as a single one. */
const NAME_KEPT = [' ', '&', '!', '?', "'", '*', '(', ')', '@', '#', '$', '%', '^', '+', '=', '{', '}', '[', ']', '|', '\\', '/', '<', '>', '`', '~'];
const NAME_RESTORED: [string, string][] = [...NAME_KEPT.map((c): [string, string] => [rawurlencode(c), c]), ['%22', "'"]];

/**
 * The legacy feed's sanitize_organizer_name for the quoted CN: rawurlencode, then the listed characters
 * put back one after another as str_replace does (so `%255E` becomes `^`), keeping `,;:`, control
 * characters and non-ASCII ones escaped.
 */
function organizerName(name: string): string {
  return NAME_RESTORED.reduce((s, [from, to]) => s.replaceAll(from, to), rawurlencode(name));
}

function vevent(f: FeedEvent, host: string): string[] {
  const e = f.event;
  const out = [
    'BEGIN:VEVENT',
    // All-day events too: the legacy feed writes their stored times (00:00:00 to 23:59:59), not DATE values.
    `DTSTART;TZID=${e.timezone}:${compact(e.start_date)}`,
    `DTEND;TZID=${e.timezone}:${compact(e.end_date)}`,
    // DTSTAMP is the creation time, as in every VEVENT the legacy feed wrote (not the request's time).
    `DTSTAMP:${utcStamp(e.created)}`,
    `CREATED:${utcStamp(e.created)}`,
    `LAST-MODIFIED:${utcStamp(e.modified)}`,
    `UID:${e.id}-${wallEpoch(e.start_date)}-${wallEpoch(e.end_date)}@${host}`,
    `SUMMARY:${text(stripAllTags(e.title))}`,
    `DESCRIPTION:${text(description(e))}`,
    `URL:${f.url}`,
  ];
  const where = f.venue ? location(f.venue) : '';
  if (where) out.push(`LOCATION:${text(where)}`);
  if (f.categories.length) out.push(`CATEGORIES:${htmlEntityDecode(f.categories.join(','))}`);
  if (f.organizer?.email) out.push(`ORGANIZER;CN="${organizerName(f.organizer.name)}":MAILTO:${f.organizer.email}`);
  out.push('END:VEVENT');
  return out;
}

// ---- time zones

/**
 * One VTIMEZONE per zone the events use, in order of first use, listing the zone's transitions
 * from the year before its earliest event to the year after its latest, as the legacy feed does.
 */
function timezones(events: EventRow[]): string[] {
  const years = new Map<string, { from: number; to: number }>();
  for (const e of events) {
    const span = years.get(e.timezone);
    const from = Number(e.start_date.slice(0, 4)) - 1;
    const to = Number(e.end_date.slice(0, 4)) + 1;
    years.set(e.timezone, span ? { from: Math.min(span.from, from), to: Math.max(span.to, to) } : { from, to });
  }
  return [...years].flatMap(([zone, { from, to }]) => vtimezone(zone, from, to));
}

interface Transition {
  at: number;
  from: number;
  to: number;
  dst: boolean;
}

function vtimezone(zone: string, fromYear: number, toYear: number): string[] {
  const changes: Transition[] = [];
  for (let y = fromYear; y <= toYear; y++) changes.push(...transitionsIn(zone, y));
  // A zone without transitions (UTC) is described by its offset at the start of the span.
  if (changes.length === 0) {
    const at = Date.UTC(fromYear, 0, 1);
    const offset = offsetMinutes(zone, new Date(at));
    changes.push({ at, from: offset, to: offset, dst: false });
  }
  const out = ['BEGIN:VTIMEZONE', `TZID:${zone}`];
  for (const t of changes) {
    const type = t.dst ? 'DAYLIGHT' : 'STANDARD';
    out.push(`BEGIN:${type}`, `TZOFFSETFROM:${offsetText(t.from, '')}`, `TZOFFSETTO:${offsetText(t.to, '')}`, `TZNAME:${zoneName(zone, t.to)}`);
    // The transition's UTC moment, written without a Z as the legacy feed writes it.
    out.push(`DTSTART:${compact(fmt(new Date(t.at)))}`, `END:${type}`);
  }
  out.push('END:VTIMEZONE');
  return out;
}

const DAY = 86400000;
// Zones' transitions for a year do not change between requests: kept per zone and year.
const transitionCache = new Map<string, Transition[]>();

/** The instants in `year` (UTC) when the zone's offset changes: a day-by-day scan, then a binary search to the second. */
function transitionsIn(zone: string, year: number): Transition[] {
  const key = `${zone} ${year}`;
  const cached = transitionCache.get(key);
  if (cached) return cached;
  const offset = (t: number) => offsetMinutes(zone, new Date(t));
  // Standard time is the lesser of the winter and summer offsets, whichever hemisphere.
  const standard = Math.min(offset(Date.UTC(year, 0, 1)), offset(Date.UTC(year, 6, 1)));
  const out: Transition[] = [];
  const end = Date.UTC(year + 1, 0, 1);
  for (let t = Date.UTC(year, 0, 1); t < end; t += DAY) {
    const next = Math.min(t + DAY, end);
    const from = offset(t);
    const to = offset(next);
    if (from === to) continue;
    let [lo, hi] = [t, next];
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (offset(mid) === from) lo = mid;
      else hi = mid;
    }
    out.push({ at: hi, from, to, dst: to > standard });
  }
  transitionCache.set(key, out);
  return out;
}

