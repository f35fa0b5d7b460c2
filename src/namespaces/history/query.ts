/**
 * The events list's arguments turned into a store filter: dates in the site's zone become GMT
 * bounds, `LoggerSlug:message_key` pairs are split, the reader's loggers are applied, and the
 * grouped or ungrouped path is chosen as the legacy query chooses it.
 */
import { fmt, wallToInstant } from '../../lib/time.ts';
import { can, type User } from '../../lib/roles.ts';
import type { Clock } from '../../clock.ts';
import { z } from 'zod';
import { arg, item, withValidateCallback } from '../../contract/args.ts';
import type { Args } from '../../contract/route.ts';
import type { HistoryFilter } from '../../store/history.ts';
import { invalidParam } from '../../contract/validate.ts';
import { ALL_LOGGERS, mayReadLogger } from '../../audit/loggers.ts';

export const INITIATORS = ['wp_user', 'web_user', 'wp', 'wp_cli', 'other'] as const;

const strings = (description: string) => arg.array(z.string(), { description });
const ints = (description: string) => arg.array(item.integer(), { description });
/** validate_initiator_param: one initiator or a list of them, each a known one; its messages name the parameter. */
const initiatorArg = (name: string, description: string) =>
  withValidateCallback(
    arg.untyped({ description, keywords: { type: ['string', 'array'], items: { type: 'string' } } }).superRefine((v, ctx) => {
      if (v === undefined) return;
      const fail = (message: string) => ctx.addIssue({ code: 'custom', message, params: { wp: { code: 'rest_invalid_param', message, data: { status: 400 } } } });
      const list = typeof v === 'string' ? [v] : v !== null && typeof v === 'object' ? Object.values(v) : null;
      if (list === null) return fail(`${name} must be a string or array of strings`);
      if (!list.every((i) => typeof i === 'string' && (INITIATORS as readonly string[]).includes(i))) fail(`${name} is not one of ${INITIATORS.join(', ')}`);
    }),
  );

