/** The routes of `calendar/events/v1`, declared with the legacy index's descriptors. */
import { can } from '../../auth/roles.ts';
import { arg, item } from '../../contract/args.ts';
import { needs, perRecord, publicAccess, type Permission } from '../../contract/permission.ts';
import { endpoint, route, type ArgShape, type RouteDecl } from '../../contract/route.ts';
import type { RestContext } from '../../http/context.ts';
import type { Services } from '../../services.ts';
import type { LinkedKind, Taxonomy } from '../../store/calendar.ts';
import * as A from './args.ts';
import { NAMESPACE, invalidParam } from './common.ts';
import { openApi } from './doc.ts';
import { createEvent, deleteEvent, eventArchive, loadEvent, readEvent, updateEvent } from './events.ts';
import { createLinked, deleteLinked, linkedArchive, linkedBySlug, loadLinked, readLinked, updateLinked } from './linked.ts';
import { createTerm, deleteTerm, loadTerm, termArchive, termBody, updateTerm } from './terms.ts';

const P = (path: string) => `/${NAMESPACE}${path}`;
/** Creates, updates and deletes may run inside batch/v1 (`batch: false` in mappings restores the legacy refusal). */
const write: typeof endpoint = (e) => endpoint({ ...e, allowBatch: true });
const ID = '(?P<id>\\d+)';
const SLUG = '(?P<slug>[^/]+)';

/** Creates need an author (publish rights); writes on a record are checked against it by the handler. */
const author: Permission = needs('edit_posts');
const loggedWriter: Permission = perRecord(() => true, (u) => u !== null && can(u, 'edit_posts'));

export const eventListArgs = {
  page: A.page(),
  per_page: A.perPage('events'),
  start_date: A.time('Events that start on the specified date'),
  end_date: A.time('Events that end on the specified date'),
  starts_before: A.time('Events that start before the specified date'),
  starts_after: A.time('Events that start after the specified date'),
  ends_before: A.time('Events that end before the specified date'),
  ends_after: A.time('Events that end after the specified date'),
  strict_dates: A.anything('Dates set using the start_date/end_date, starts_*/ends_* are set to start at the specified times. The default behavior is to include the entire days.', { default: 'false' }),
  search: A.nonEmptyString('Events should contain the specified string in the title or description'),
  categories: A.idsOrSlugs('Events should be assigned one of the specified categories slugs or IDs'),
  tags: A.idsOrSlugs('Events should be assigned one of the specified tags slugs or IDs'),
  venue: A.idsOrSlugs('Events should be assigned one of the specified venue IDs'),
  organizer: A.idsOrSlugs('Events should be assigned one of the specified organizer IDs'),
  featured: A.bool('Events should be filtered by their featured status'),
  status: A.statusArg('The event post status'),
  geoloc: A.bool('Requires Events Calendar Pro. Events should be filtered by whether their venue has geolocation data'),
  geoloc_lat: A.double('Requires Events Calendar Pro. Events should be filtered by their venue latitude location, must also provide geoloc_lng'),
  geoloc_lng: A.double('Requires Events Calendar Pro. Events should be filtered by their venue longitude location, must also provide geoloc_lat'),
  include: A.ids('Include events with one of the post IDs specified in the array of CSV list, date filters will be ignored.'),
  post_parent: A.int('Events should be filtered by their post_parent being the specified one.'),
  ticketed: A.bool('Filter events with or without tickets.'),
};

const listOf = (description: string) => arg.untyped({ description, default: null, keywords: { items: { type: 'integer' } } });

/** Shows a default in the index without applying it: an update must only change what was sent. */
function shownDefault<T extends ReturnType<typeof arg.boolean>>(schema: T, value: unknown): T {
  return schema.meta({ ...(schema.meta() ?? {}), default: value }) as T;
}

function eventWriteArgs(required: boolean): ArgShape {
  const req = (d: string) => (required ? arg.string({ description: d, required: true }) : A.str(d));
  return {
    author: A.int('The event author ID'),
    date: A.str('The event publication date'),
    date_utc: A.str('The event publication date (UTC time zone)'),
    title: req('The event title'),
    description: A.str('The event description'),
    slug: A.str('The event slug'),
    excerpt: A.str('The event excerpt'),
    status: A.str('The event post status'),
    timezone: A.str('The event time zone'),
    all_day: required
      ? arg.boolean({ description: 'Whether the event lasts the whole day or not', default: false })
      : shownDefault(arg.boolean({ description: 'Whether the event lasts the whole day or not' }), false),
    start_date: req('The event start date and time'),
    end_date: req('The event end date and time'),
    image: A.str('The event featured image ID or URL'),
    cost: A.anything('The event cost'),
    website: A.anything('The event website URL', { default: null }),
    show_map: A.bool('Whether the event should show a map or not'),
    show_map_link: A.bool('Whether the event should show a map link or not'),
    hide_from_listings: A.bool('Whether events should be hidden in the calendar view or not'),
    sticky: A.bool('Whether the event should be sticky in the calendar view or not'),
    featured: A.bool('Whether the event should be featured on the site or not'),
    categories: listOf('The event category ID or name'),
    tags: listOf('The event tag ID or name'),
    venue: listOf('The event venue IDs or data'),
    organizer: listOf('The event organizer IDs or data'),
  };
}

