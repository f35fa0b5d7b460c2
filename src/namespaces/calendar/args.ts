/** The namespace's argument declarations, with the descriptors the legacy index shows. */
import { z } from 'zod';
import { arg, hasValidateCallback, withLookup, withTypeAfterCallbacks, withValidateCallback, type Arg, type Lookup } from '../../contract/args.ts';
import { compileArgs, validCallbacks, type CompiledArg } from '../../contract/validate.ts';
import { isValidTimeZone } from '../../lib/time.ts';
import { toBoolean, toInteger, toList } from '../../contract/coerce.ts';
import { isPhpList, lastOf } from '../../lib/php-params.ts';
import type { Args } from '../../contract/route.ts';
import type { LinkedKind, Taxonomy } from '../../store/calendar.ts';
import { parseWall } from '../../lib/dates.ts';
import { can } from '../../lib/roles.ts';
import type { RestContext } from '../../contract/context.ts';
import { termExists } from './lookups.ts';
import { urldecode } from '../../lib/url-encoding.ts';

const positiveInt = (v: unknown) => {
  const n = toInteger(v);
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0;
};
const isTime = (v: unknown) => typeof v === 'string' && parseWall(v, new Date()) !== null;
const idList = (v: unknown): unknown[] => {
  const l = toList(typeof v === 'number' ? String(v) : v);
  return Array.isArray(l) ? l : [];
};
export const asList = (v: unknown): string[] => idList(v).map((x) => String(x).trim()).filter((x) => x !== '');

/** PHP's is_numeric: numbers, and numeric strings with optional surrounding whitespace. */
export const isNumeric = (v: unknown) =>
  (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/.test(v));