/** The list routes' arguments (has-updates requires `since_id`), which the filter is built from. */
export function listArgs(sinceIdRequired: boolean) {
  return {
    // WP_REST_Controller's collection parameters name rest_validate_request_arg as their validate
    // callback; the plugin redeclares page and per_page without one (checked with the typed ones).
    context: withValidateCallback(arg.string({ description: 'Scope under which the request is made; determines fields present in response.', default: 'view' })),
    page: arg.integer({ description: 'Current page of the collection.', default: 1, minimum: 1 }),
    per_page: arg.integer({ description: 'Maximum number of items to be returned in result set.', default: 10, minimum: 1, maximum: 100 }),
    search: withValidateCallback(arg.string({ description: 'Limit results to those matching a string.' })),
    type: arg.enum(['overview', 'occasions'], { description: 'Type of result to return.', default: 'overview' }),
    logRowID: arg.integer({ description: 'Limit result set to rows with id lower than this.' }),
    occasionsID: arg.string({ description: 'Limit result set to rows with occasionsID equal to this.' }),
    occasionsCount: arg.integer({ description: 'The number of occasions to get.' }),
    occasionsCountMaxReturn: arg.integer({ description: 'The max number of occasions to return.' }),
    include: arg.array(item.integer(), { description: 'Limit result set to specific IDs.', default: null }),
    max_id_first_page: arg.integer({ description: 'Limit result set to rows with id equal or lower than this.' }),
    since_id: arg.integer({ description: 'Limit result set to rows with id greater than this, i.e. more recent than since_id.', required: sinceIdRequired }),
    since_date: arg.string({ description: 'Limit result set to events with date > since_date OR (date = since_date AND id > since_id). Use together with since_id for accurate new event detection.', format: 'date-time' }),
    date_from: arg.string({ description: 'Limit result set to rows with date greater than or equal to this unix timestamp.' }),
    date_to: arg.string({ description: 'Limit result set to rows with date less than or equal to this unix timestamp.' }),
    dates: strings('Limit result set to rows with date within this range.'),
    lastdays: arg.integer({ description: 'Limit result set to rows with date within this range.' }),
    months: strings('Limit result set to rows with date within this range. Format: Y-m.'),
    loglevels: strings('Limit result set to rows with log levels.'),
    loggers: strings('Limit result set to rows with loggers.'),
    messages: strings('Limit result set to rows with messages. Format: LoggerSlug:message.'),
    users: ints('Limit result set to rows with user ids.'),
    user: arg.integer({ description: 'Limit result set to rows with user id.' }),
    offset: arg.integer({ description: 'Offset the result set by a specific number of items.' }),
    include_sticky: arg.boolean({ description: 'Include sticky events in the result set.', default: false }),
    only_sticky: arg.boolean({ description: 'Only return sticky events.', default: false }),
    initiator: initiatorArg('initiator', 'Limit result set to events from specific initiator(s).'),
    context_filters: arg.object(null, { description: 'Context filters as key-value pairs to filter events by context data.' }, z.string()),
    // The legacy plugin has neither parameter, so it never refuses a value of them: a value that is
    // no string (or no address) is ignored rather than refused. The index still shows them as strings.
    ip_address: arg.untyped({ description: "Limit result set to events from this IP address. Anonymized IP addresses with a '.x' suffix are accepted.", keywords: { type: 'string' } }),
    metadata_search: arg.untyped({ description: 'Plain-text search in all event metadata.', keywords: { type: 'string' } }),
    ungrouped: arg.boolean({ description: 'Return ungrouped events without occasions grouping.', default: false }),
    surrounding_event_id: arg.integer({ description: 'Show events surrounding this event ID. Returns events chronologically before and after the specified event, regardless of other filters. Requires administrator privileges.' }),
    surrounding_count: arg.integer({ description: 'Number of events to show before AND after the surrounding_event_id. Default 5, max 50.', default: 5, minimum: 1, maximum: 50 }),
    exclude_search: arg.string({ description: 'Exclude events containing these words. Events matching this search will be hidden.' }),
    exclude_loglevels: strings('Exclude events with these log levels.'),
    exclude_loggers: strings('Exclude events from these loggers.'),
    exclude_messages: strings('Exclude events with these messages. Format: LoggerSlug:message.'),
    exclude_users: ints('Exclude events from these user IDs.'),
    exclude_user: arg.integer({ description: 'Exclude events from this user ID.' }),
    exclude_initiator: initiatorArg('exclude_initiator', 'Exclude events from specific initiator(s).'),
  };
}

export type ListArgs = Args<ReturnType<typeof listArgs>>;

/** Loggers the user may read; null when every logger is readable. */
export function readableLoggers(user: User | null): string[] | null {
  if (can(user, 'manage_options')) return null;
  return ALL_LOGGERS.filter((l) => mayReadLogger(user, l)).map((l) => l.slug);
}

function initiators(name: string, v: unknown): string[] | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const list = Array.isArray(v) ? v : [v];
  if (!list.every((x) => typeof x === 'string' && (INITIATORS as readonly string[]).includes(x))) {
    throw invalidParam(name, `${name} is not one of ${INITIATORS.join(', ')}`);
  }
  return list as string[];
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3}|x)$/;
function validIp(s: string): boolean {
  const m = IPV4.exec(s);
  if (m) return m.slice(1, 5).every((p) => p === 'x' || Number(p) <= 255);
  return /^[0-9a-f:]+(:x)?$/i.test(s) && s.includes(':');
}

function messagePairs(list: string[] | undefined) {
  return list?.map((m) => {
    const i = m.indexOf(':');
    return i < 0 ? { logger: m, key: '' } : { logger: m.slice(0, i), key: m.slice(i + 1) };
  });
}

/** A local wall time in the zone as a GMT `Y-m-d H:i:s`. */
function gmtOf(y: number, mo: number, d: number, h: number, mi: number, s: number, zone: string): string {
  return fmt(wallToInstant(new Date(Date.UTC(y, mo, d, h, mi, s)), zone));
}

