/**
 * The legacy site's posts that are no calendar record: WordPress's posts and pages, attachments,
 * menus, reusable blocks, and the revisions of every post (calendar records' included). They share
 * the post ID space with the calendar, so the legacy answers to a calendar route naming one depend
 * on what it is, and Lintel must never hand out their IDs again.
 * Read as an administrator through `wp/v2`: `types` names every post type the API lists, each list
 * (edit context, every status, trash included) gives type, status, author and parent, and a post's
 * `version-history` link counts its revisions (`predecessor-version` names the latest; a post with
 * more is asked for its revisions list). The `wp/v2` event list hides past events: the events the
 * store holds that it does not show are asked for one by one.
 * Not reachable through the API without changing the legacy site, or not at all: templates saved as
 * posts, autosaves, oEmbed caches, customizer changesets, personal-data requests, the global styles
 * post, auto-drafts and deleted posts (their IDs may be given out again here).
 */
import { isRecordId } from '../store/ids.ts';
import type { LegacyPost } from '../store/legacy-posts.ts';
import type { Store } from '../store/store.ts';
import { IMPORTED_STATUSES } from './calendar.ts';
import { ImportError, type LegacyClient } from './client.ts';
import type { ImportResource } from './resource.ts';

/** The list's largest page. */
const PER_PAGE = 100;
/** The calendar's own post types: imported as records, only their revisions are read here. */
const CALENDAR_TYPES = new Set(['tribe_events', 'tribe_venue', 'tribe_organizer']);
/**
 * Never read: listing the block templates makes the calendar plugin save its own templates as posts
 * (three posts and a `wp_theme` term on the seeded site), and the import must change nothing there.
 */
const UNREAD_TYPES = new Set(['wp_template', 'wp_template_part']);
/** Every status an administrator may list; attachments have their own. */
const STATUSES = [...IMPORTED_STATUSES, 'trash'];
const ATTACHMENT_STATUSES = ['inherit', 'private', 'trash'];

interface PostType {
  slug: string;
  rest_base?: string;
  rest_namespace?: string;
}

interface Listed {
  id: number;
  type?: string;
  status?: string;
  author?: number;
  parent?: number;
  _links?: { 'version-history'?: { count?: number }[]; 'predecessor-version'?: { id?: number }[] };
}

const FIELDS = 'id,type,status,author,parent,_links.version-history,_links.predecessor-version';

/** A listed post as kept here. */
function postOf(x: Listed, type: string): LegacyPost | null {
  const id = Number(x.id);
  if (!isRecordId(id)) return null;
  return { id, post_type: x.type ?? type, status: x.status ?? 'publish', author: Number(x.author ?? 0), parent: Number(x.parent ?? 0) };
}

/** Every page of a `wp/v2` list. */
async function allPages(client: LegacyClient, route: string, query: Record<string, string | number>): Promise<Listed[]> {
  const out: Listed[] = [];
  for (let page = 1, pages = 1; page <= pages; page++) {
    const l = await client.list<Listed>(route, { ...query, context: 'edit', per_page: PER_PAGE, page, _fields: FIELDS });
    out.push(...l.items);
    pages = l.totalPages;
  }
  return out;
}

/** Whether a failed read is the legacy site answering this code. */
const refusedWith = (e: unknown, code: string) => e instanceof ImportError && e.code === code;

/**
 * A type's posts in every status. A list that refuses the set (it has statuses of its own) is read a
 * status at a time, skipping those it refuses: a read without the filter would list only what is
 * published, and the sync would forget the type's drafts. A type with no list route (the global
 * styles, read by ID) has none to read.
 */
async function postsOfType(client: LegacyClient, t: PostType): Promise<Listed[]> {
  const route = `wp/v2/${t.rest_base}`;
  const statuses = t.slug === 'attachment' ? ATTACHMENT_STATUSES : STATUSES;
  try {
    return await allPages(client, route, { status: statuses.join(',') });
  } catch (e) {
    if (refusedWith(e, 'rest_no_route')) return [];
    if (!refusedWith(e, 'rest_invalid_param')) throw e;
  }
  const out: Listed[] = [];
  for (const status of statuses) {
    try {
      out.push(...(await allPages(client, route, { status })));
    } catch (e) {
      if (!refusedWith(e, 'rest_invalid_param')) throw e;
    }
  }
  return out;
}