/** PHP's empty(). */
export const isEmpty = (v: unknown) => v === undefined || v === null || v === false || v === '' || v === '0' || v === 0 || (typeof v === 'object' && Object.keys(v).length === 0);
/** The TEC validator's checks that need no record (Tribe__Validator__Base). */
export const V = {
  isString: (v: unknown) => typeof v === 'string' && !isEmpty(v),
  isStringOrEmpty: (v: unknown) => isEmpty(v) || V.isString(v),
  /** is_event_id_format */
  isNumericId: (v: unknown) => v !== '' && isNumeric(v),
  isTime: (v: unknown) => isNumeric(v) || isTime(v),
  /** is_url_or_empty: FILTER_VALIDATE_URL wants a scheme and a host. */
  isUrlOrEmpty: (v: unknown) => isEmpty(v) || (typeof v === 'string' && /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#]+\S*$/i.test(v)),
  /** The part of is_event_id that needs no record: get_post((int) $value) finds nothing for 0. */
  castsToId: (v: unknown) => !isEmpty(v) && phpInt(v) > 0,
  isPostStatus: (v: unknown) => v === true || (typeof v === 'string' && POST_STATI.includes(v)),
  /** is_timezone_or_empty, over the zones Lintel computes with (IANA names, the fixed-offset forms of src/lib/time.ts; see DEVIATIONS.md calendar-timezone-forms). */
  isTimezoneOrEmpty: (v: unknown) => isEmpty(v) || (typeof v === 'string' && isValidTimeZone(v)),
  /**
   * is_image: an attachment that is an image, or (for those who may upload files) a URL a HEAD request
   * finds an image at. Lintel keeps no media and fetches nothing: no value (see DEVIATIONS.md calendar-image).
   */
  isImage: (_v: unknown) => false,
  isImageOrEmpty: (v: unknown) => isEmpty(v),
};
/** get_post_stati() on the legacy site. */
const POST_STATI = ['publish', 'future', 'draft', 'pending', 'private', 'trash', 'auto-draft', 'inherit', 'request-pending', 'request-confirmed', 'request-failed', 'request-completed', 'in-progress', 'failed', 'tribe-ea-success', 'tribe-ea-failed', 'tribe-ea-schedule', 'tribe-ea-pending', 'tribe-ea-draft', 'tribe-ignored'];

/** PHP's (int) cast of a scalar: the leading number of a string, 0 for anything else. */
export function phpInt(v: unknown): number {
  if (typeof v === 'number') return Math.trunc(v);
  if (v === true) return 1;
  if (typeof v !== 'string') return 0;
  const m = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(v);
  return m ? Math.trunc(Number(m[0].trim())) : 0;
}

/** rest_is_integer: a numeric value whose float is whole. */
const isRestInteger = (v: unknown) => isNumeric(v) && Number.isInteger(Number(String(v).trim()));

/**
 * A TEC argument declared with a `type` and a validate callback but no sanitize callback: WordPress
 * runs the callback first (false: "Invalid parameter."), then, the callback passed, the type check
 * of its schema ("id is not of type integer.", rest_parse_request_arg).
 */
interface TecOptions<R> {
  required?: R;
  /** The callback's record lookup (is_venue_id, is_event_slug, ...), given the accepted value. */
  lookup?: Lookup;
  /** Shown as `default: null` in the index; nothing is applied. */
  default?: null;
}

function tecTyped(type: 'integer' | 'string', description: string, validate: (v: unknown) => boolean, o: TecOptions<boolean>): z.ZodType {
  const required = o.required === true;
  const typed = type === 'integer' ? isRestInteger : (v: unknown) => typeof v === 'string';
  const schema = z
    .preprocess(lastOf, z.unknown().superRefine((v, ctx) => {
      if (v === undefined) {
        if (required) ctx.addIssue({ code: 'custom', input: v });
      } else if (v === null) ctx.addIssue({ code: 'invalid_type', expected: type, input: v });
      else if (!validate(v)) ctx.addIssue({ code: 'custom', input: v });
      else if (!typed(v)) ctx.addIssue({ code: 'invalid_type', expected: type, input: v });
    }))
    .transform((v) => (v === undefined ? undefined : type === 'integer' ? Number(String(v).trim()) : String(v)))
    .meta({ description, type, ...('default' in o ? { default: null } : {}) });
  return withTypeAfterCallbacks(o.lookup ? withLookup(schema, o.lookup) : withValidateCallback(schema), typed);
}
type Req<T, R> = Arg<R extends true ? T : T | undefined>;
export const tecInt = <const R extends boolean = false>(description: string, validate: (v: unknown) => boolean, o: TecOptions<R> = {}) =>
  tecTyped('integer', description, validate, o) as Req<number, R>;
export const tecStr = <const R extends boolean = false>(description: string, validate: (v: unknown) => boolean, o: TecOptions<R> = {}) =>
  tecTyped('string', description, validate, o) as Req<string, R>;

const TRUTHY = ['1', 'enable', 'enabled', 'on', 'y', 'yes', 'true'];
/** tribe_is_truthy: a boolean as it is, a string (lowercased, not trimmed) when listed, anything else as PHP casts it (a non-empty list is true). */
export const isTruthy = (v: unknown) =>
  typeof v === 'boolean' ? v : typeof v === 'string' ? TRUTHY.includes(v.toLowerCase()) : typeof v === 'object' && v !== null ? Object.keys(v).length > 0 : Boolean(v);

/**
 * supports_ticketed: asking for ticketed events without Event Tickets is the callback's own error
 * (in `details`); other values go on to the boolean check.
 */
function ticketed(description: string) {
  const schema = z
    .preprocess(lastOf, z.unknown().superRefine((v, ctx) => {
      if (v === undefined) return;
      if (isTruthy(v)) ctx.addIssue({ code: 'custom', input: v, params: { wp: { code: 'event-tickets-not-active', message: 'Event Tickets plugin is not activated.', data: { status: 400 } } } });
      else if (typeof toBoolean(v) !== 'boolean') ctx.addIssue({ code: 'invalid_type', expected: 'boolean', input: v });
    }))
    .transform((v) => (v === undefined ? undefined : (toBoolean(v) as boolean)))
    .meta({ description, type: 'boolean' });
  return withTypeAfterCallbacks(withValidateCallback(schema), (v) => typeof toBoolean(v) === 'boolean') as Arg<boolean | undefined>;
}

/** A TEC argument with its own validate callback ("Invalid parameter." on failure). */
const tec = <T>(description: string, keywords: Record<string, unknown>, validate: (v: unknown) => boolean, sanitize: (v: unknown) => T) =>
  arg.custom({ description, keywords, validate, sanitize });
/** Paging arguments: positive integers with a default, so always present. */
const positive = (description: string, fallback: number | string) =>
  arg.custom({ description, keywords: { type: 'integer' }, validate: positiveInt, sanitize: (v) => Number(toInteger(v)), default: fallback });

export const page = (what = 'archive') => positive(`The ${what} page to return`, 1);
export const perPage = (what: string) => positive(`The number of ${what} to return on each page`, '10');
export const time = (description: string) => tec(description, {}, V.isTime, (v) => String(v));
/**
 * Tribe__Utils__Array::list_to_array: a list as sent, or a string URL-decoded and split at commas
 * (with the white space around them); empty items dropped, numeric ones made numbers. An item that
 * is itself a list stays one (the legacy lookups crash on it: see calendar-array-crash).
 */
export function listToArray(v: unknown): unknown[] {
  v = lastOf(v);
  if (isEmpty(v)) return [];
  const items = typeof v === 'object' && v !== null ? Object.values(v) : urldecode(String(v === true ? 1 : v)).split(/\s*,\s*/);
  return items.filter((x) => x !== '').map((x) => (isNumeric(x) ? Number(String(x).trim()) : x));
}

/**
 * What a legacy argument declares for `/doc` alone (swaggerize_args reads them; the index shows
 * none): its OpenAPI type where it has no JSON schema type, `collectionFormat: csv` for a list also
 * taken as a comma-separated string, and `in: path` for the event password (documented as a path
 * parameter, though it is read from the query).
 */
export interface SwaggerKeywords {
  swagger_type?: 'array' | 'number' | 'boolean';
  collectionFormat?: 'csv';
  in?: 'path';
}
const swagger = new WeakMap<z.ZodType, SwaggerKeywords>();
export function documented<S extends z.ZodType>(schema: S, keywords: SwaggerKeywords): S {
  swagger.set(schema, keywords);
  return schema;
}
export const swaggerOf = (schema: z.ZodType): SwaggerKeywords => swagger.get(schema) ?? {};
/** A list the events archive also takes as a comma-separated string. */
const csv = <S extends z.ZodType>(schema: S) => documented(schema, { swagger_type: 'array', collectionFormat: 'csv' });

type Found = (ctx: RestContext, item: string | number) => Promise<boolean>;

/** A validate callback's lookup over the value's list_to_array items: there are some, and each names a record. */
const everyItem = (found: Found): Lookup => async (ctx, v) => {
  const items = listToArray(v);
  for (const x of items) if ((typeof x !== 'string' && typeof x !== 'number') || !(await found(ctx, x))) return false;
  return items.length > 0;
};

/**
 * A list argument whose validate callback looks up every item (is_event_category, is_post_tag,
 * is_venue_id_list, is_organizer_id_list): it fails with the other callbacks, before the
 * permission, and the handler sees the items list_to_array made.
 */
function lookedUpList(description: string, found: Found) {
  const schema = arg.custom({ description, keywords: { items: { type: 'integer' } }, validate: (v) => listToArray(v).length > 0, sanitize: (v) => listToArray(v) as (string | number)[] });
  return withLookup(schema, everyItem(found));
}

const termFound = (taxonomy: Taxonomy): Found => async (ctx, x) => (await termExists(ctx, taxonomy, x)) !== null;
/** is_event_category / is_post_tag over a list. */
export const termList = (taxonomy: Taxonomy, description: string) => lookedUpList(description, termFound(taxonomy));
/** is_event_id: the whole part of the value names an event. */
const isEventId: Lookup = async (ctx, v) => (await kindOf(ctx, v)) === 'event';
/** The kind of record a value names as get_post((int) $id) reads it (`12abc` is 12); none beyond 2^53 (see core-integer-range). */
export const kindOf = (ctx: RestContext, v: unknown) => ctx.store.calendar.kindOf(phpInt(v));
/** is_venue_id_list / is_organizer_id_list: numeric items naming a record of the kind (get_post reads the whole part of the number). */
export const linkedList = (kind: LinkedKind, description: string) =>
  lookedUpList(description, async (ctx, x) => typeof x === 'number' && (await kindOf(ctx, x)) === kind);
/**
 * A venue's or organizer's path ID: is_venue_id (a number naming a venue), is_organizer_id (a number,
 * or a list of numbers, naming organizers), then the declared integer type.
 */
export function linkedId(kind: LinkedKind, description: string) {
  const items = (v: unknown) => (kind === 'organizer' && typeof v === 'object' && v !== null ? Object.values(v) : [v]);
  return tecInt(description, (v) => {
    const xs = items(v);
    return xs.length > 0 && xs.every(isNumeric);
  }, {
    required: true,
    lookup: async (ctx, v) => {
      for (const x of items(v)) if ((await kindOf(ctx, x)) !== kind) return false;
      return true;
    },
  });
}
export const ids = (description: string) => tec(description, { items: { type: 'integer' } }, (v) => asList(v).length > 0 && asList(v).every(positiveInt), (v) => asList(v).map(Number));
/**
 * filter_post_status_list: who may not edit the records may ask for `publish` alone; others for
 * registered statuses.
 */
export function statusArg(description: string) {
  // An empty list ('0' is empty in PHP) passes for those who may edit: the callback's empty answer is no `false`.
  const schema = arg.custom({ description, keywords: { format: 'string' }, validate: () => true, sanitize: (v) => listToArray(v).map(String) });
  return withLookup(schema, async (ctx, v) => {
    const asked = v as string[];
    return can(ctx.user, 'edit_posts') ? asked.every((s) => POST_STATI.includes(s)) : asked.length === 1 && asked[0] === 'publish';
  });
}
export const anything = (description: string, extra: { default?: unknown } = {}) => arg.untyped({ description, ...extra });
export const str = (description: string, extra: { default?: null } = {}) => arg.string({ description, ...extra });
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
  strict_dates: arg.custom({ description: 'Dates set using the start_date/end_date, starts_*/ends_* are set to start at the specified times. The default behavior is to include the entire days.', validate: V.isString, sanitize: String, default: 'false' }),
  search: tecStr('Events should contain the specified string in the title or description', V.isString),
  categories: csv(termList('category', 'Events should be assigned one of the specified categories slugs or IDs')),
  tags: csv(termList('tag', 'Events should be assigned one of the specified tags slugs or IDs')),
  venue: csv(linkedList('venue', 'Events should be assigned one of the specified venue IDs')),
  organizer: csv(linkedList('organizer', 'Events should be assigned one of the specified organizer IDs')),
  featured: bool('Events should be filtered by their featured status'),
  status: statusArg('The event post status'),
  geoloc: bool('Requires Events Calendar Pro. Events should be filtered by whether their venue has geolocation data'),
  // Without Events Calendar Pro nothing declares or checks them.
  geoloc_lat: documented(arg.untyped({ description: 'Requires Events Calendar Pro. Events should be filtered by their venue latitude location, must also provide geoloc_lng', keywords: { format: 'double' } }), { swagger_type: 'number' }),
  geoloc_lng: documented(arg.untyped({ description: 'Requires Events Calendar Pro. Events should be filtered by their venue longitude location, must also provide geoloc_lat', keywords: { format: 'double' } }), { swagger_type: 'number' }),
  include: csv(ids('Include events with one of the post IDs specified in the array of CSV list, date filters will be ignored.')),
  post_parent: tecInt('Events should be filtered by their post_parent being the specified one.', V.castsToId, { lookup: isEventId }),
  ticketed: ticketed('Filter events with or without tickets.'),
};