const eventId = { id: arg.integer({ description: 'the event post ID', required: true }), password: A.str('The event password') };
const eventSlug = { slug: arg.string({ description: 'the event post name', required: true }) };

async function eventBySlug(ctx: RestContext, slug: string) {
  const e = await ctx.store.calendar.eventBySlug(slug);
  if (!e) throw invalidParam('slug');
  return e;
}

function eventRoutes(geoRadiusKm: number): RouteDecl[] {
  const update = (find: (ctx: RestContext, a: any) => ReturnType<typeof loadEvent>, args: ArgShape) =>
    write({ methods: ['POST', 'PUT', 'PATCH'], args, permission: loggedWriter, handler: async (ctx, a: any) => updateEvent(ctx, await find(ctx, a), a) });
  return [
    route(NAMESPACE, P('/events'),
      endpoint({ methods: ['GET'], args: eventListArgs, permission: publicAccess, handler: (ctx, a: any) => eventArchive(ctx, a, geoRadiusKm) }),
      write({ methods: ['POST'], args: eventWriteArgs(true), permission: author, handler: (ctx, a: any) => createEvent(ctx, a) })),
    route(NAMESPACE, P(`/events/${ID}`),
      endpoint({ methods: ['GET'], args: eventId, permission: publicAccess, handler: async (ctx, a: any) => readEvent(ctx, await loadEvent(ctx, a.id), a.password) }),
      write({ methods: ['DELETE'], args: eventId, permission: loggedWriter, handler: async (ctx, a: any) => deleteEvent(ctx, await loadEvent(ctx, a.id)) }),
      update((ctx, a) => loadEvent(ctx, a.id), { ...eventId, ...eventWriteArgs(false) })),
    route(NAMESPACE, P(`/events/by-slug/${SLUG}`),
      endpoint({ methods: ['GET'], args: eventSlug, permission: publicAccess, handler: async (ctx, a: any) => readEvent(ctx, await eventBySlug(ctx, a.slug), undefined) }),
      write({ methods: ['DELETE'], args: eventSlug, permission: loggedWriter, handler: async (ctx, a: any) => deleteEvent(ctx, await eventBySlug(ctx, a.slug)) }),
      // The slug as matched in the path (a body's `slug` is the new one), decoded once with the URL, as in WordPress.
      update((ctx) => eventBySlug(ctx, ctx.route.split('/by-slug/')[1] ?? ''), eventWriteArgs(false))),
  ];
}

