/** The namespace's argument declarations, with the descriptors the legacy index shows. */
import type { z } from 'zod';
import { arg, item } from '../../contract/args.ts';
import { toInteger, toList } from '../../contract/coerce.ts';
import type { Args } from '../../contract/route.ts';
import type { LinkedKind, Taxonomy } from '../../store/calendar.ts';
import { parseWall } from '../../lib/dates.ts';

const positiveInt = (v: unknown) => {
  const n = toInteger(v);
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0;
};
const isTime = (v: unknown) => typeof v === 'string' && v.trim() !== '' && parseWall(v, new Date()) !== null;
const idList = (v: unknown): unknown[] => {
  const l = toList(typeof v === 'number' ? String(v) : v);
  return Array.isArray(l) ? l : [];
};
export const asList = (v: unknown): string[] => idList(v).map((x) => String(x).trim()).filter((x) => x !== '');

/** A TEC argument with its own validate callback ("Invalid parameter." on failure). */
const tec = <T>(description: string, keywords: Record<string, unknown>, validate: (v: unknown) => boolean, sanitize: (v: unknown) => T) =>
  arg.custom({ description, keywords, validate, sanitize });
/** Paging arguments: positive integers with a default, so always present. */
const positive = (description: string, fallback: number | string) =>
  arg.custom({ description, keywords: { type: 'integer' }, validate: positiveInt, sanitize: (v) => Number(toInteger(v)), default: fallback });

export const page = (what = 'archive') => positive(`The ${what} page to return`, 1);
export const perPage = (what: string) => positive(`The number of ${what} to return on each page`, '10');
export const time = (description: string) => tec(description, {}, isTime, (v) => String(v));
export const nonEmptyString = (description: string) => tec(description, { type: 'string' }, (v) => typeof v === 'string' && v !== '', (v) => String(v));
/** Lists of IDs or slugs; existence is checked by the handler, which knows the store. */
export const idsOrSlugs = (description: string) => tec(description, { items: { type: 'integer' } }, (v) => asList(v).length > 0, asList);
export const ids = (description: string) => tec(description, { items: { type: 'integer' } }, (v) => asList(v).length > 0 && asList(v).every(positiveInt), (v) => asList(v).map(Number));
export const statusArg = (description: string) => tec(description, { format: 'string' }, (v) => asList(v).length > 0, asList);
export const double = (description: string) => tec(description, { format: 'double' }, (v) => v !== '' && Number.isFinite(Number(v)), Number);
export const anything = (description: string, extra: { default?: unknown } = {}) => arg.untyped({ description, ...extra });
export const str = (description: string, extra: { default?: null } = {}) => arg.string({ description, ...extra });
export const int = (description: string, extra: { default?: null } = {}) => arg.integer({ description, ...extra });
export const bool = (description: string) => arg.boolean({ description });

export const eventListArgs = {
  page: page(),
  per_page: perPage('events'),
  start_date: time('Events that start on the specified date'),
  end_date: time('Events that end on the specified date'),
  starts_before: time('Events that start before the specified date'),
  starts_after: time('Events that start after the specified date'),
  ends_before: time('Events that end before the specified date'),
  ends_after: time('Events that end after the specified date'),
  strict_dates: anything('Dates set using the start_date/end_date, starts_*/ends_* are set to start at the specified times. The default behavior is to include the entire days.', { default: 'false' }),
  search: nonEmptyString('Events should contain the specified string in the title or description'),
  categories: idsOrSlugs('Events should be assigned one of the specified categories slugs or IDs'),
  tags: idsOrSlugs('Events should be assigned one of the specified tags slugs or IDs'),
  venue: idsOrSlugs('Events should be assigned one of the specified venue IDs'),
  organizer: idsOrSlugs('Events should be assigned one of the specified organizer IDs'),
  featured: bool('Events should be filtered by their featured status'),
  status: statusArg('The event post status'),
  geoloc: bool('Requires Events Calendar Pro. Events should be filtered by whether their venue has geolocation data'),
  geoloc_lat: double('Requires Events Calendar Pro. Events should be filtered by their venue latitude location, must also provide geoloc_lng'),
  geoloc_lng: double('Requires Events Calendar Pro. Events should be filtered by their venue longitude location, must also provide geoloc_lat'),
  include: ids('Include events with one of the post IDs specified in the array of CSV list, date filters will be ignored.'),
  post_parent: int('Events should be filtered by their post_parent being the specified one.'),
  ticketed: bool('Filter events with or without tickets.'),
};