const listOf = (description: string) => documented(arg.untyped({ description, default: null, keywords: { items: { type: 'integer' } } }), { swagger_type: 'array' });

/** Shows a default in the index without applying it: an update must only change what was sent. */
function shownDefault<T extends z.ZodType>(schema: T, value: unknown): T {
  return schema.meta({ ...(schema.meta() ?? {}), default: value }) as T;
}

/** is_user_id: a number naming a user (get_user_by reads its whole part, from 1). */
const isUserId: Lookup = async (ctx, v) => phpInt(v) >= 1 && (await ctx.store.users.byId(phpInt(v))) !== null;
export const userId = (description: string, o: { default?: null } = {}) => tecInt(description, isNumeric, { ...o, lookup: isUserId });

/** array_filter's truthiness: what PHP casts to true. */
export const phpTruthy = (v: unknown) => !isEmpty(v) && v !== '0.0';

/**
 * is_venue_id_or_entry_or_empty / is_organizer_id_or_entry_or_empty: empty, IDs of the kind (a
 * comma-separated list, or list items), `{id}` of one, or a new record's fields that pass the
 * callbacks of the kind's create route (has_valid_params).
 */
function linkedOrEntry(kind: LinkedKind, description: string) {
  const isKind = async (ctx: RestContext, x: unknown) => (await kindOf(ctx, x)) === kind;
  return withLookup(listOf(description), async (ctx, v) => {
    if (isEmpty(v)) return true;
    if (typeof v !== 'object' || v === null) {
      const items = String(v === true ? 1 : v).split(/\s*,\s*/);
      for (const x of items) if (!isNumeric(x) || !(await isKind(ctx, x))) return false;
      return true;
    }
    if (!Object.values(v).some(phpTruthy)) return true;
    for (const entry of isPhpList(v) ? Object.values(v) : [v]) {
      if (isNumeric(entry)) {
        if (!(await isKind(ctx, entry))) return false;
        continue;
      }
      if (typeof entry !== 'object' || entry === null || isPhpList(entry)) return false;
      const id = (entry as Record<string, unknown>).id;
      if (!isEmpty(id)) {
        if (!(await isKind(ctx, id))) return false;
        continue;
      }
      const accepted = await validCallbacks(linkedCreateArgs(kind), entry as Record<string, unknown>, ctx).then(() => true, () => false);
      if (!accepted) return false;
    }
    return true;
  });
}