/** The revisions of a listed post: the latest from its links, the others from its revisions list. */
async function revisionsOf(client: LegacyClient, t: PostType, x: Listed): Promise<LegacyPost[]> {
  const count = x._links?.['version-history']?.[0]?.count ?? 0;
  const latest = x._links?.['predecessor-version']?.[0]?.id;
  const parent = Number(x.id);
  if (count === 0) return [];
  const listed: Listed[] = count === 1 && latest ? [{ id: latest }] : await allPages(client, `wp/v2/${t.rest_base}/${parent}/revisions`, {});
  return listed.flatMap((r) => postOf({ ...r, type: 'revision', status: 'inherit', parent }, 'revision') ?? []);
}

/** The imported events the `wp/v2` list does not show (past events), each read on its own; one deleted since is left out. */
async function pastEvents(client: LegacyClient, target: Store, listed: Listed[]): Promise<Listed[]> {
  const shown = new Set(listed.map((x) => Number(x.id)));
  const held = [...(await target.calendar.importedIds('listed-event', IMPORTED_STATUSES)), ...(await target.calendar.importedIds('unlisted-event', IMPORTED_STATUSES))];
  const imported = [...(await target.importCheckpoints.imported('calendar.events', held)), ...(await target.importCheckpoints.imported('calendar.unlisted-events', held))];
  const out: Listed[] = [];
  for (const id of new Set(imported.filter((id) => !shown.has(id)))) {
    try {
      out.push((await client.get<Listed>(`wp/v2/tribe_events/${id}`, { context: 'edit', _fields: FIELDS })).body);
    } catch (e) {
      if (!refusedWith(e, 'rest_post_invalid_id')) throw e;
    }
  }
  return out;
}

/** Every post the API shows that is no calendar record, and every revision. */
async function legacyPosts(client: LegacyClient, target: Store): Promise<LegacyPost[]> {
  const { body: types } = await client.get<Record<string, PostType>>('wp/v2/types', { context: 'edit' });
  // Keyed by ID: the site is live while it is read, and a post moved across a page boundary is listed twice.
  const out = new Map<number, LegacyPost>();
  const keep = (p: LegacyPost | null) => {
    if (p) out.set(p.id, p);
  };
  // Nested routes (a font family's faces) and other namespaces' types are not listed on their own.
  for (const t of Object.values(types).filter((t) => t.rest_base && t.rest_namespace === 'wp/v2' && !t.rest_base.includes('(') && !UNREAD_TYPES.has(t.slug))) {
    const listed = await postsOfType(client, t);
    if (!CALENDAR_TYPES.has(t.slug)) for (const x of listed) keep(postOf(x, t.slug));
    if (t.slug === 'tribe_events') listed.push(...(await pastEvents(client, target, listed)));
    for (const x of listed) for (const r of await revisionsOf(client, t, x)) keep(r);
  }
  return [...out.values()].sort((a, b) => a.id - b.id);
}

function legacyPostResource(client: LegacyClient): ImportResource<LegacyPost> {
  return {
    name: 'calendar.legacy-posts',
    family: 'calendar',
    // One page: the posts are read type by type, each list to its end (a few small fields each).
    async fetchPage(page, target) {
      const records = await legacyPosts(client, target);
      return { page, records, total: records.length, totalPages: 1 };
    },
    writeBatch: (store, rows) => store.legacyPosts.importPosts(rows),
    sample: (store, ids) => store.legacyPosts.many(ids),
    storedIds: (store) => store.legacyPosts.ids(),
    remove: (store, ids) => store.legacyPosts.remove(ids),
  };
}

export function legacyPostResources(client: LegacyClient): ImportResource[] {
  return [legacyPostResource(client)] as ImportResource[];
}