const listOf = (description: string) => arg.untyped({ description, default: null, keywords: { items: { type: 'integer' } } });

/** Shows a default in the index without applying it: an update must only change what was sent. */
function shownDefault<T extends z.ZodType>(schema: T, value: unknown): T {
  return schema.meta({ ...(schema.meta() ?? {}), default: value }) as T;
}

export function eventWriteArgs(required: boolean) {
  const req = (d: string) => (required ? arg.string({ description: d, required: true }) : str(d));
  return {
    author: int('The event author ID'),
    date: str('The event publication date'),
    date_utc: str('The event publication date (UTC time zone)'),
    title: req('The event title'),
    description: str('The event description'),
    slug: str('The event slug'),
    excerpt: str('The event excerpt'),
    status: str('The event post status'),
    timezone: str('The event time zone'),
    all_day: required
      ? arg.boolean({ description: 'Whether the event lasts the whole day or not', default: false })
      : shownDefault(arg.boolean({ description: 'Whether the event lasts the whole day or not' }), false),
    start_date: req('The event start date and time'),
    end_date: req('The event end date and time'),
    image: str('The event featured image ID or URL'),
    cost: anything('The event cost'),
    website: anything('The event website URL', { default: null }),
    show_map: bool('Whether the event should show a map or not'),
    show_map_link: bool('Whether the event should show a map link or not'),
    hide_from_listings: bool('Whether events should be hidden in the calendar view or not'),
    sticky: bool('Whether the event should be sticky in the calendar view or not'),
    featured: bool('Whether the event should be featured on the site or not'),
    categories: listOf('The event category ID or name'),
    tags: listOf('The event tag ID or name'),
    venue: listOf('The event venue IDs or data'),
    organizer: listOf('The event organizer IDs or data'),
  };
}

export type EventListArgs = Args<typeof eventListArgs>;
/** An event write: the fields, and on the ID route the event's password. */
export type EventWriteArgs = Args<ReturnType<typeof eventWriteArgs>> & { password?: string };

export function linkedListArgs(kind: LinkedKind) {
  const plural = kind === 'venue' ? 'venues' : 'organizers';
  const Name = kind === 'venue' ? 'Venues' : 'Organizers';
  return {
    page: page(),
    per_page: perPage(plural),
    search: nonEmptyString(`${Name} should contain the specified string in the title, description or custom fields`),
    event: int(`${Name} should be related to this event`),
    has_events: anything(`${Name} should have events associated to them`),
    only_with_upcoming: anything(`${Name} should have upcoming events associated to them`, { default: false }),
    status: statusArg('The organizer post status'),
  };
}
export type LinkedListArgs = Args<ReturnType<typeof linkedListArgs>>;

const termLabel = (taxonomy: Taxonomy) => (taxonomy === 'category' ? 'event category' : 'event tag');

export function termListArgs(taxonomy: Taxonomy) {
  return {
    page: page(),
    per_page: perPage(taxonomy === 'category' ? 'event categories' : 'event tags'),
    search: arg.string({ description: 'Limit results to those matching a string' }),
    exclude: arg.array(item.integer(), { description: 'Ensure result set exclude specific IDs' }),
    include: arg.array(item.integer(), { description: 'Limit result set to specific IDs' }),
    order: arg.string({ description: 'Order sort attribute ascending or descending' }),
    orderby: arg.string({ description: 'Sort collection by term attribute' }),
    hide_empty: arg.boolean({ description: 'Whether to hide terms not assigned to any posts', default: '1' }),
    ...(taxonomy === 'category' ? { parent: arg.integer({ description: 'Limit result set to terms assigned to a specific parent' }) } : {}),
    post: arg.integer({ description: 'Limit result set to terms assigned to a specific post' }),
    event: arg.integer({ description: 'Limit result set to terms assigned to a specific event (an alias of the "post" parameter)' }),
    slug: arg.string({ description: 'Limit result set to terms with a specific slug' }),
  };
}
export type TermListArgs = Args<ReturnType<typeof termListArgs>>;

export function termFields(taxonomy: Taxonomy, required: boolean) {
  const label = termLabel(taxonomy);
  return {
    name: arg.string({ description: `The ${label} name`, required }),
    description: arg.string({ description: `The ${label} description` }),
    slug: arg.string({ description: `The ${label} slug` }),
    ...(taxonomy === 'category' ? { parent: arg.integer({ description: 'The event category slug' }) } : {}),
  };
}
export type TermFields = Args<ReturnType<typeof termFields>>;