export function eventWriteArgs(required: boolean) {
  const time = (d: string) => tecStr(d, V.isTime);
  const text = (d: string) => tecStr(d, V.isString);
  const req = (d: string, check: (v: unknown) => boolean) => tecStr(d, check, { required });
  return {
    author: userId('The event author ID'),
    date: time('The event publication date'),
    date_utc: time('The event publication date (UTC time zone)'),
    title: req('The event title', V.isString),
    description: text('The event description'),
    slug: text('The event slug'),
    excerpt: text('The event excerpt'),
    status: tecStr('The event post status', V.isPostStatus),
    timezone: tecStr('The event time zone', V.isTimezoneOrEmpty),
    all_day: required
      ? arg.boolean({ description: 'Whether the event lasts the whole day or not', default: false })
      : shownDefault(arg.boolean({ description: 'Whether the event lasts the whole day or not' }), false),
    start_date: req('The event start date and time', V.isTime),
    end_date: req('The event end date and time', V.isTime),
    image: tecStr('The event featured image ID or URL', V.isImage),
    cost: anything('The event cost'),
    website: arg.custom({ description: 'The event website URL', validate: V.isUrlOrEmpty, sanitize: (v) => v, default: null }),
    show_map: bool('Whether the event should show a map or not'),
    show_map_link: bool('Whether the event should show a map link or not'),
    hide_from_listings: bool('Whether events should be hidden in the calendar view or not'),
    sticky: bool('Whether the event should be sticky in the calendar view or not'),
    featured: bool('Whether the event should be featured on the site or not'),
    categories: listOf('The event category ID or name'),
    tags: listOf('The event tag ID or name'),
    venue: linkedOrEntry('venue', 'The event venue IDs or data'),
    organizer: linkedOrEntry('organizer', 'The event organizer IDs or data'),
  };
}

