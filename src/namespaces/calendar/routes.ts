/** The routes of `calendar/events/v1`, declared with the legacy index's descriptors. */
import { lastOf } from '../../lib/php-params.ts';
import { can } from '../../lib/roles.ts';
import { needs, onRequest, perRecord, publicAccess, type Permission } from '../../contract/permission.ts';
import { endpoint, route, type ArgShape, type Args, type RouteDecl } from '../../contract/route.ts';
import { json } from '../../contract/reply.ts';
import { writeEndpoint as write } from '../../contract/write-endpoint.ts';
import { invalidParam } from '../../contract/validate.ts';
import type { RestContext } from '../../contract/context.ts';
import type { EventRow, LinkedKind, Taxonomy } from '../../store/calendar.ts';
import * as A from './args.ts';
import { NAMESPACE, canEdit, forbidden, mayChangePost } from './common.ts';
import { legacyDoc, openApi } from './doc.ts';
import { archive, Event, Organizer, Term, Venue } from './schemas.ts';
import { createEvent, deleteEvent, eventArchive, loadEvent, readEvent, updateEvent } from './events.ts';
import { createLinked, deleteLinked, linkedArchive, linkedBySlug, loadLinked, readLinked, updateLinked } from './linked.ts';
import { TERM_MANAGER, createTerm, deleteTerm, loadTerm, termArchive, termBody, updateTerm } from './terms.ts';
import { recordByPath, termName } from './lookups.ts';
import { ksesNoNull } from '../../lib/legacy-html.ts';
import { onEntries, onText } from '../../contract/save-filters.ts';

const P = (path: string) => `/${NAMESPACE}${path}`;
const ID = '(?P<id>\\d+)';
const SLUG = '(?P<slug>[^/]+)';

/** Creates need an author (publish rights); writes on a record are checked against it by the handler. */
const author: Permission = needs('edit_posts');
const loggedWriter: Permission = perRecord(() => true, (u) => u !== null && can(u, 'edit_posts'));
/**
 * Writes by ID: the legacy callbacks check edit_post/delete_post on the post `$request['id']` names
 * (the query's or body's `id` before the path's), of any kind, read as get_post reads it (PHP's
 * (int)); none (empty) is the capability alone, and so is, for an event, a post that does not exist.
 * A refusal is the callback's (403 `rest_forbidden`), ahead of the handler's lookup: a revision or
 * another post of the legacy site is refused before it is found to be no event.
 */
const recordWriter = (missing: boolean, action: 'edit' | 'delete') => {
  const passes = async (ctx: RestContext) => {
    const raw = lastOf(ctx.params.id);
    if (A.isEmpty(raw)) return true;
    // A list is post 1, WordPress's first post (by the administrator who installed it): when the import did not bring it, another's published post.
    const verdict = await mayChangePost(ctx, typeof raw === 'object' ? 1 : A.phpInt(raw), action);
    return verdict ?? (typeof raw === 'object' ? canEdit(ctx, { author: 0, status: 'publish' }) : missing);
  };
  return onRequest(perRecord(async (ctx) => (await passes(ctx)) || forbidden(ctx), loggedWriter.allows), passes);
};
const [eventEditor, eventDeleter] = [recordWriter(true, 'edit'), recordWriter(true, 'delete')];
const [linkedEditor, linkedDeleter] = [recordWriter(false, 'edit'), recordWriter(false, 'delete')];

const eventId = { id: A.tecInt('the event post ID', A.V.isNumericId, { required: true }), password: A.documented(A.tecStr('The event password', A.V.isString), { in: 'path' }) };
const eventSlug = { slug: A.tecStr('the event post name', A.V.isString, { required: true, lookup: async (ctx, v) => (await recordByPath(ctx, 'event', v as string)) !== null }) };

const { slug: createSlug, ...eventUpdateFields } = A.eventWriteArgs(false);
const eventEditArgs = { slug: createSlug, ...eventUpdateFields };

async function eventBySlug(ctx: RestContext, slug: string) {
  const e = await recordByPath(ctx, 'event', slug);
  if (!e) throw invalidParam('slug');
  return e;
}