function linkedRoutes(kind: LinkedKind): RouteDecl[] {
  const plural = kind === 'venue' ? 'venues' : 'organizers';
  const Name = kind === 'venue' ? 'Venues' : 'Organizers';
  const listArgs = {
    page: A.page(),
    per_page: A.perPage(plural),
    search: A.nonEmptyString(`${Name} should contain the specified string in the title, description or custom fields`),
    event: A.int(`${Name} should be related to this event`),
    has_events: A.anything(`${Name} should have events associated to them`),
    only_with_upcoming: A.anything(`${Name} should have upcoming events associated to them`, { default: false }),
    status: A.statusArg('The organizer post status'),
  };
  const nul = (d: string) => A.str(d, { default: null });
  const fields = (required: boolean): ArgShape => kind === 'venue'
    ? {
      author: A.int('The venue author ID'), date: A.str('The venue publication date'), date_utc: A.str('The venue publication date (UTC time zone)'),
      venue: required ? arg.string({ description: 'The venue name', required: true }) : A.str('The venue name'),
      description: nul('The venue description'), status: A.str('The venue post status'),
      show_map: nul('Whether events linked to the venue should show a map or not'), show_map_link: nul('Whether events linked to the venue should show a map link or not'),
      address: nul('The venue address'), city: nul('The venue city'), country: nul('The venue country'), province: nul('The venue province'),
      state: nul('The venue state'), zip: nul('The venue ZIP code'), phone: nul('The venue phone number'), stateprovince: nul('The venue state and province'),
      website: nul('The venue website URL'), image: nul('The organizer featured image ID or URL'),
    }
    : {
      author: A.int('The organizer author ID', { default: null }), date: nul('The organizer publication date'), date_utc: nul('The organizer publication date (UTC time zone)'),
      organizer: required ? arg.string({ description: 'The organizer name', required: true, default: null } as never) : nul('The organizer name'),
      description: nul('The organizer description'), status: nul('The organizer post status'), phone: nul('The organizer phone number'),
      website: nul('The organizer website'), email: nul('The organizer e-mail address'), image: nul('The organizer featured image ID or URL'),
    };
  const idArg = { id: arg.integer({ description: `the ${kind} post ID`, required: true }) };
  const slugArg = { slug: arg.string({ description: `the ${kind} post name`, required: true }) };
  const byId = (ctx: RestContext, a: any) => loadLinked(ctx, kind, a.id);
  const bySlug = (ctx: RestContext, a: any) => linkedBySlug(ctx, kind, a.slug);
  const item3 = (args: ArgShape, find: typeof byId, updateArgs: ArgShape) => [
    endpoint({ methods: ['GET'], args, permission: publicAccess, handler: async (ctx, a: any) => readLinked(ctx, kind, await find(ctx, a)) }),
    write({ methods: ['DELETE'], args, permission: loggedWriter, handler: async (ctx, a: any) => deleteLinked(ctx, kind, await find(ctx, a)) }),
    write({ methods: ['POST', 'PUT', 'PATCH'], args: updateArgs, permission: loggedWriter, handler: async (ctx, a: any) => updateLinked(ctx, kind, await find(ctx, a), a) }),
  ];
  return [
    route(NAMESPACE, P(`/${plural}`),
      endpoint({ methods: ['GET'], args: listArgs, permission: publicAccess, handler: (ctx, a: any) => linkedArchive(ctx, kind, a) }),
      write({ methods: ['POST'], args: fields(true), permission: author, handler: (ctx, a: any) => createLinked(ctx, kind, a) })),
    route(NAMESPACE, P(`/${plural}/${ID}`), ...item3(idArg, byId, { ...idArg, ...fields(false) })),
    route(NAMESPACE, P(`/${plural}/by-slug/${SLUG}`), ...item3(slugArg, bySlug, { ...slugArg, ...fields(false) })),
  ];
}

function termRoutes(taxonomy: Taxonomy): RouteDecl[] {
  const plural = taxonomy === 'category' ? 'categories' : 'tags';
  const label = taxonomy === 'category' ? 'event category' : 'event tag';
  const listArgs: ArgShape = {
    page: A.page(),
    per_page: A.perPage(`${label === 'event category' ? 'event categories' : 'event tags'}`),
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
  const fields = (required: boolean): ArgShape => ({
    name: arg.string({ description: `The ${label} name`, required }),
    description: arg.string({ description: `The ${label} description` }),
    slug: arg.string({ description: `The ${label} slug` }),
    ...(taxonomy === 'category' ? { parent: arg.integer({ description: 'The event category slug' }) } : {}),
  });
  // Categories are managed by authors and up, tags by editors (the legacy capabilities).
  const manage: Permission = needs(taxonomy === 'category' ? 'publish_posts' : 'manage_categories');
  const idArg = { id: arg.integer({ description: `the ${label} term ID`, required: true }) };
  const find = (ctx: RestContext, a: any) => loadTerm(ctx, taxonomy, a.id);
  return [
    route(NAMESPACE, P(`/${plural}`),
      endpoint({ methods: ['GET'], args: listArgs, permission: publicAccess, handler: (ctx, a: any) => termArchive(ctx, taxonomy, a) }),
      write({ methods: ['POST'], args: fields(true), permission: manage, handler: (ctx, a: any) => createTerm(ctx, taxonomy, a) })),
    route(NAMESPACE, P(`/${plural}/${ID}`),
      endpoint({ methods: ['GET'], args: idArg, permission: publicAccess, handler: async (ctx, a: any) => ({ body: await termBody(ctx, await find(ctx, a)) }) }),
      write({ methods: ['POST', 'PUT', 'PATCH'], args: { ...idArg, ...fields(false) }, permission: manage, handler: async (ctx, a: any) => updateTerm(ctx, await find(ctx, a), a) }),
      write({ methods: ['DELETE'], args: idArg, permission: manage, handler: async (ctx, a: any) => deleteTerm(ctx, await find(ctx, a)) })),
  ];
}

export function calendarRoutes(services: Pick<Services, 'config'>): RouteDecl[] {
  const routes: RouteDecl[] = [];
  const doc = route(NAMESPACE, P('/doc'), endpoint({ methods: ['GET'], args: {}, permission: publicAccess, handler: (ctx) => ({ body: openApi(ctx, routes) }) }));
  routes.push(doc, ...eventRoutes(services.config.calendarGeoRadiusKm), ...linkedRoutes('venue'), ...linkedRoutes('organizer'), ...termRoutes('category'), ...termRoutes('tag'));
  return routes;
}