const nullStr = (d: string) => str(d, { default: null });
const textOrEmpty = (d: string) => tecStr(d, V.isStringOrEmpty, { default: null });
const postTime = (d: string, o: { default?: null } = {}) => tecStr(d, V.isTime, o);
const postStatus = (d: string, o: { default?: null } = {}) => tecStr(d, V.isPostStatus, o);
const urlOrEmpty = (d: string) => tecStr(d, V.isUrlOrEmpty, { default: null });
const imageOrEmpty = (d: string) => tecStr(d, V.isImageOrEmpty, { default: null });

export function venueFields(required: boolean) {
  return {
    author: userId('The venue author ID'), date: postTime('The venue publication date'), date_utc: postTime('The venue publication date (UTC time zone)'),
    venue: tecStr('The venue name', V.isString, { required }),
    description: textOrEmpty('The venue description'), status: postStatus('The venue post status'),
    show_map: nullStr('Whether events linked to the venue should show a map or not'), show_map_link: nullStr('Whether events linked to the venue should show a map link or not'),
    address: textOrEmpty('The venue address'), city: textOrEmpty('The venue city'), country: textOrEmpty('The venue country'), province: textOrEmpty('The venue province'),
    state: textOrEmpty('The venue state'), zip: textOrEmpty('The venue ZIP code'), phone: textOrEmpty('The venue phone number'), stateprovince: textOrEmpty('The venue state and province'),
    website: urlOrEmpty('The venue website URL'), image: imageOrEmpty('The organizer featured image ID or URL'),
  };
}