// Of kses_init's filters, the part that drops control characters (markup stays: calendar-kses-markup).
const ksesText = onText(ksesNoNull);
/** A venue's or organizer's name (its post's title) and description (its content): kses_init's filters, for a caller without unfiltered_html. */
const linkedFilters = (kind: LinkedKind) => ({ [kind]: ksesText, description: ksesText });
/**
 * An event's title, description (its content) and excerpt, and the name and description of a venue
 * or organizer it creates: kses_init's filters, for a caller without unfiltered_html.
 */
const eventFilters = {
  args: { title: ksesText, description: ksesText, excerpt: ksesText, venue: onEntries(linkedFilters('venue')), organizer: onEntries(linkedFilters('organizer')) },
  unlessUnfilteredHtml: true,
} as const;
/** A term's name and description: pre_term_name's and pre_term_description's filters, for every caller. */
const termFilters = { args: { name: onText(termName), description: ksesText } };

function eventRoutes(): RouteDecl[] {
  const update = <S extends ReturnType<typeof A.eventWriteArgs>>(find: (ctx: RestContext, a: Args<S>) => Promise<EventRow>, args: S, permission = loggedWriter) =>
    write({ methods: ['POST', 'PUT', 'PATCH'], args, saveFilters: eventFilters, response: json(Event), permission, handler: async (ctx, a) => updateEvent(ctx, await find(ctx, a), a) });
  return [
    route(NAMESPACE, P('/events'),
      endpoint({ methods: ['GET'], args: A.eventListArgs, response: json(archive('events', Event)), permission: publicAccess, handler: (ctx, a) => eventArchive(ctx, a) }),
      write({ methods: ['POST'], args: A.eventWriteArgs(true), saveFilters: eventFilters, response: json(Event, 201), permission: author, handler: (ctx, a) => createEvent(ctx, a) })),
    route(NAMESPACE, P(`/events/${ID}`),
      endpoint({ methods: ['GET'], args: eventId, response: json(Event), permission: publicAccess, handler: async (ctx, a) => readEvent(ctx, await loadEvent(ctx, a.id), a.password) }),
      write({ methods: ['DELETE'], args: eventId, response: json(Event), permission: eventDeleter, handler: async (ctx, a) => deleteEvent(ctx, await loadEvent(ctx, a.id)) }),
      update((ctx, a) => loadEvent(ctx, a.id), { ...eventId, ...A.eventWriteArgs(false) }, eventEditor)),
    route(NAMESPACE, P(`/events/by-slug/${SLUG}`),
      endpoint({ methods: ['GET'], args: eventSlug, response: json(Event), permission: publicAccess, handler: async (ctx, a) => readEvent(ctx, await eventBySlug(ctx, a.slug), undefined) }),
      write({ methods: ['DELETE'], args: eventSlug, response: json(Event), permission: loggedWriter, handler: async (ctx, a) => deleteEvent(ctx, await eventBySlug(ctx, a.slug)) }),
      // EDIT_args is array_merge(READ_args, CREATE_args): the create `slug` (is_string) takes the path's place, first. The
      // callback looks up `$request['slug']` (a sent slug before the path's) and updates the event found, or ID 0: not found.
      update(async (ctx, a) => (await recordByPath(ctx, 'event', a.slug ?? '')) ?? loadEvent(ctx, 0), eventEditArgs)),
  ];
}