/** `date_from`/`date_to`: a Unix timestamp, or `Y-m-d` (the start or the end of that day in the site's zone). */
function bound(v: string | undefined, end: boolean, zone: string): string | null {
  if (v === undefined || v === '') return null;
  if (/^\d+$/.test(v)) return fmt(new Date(Number(v) * 1000));
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (m) return end ? gmtOf(+m[1], +m[2] - 1, +m[3], 23, 59, 59, zone) : gmtOf(+m[1], +m[2] - 1, +m[3], 0, 0, 0, zone);
  const t = Date.parse(v.replace(' ', 'T'));
  return Number.isNaN(t) ? null : fmt(new Date(t));
}

function monthRange(ym: string, zone: string): [string, string] | null {
  const m = /^(\d{4})-(\d{2})$/.exec(ym);
  if (!m) return null;
  const y = +m[1];
  const mo = +m[2] - 1;
  const last = new Date(Date.UTC(y, mo + 1, 0)).getUTCDate();
  return [gmtOf(y, mo, 1, 0, 0, 0, zone), gmtOf(y, mo, last, 23, 59, 59, zone)];
}

export function buildFilter(a: ListArgs, reader: User | null, zone: string, clock: Clock): HistoryFilter {
  const words = a.search?.trim().split(/\s+/).filter(Boolean);
  const metadataSearch = typeof a.metadata_search === 'string' && a.metadata_search !== '' ? a.metadata_search : undefined;
  const f: HistoryFilter = {
    readable: readableLoggers(reader),
    // Searches list every matching event on its own, as the legacy query does.
    grouped: !a.ungrouped && !words?.length && !metadataSearch,
    include: a.include,
    words,
    excludeWords: a.exclude_search?.trim().split(/\s+/).filter(Boolean),
    metadataSearch,
    levels: a.loglevels,
    excludeLevels: a.exclude_loglevels,
    loggers: a.loggers,
    excludeLoggers: a.exclude_loggers,
    messages: messagePairs(a.messages),
    excludeMessages: messagePairs(a.exclude_messages),
    users: a.user !== undefined ? [...(a.users ?? []), a.user] : a.users,
    excludeUsers: a.exclude_user !== undefined ? [...(a.exclude_users ?? []), a.exclude_user] : a.exclude_users,
    initiators: initiators('initiator', a.initiator),
    excludeInitiators: initiators('exclude_initiator', a.exclude_initiator),
    sinceId: a.since_id,
    sinceDate: a.since_date,
    maxId: a.max_id_first_page,
    onlySticky: a.only_sticky,
  };
  if (a.since_date !== undefined && !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(a.since_date)) throw invalidParam('since_date', 'Invalid date.');
  if (typeof a.ip_address === 'string' && validIp(a.ip_address)) f.ip = a.ip_address;
  // Declared with string values (additionalProperties), so validation left only strings.
  if (a.context_filters !== undefined) f.contextFilters = a.context_filters as Record<string, string>;
  // date_from/date_to and lastdays narrow the list; months and `dates` entries are alternatives.
  const now = clock.now();
  const since = (n: number) => fmt(new Date(now.getTime() - n * 86_400_000));
  const after = [bound(a.date_from, false, zone), a.lastdays !== undefined ? since(a.lastdays) : null].filter((x) => x !== null).sort();
  if (after.length) f.after = after[after.length - 1];
  const before = bound(a.date_to, true, zone);
  if (before) f.before = before;
  const ranges: [string | null, string | null][] = [];
  for (const ym of a.months ?? []) {
    const r = monthRange(ym, zone);
    if (r) ranges.push(r);
  }
  for (const d of a.dates ?? []) {
    const month = /^month:(\d{4}-\d{2})$/.exec(d);
    const days = /^lastdays:(\d+)$/.exec(d);
    if (month) {
      const r = monthRange(month[1], zone);
      if (r) ranges.push(r);
    } else if (days) ranges.push([since(Number(days[1])), null]);
  }
  if (ranges.length) f.ranges = ranges;
  return f;
}