export function organizerFields(required: boolean) {
  return {
    author: userId('The organizer author ID', { default: null }), date: postTime('The organizer publication date', { default: null }),
    date_utc: postTime('The organizer publication date (UTC time zone)', { default: null }),
    organizer: tecStr('The organizer name', V.isString, { required, default: null }),
    description: textOrEmpty('The organizer description'), status: postStatus('The organizer post status', { default: null }), phone: textOrEmpty('The organizer phone number'),
    website: urlOrEmpty('The organizer website'), email: textOrEmpty('The organizer e-mail address'), image: imageOrEmpty('The organizer featured image ID or URL'),
  };
}

/** The validate callbacks of a kind's create route, which an event's inline venue or organizer must pass (compiled once). */
const linkedCreate = new Map<LinkedKind, CompiledArg[]>();
function linkedCreateArgs(kind: LinkedKind): CompiledArg[] {
  let args = linkedCreate.get(kind);
  if (!args) {
    args = compileArgs(kind === 'venue' ? venueFields(true) : organizerFields(true)).filter((a) => hasValidateCallback(a.schema));
    linkedCreate.set(kind, args);
  }
  return args;
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
    search: tecStr(`${Name} should contain the specified string in the title, description or custom fields`, V.isString),
    event: tecInt(`${Name} should be related to this event`, V.castsToId, { lookup: isEventId }),
    has_events: documented(anything(`${Name} should have events associated to them`), { swagger_type: 'boolean' }),
    only_with_upcoming: documented(anything(`${Name} should have upcoming events associated to them`, { default: false }), { swagger_type: 'boolean' }),
    status: statusArg('The organizer post status'),
  };
}
export type LinkedListArgs = Args<ReturnType<typeof linkedListArgs>>;

const termLabel = (taxonomy: Taxonomy) => (taxonomy === 'category' ? 'event category' : 'event tag');

/** is_event_category / is_post_tag over a term ID (a path ID or a parent), then the declared integer type. */
export const termId = <const R extends boolean = false>(taxonomy: Taxonomy, description: string, o: { required?: R } = {}) =>
  tecInt(description, (v) => listToArray(v).length > 0, { ...o, lookup: everyItem(termFound(taxonomy)) });
const eventCategory = (description: string) => termId('category', description);

export function termListArgs(taxonomy: Taxonomy) {
  return {
    page: page(),
    per_page: perPage(taxonomy === 'category' ? 'event categories' : 'event tags'),
    search: tecStr('Limit results to those matching a string', V.isString),
    exclude: documented(termList(taxonomy, 'Ensure result set exclude specific IDs'), { swagger_type: 'array' }),
    include: documented(termList(taxonomy, 'Limit result set to specific IDs'), { swagger_type: 'array' }),
    order: tecStr('Order sort attribute ascending or descending', V.isString),
    orderby: tecStr('Sort collection by term attribute', V.isString),
    hide_empty: arg.boolean({ description: 'Whether to hide terms not assigned to any posts', default: '1' }),
    ...(taxonomy === 'category' ? { parent: eventCategory('Limit result set to terms assigned to a specific parent') } : {}),
    post: tecInt('Limit result set to terms assigned to a specific post', V.castsToId, { lookup: isEventId }),
    event: tecInt('Limit result set to terms assigned to a specific event (an alias of the "post" parameter)', V.castsToId, { lookup: isEventId }),
    slug: tecStr('Limit result set to terms with a specific slug', V.isString),
  };
}
export type TermListArgs = Args<ReturnType<typeof termListArgs>>;

export function termFields(taxonomy: Taxonomy, required: boolean) {
  const label = termLabel(taxonomy);
  return {
    name: tecStr(`The ${label} name`, V.isString, { required }),
    description: tecStr(`The ${label} description`, V.isString),
    slug: tecStr(`The ${label} slug`, V.isString),
    ...(taxonomy === 'category' ? { parent: eventCategory('The event category slug') } : {}),
  };
}
export type TermFields = Args<ReturnType<typeof termFields>>;