function linkedRoutes(kind: LinkedKind): RouteDecl[] {
  const plural = kind === 'venue' ? 'venues' : 'organizers';
  const object = kind === 'venue' ? Venue : Organizer;
  const fields = (required: boolean) => (kind === 'venue' ? A.venueFields(required) : A.organizerFields(required));
  const saveFilters = { args: linkedFilters(kind), unlessUnfilteredHtml: true } as const;
  const idArg = { id: A.linkedId(kind, `the ${kind} post ID`) };
  const slugArg = { slug: A.tecStr(`the ${kind} post name`, A.V.isString, { required: true, lookup: async (ctx, v) => (await recordByPath(ctx, kind, v as string)) !== null }) };
  const byId = (ctx: RestContext, a: { id: number }) => loadLinked(ctx, kind, a.id);
  const bySlug = (ctx: RestContext, a: { slug: string }) => linkedBySlug(ctx, kind, a.slug);
  const item3 = <S extends ArgShape>(args: S, find: (ctx: RestContext, a: Args<S>) => ReturnType<typeof loadLinked>, editor: Permission, deleter = editor) => [
    endpoint({ methods: ['GET'], args, response: json(object), permission: publicAccess, handler: async (ctx, a) => readLinked(ctx, kind, await find(ctx, a)) }),
    write({ methods: ['DELETE'], args, response: json(object), permission: deleter, handler: async (ctx, a) => deleteLinked(ctx, kind, await find(ctx, a)) }),
    write({ methods: ['POST', 'PUT', 'PATCH'], args: { ...args, ...fields(false) }, saveFilters, response: json(object), permission: editor, handler: async (ctx, a) => updateLinked(ctx, kind, await find(ctx, a), a) }),
  ];
  return [
    route(NAMESPACE, P(`/${plural}`),
      endpoint({ methods: ['GET'], args: A.linkedListArgs(kind), response: json(archive(plural, object)), permission: publicAccess, handler: (ctx, a) => linkedArchive(ctx, kind, a) }),
      write({ methods: ['POST'], args: fields(true), saveFilters, response: json(object, 201), permission: author, handler: (ctx, a) => createLinked(ctx, kind, a) })),
    route(NAMESPACE, P(`/${plural}/${ID}`), ...item3(idArg, byId, linkedEditor, linkedDeleter)),
    route(NAMESPACE, P(`/${plural}/by-slug/${SLUG}`), ...item3(slugArg, bySlug, loggedWriter)),
  ];
}

function termRoutes(taxonomy: Taxonomy): RouteDecl[] {
  const plural = taxonomy === 'category' ? 'categories' : 'tags';
  const label = taxonomy === 'category' ? 'event category' : 'event tag';
  const manage: Permission = needs(TERM_MANAGER[taxonomy]);
  const idArg = { id: A.termId(taxonomy, `the ${label} term ID`, { required: true }) };
  const find = (ctx: RestContext, a: { id: number }) => loadTerm(ctx, taxonomy, a.id);
  return [
    route(NAMESPACE, P(`/${plural}`),
      endpoint({ methods: ['GET'], args: A.termListArgs(taxonomy), response: json(archive(plural, Term)), permission: publicAccess, handler: (ctx, a) => termArchive(ctx, taxonomy, a) }),
      write({ methods: ['POST'], args: A.termFields(taxonomy, true), saveFilters: termFilters, response: json(Term, 201), permission: manage, handler: (ctx, a) => createTerm(ctx, taxonomy, a) })),
    route(NAMESPACE, P(`/${plural}/${ID}`),
      endpoint({ methods: ['GET'], args: idArg, response: json(Term), permission: publicAccess, handler: async (ctx, a) => ({ body: await termBody(ctx, await find(ctx, a)) }) }),
      write({ methods: ['POST', 'PUT', 'PATCH'], args: { ...idArg, ...A.termFields(taxonomy, false) }, saveFilters: termFilters, response: json(Term), permission: manage, handler: async (ctx, a) => updateTerm(ctx, await find(ctx, a), a) }),
      write({ methods: ['DELETE'], args: idArg, response: json(Term), permission: manage, handler: async (ctx, a) => deleteTerm(ctx, await find(ctx, a)) })),
  ];
}

export function calendarRoutes(): RouteDecl[] {
  const routes: RouteDecl[] = [];
  const doc = route(NAMESPACE, P('/doc'), endpoint({ methods: ['GET'], args: {}, response: json(legacyDoc), summary: 'The legacy OpenAPI 3.0 document of this namespace', permission: publicAccess, handler: (ctx) => ({ body: openApi(ctx, routes) }) }));
  routes.push(doc, ...eventRoutes(), ...linkedRoutes('venue'), ...linkedRoutes('organizer'), ...termRoutes('category'), ...termRoutes('tag'));
  return routes;
}

