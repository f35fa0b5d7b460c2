/**
 * A "legacy site" for import tests: a Lintel with the demo data and extra records, listening on
 * 127.0.0.1. Lintel serves the legacy contract (and `tribe/events/v1` as an alias) but not WordPress's
 * `wp/v2` routes; those the importer reads (events' passwords, the user list; edit context,
 * administrators only) are added here, answered from the source store as the legacy site answers them.
 */
import type { AddressInfo } from 'node:net';
import { seedDemoOnce } from '../../src/bootstrap.ts';
import { systemClock } from '../../src/clock.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { testStore } from '../support/store.ts';

/** A post of the legacy site that is no calendar record (a post, a page, a menu, a revision), as `wp/v2` shows it. */
export interface WpPost {
  id: number;
  type: string;
  status: string;
  author: number;
  parent: number;
}

export interface LegacySite {
  app: TestApp;
  /** WordPress's own posts and the revisions (of them and of events); change it to change the site. */
  wpPosts: WpPost[];
  url: string;
  login: string;
  password: string;
  admin: string;
  call(method: string, url: string, body?: unknown): Promise<{ statusCode: number; json(): any }>;
}

/** `extend`: more of the legacy site (routes, hooks), added before it listens. */
export async function legacySite(extend?: (app: TestApp, admin: string) => void): Promise<LegacySite> {
  const store = await testStore();
  await seedDemoOnce(store, systemClock);
  const app = await testApp({ store });
  const admin = await app.auth('administrator');
  const [login, password] = Buffer.from(admin.slice('Basic '.length), 'base64').toString().split(':');
  // A fresh WordPress: its first post, the sample page and the draft privacy page (the demo's calendar starts at post 4).
  const wpPosts: WpPost[] = [
    { id: 1, type: 'post', status: 'publish', author: 1, parent: 0 },
    { id: 2, type: 'page', status: 'publish', author: 1, parent: 0 },
    { id: 3, type: 'page', status: 'draft', author: 1, parent: 0 },
  ];
  legacyPostRoutes(app, admin, wpPosts);
  extend?.(app, admin);
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
  const call = (method: string, path: string, body?: unknown) =>
    app.server.inject({ method: method as 'GET', url: `/wp-json/${path}`, headers: { authorization: admin, ...(body ? { 'content-type': 'application/json' } : {}) }, payload: body ? JSON.stringify(body) : undefined });
  return { app, url, login, password, admin, wpPosts, call };
}

/** The records a real site has beyond the demo: a draft, a protected event, a hidden one, a child category, redirects in two groups, a changed setting. */
export async function addExtraRecords(site: LegacySite): Promise<{ protectedId: number; draftId: number; hiddenId: number }> {
  const ok = async (p: Promise<{ statusCode: number; json(): any }>) => {
    const res = await p;
    if (res.statusCode >= 300) throw new Error(`${res.statusCode} ${JSON.stringify(res.json())}`);
    return res.json();
  };
  const parent = (await ok(site.call('GET', 'calendar/events/v1/categories?per_page=1'))).categories[0];
  const child = await ok(site.call('POST', 'calendar/events/v1/categories', { name: 'Late Jazz', parent: parent.id }));
  const draft = await ok(site.call('POST', 'calendar/events/v1/events', {
    title: "Critic's Draft & Notes", start_date: '2027-02-01 19:00', end_date: '2027-02-01 21:00', timezone: 'Europe/Paris', status: 'draft', categories: [child.id], cost: '20€',
  }));
  const prot = await ok(site.call('POST', 'calendar/events/v1/events', {
    title: 'Members-only Tasting', description: 'Secret tasting for members.', start_date: '2027-03-20 18:00', end_date: '2027-03-20 20:00',
    timezone: 'America/New_York', venue: { venue: 'Cellar Club', city: 'Brooklyn' }, cost: '60', website: 'https://tasting.example/?a=1&b=2',
  }));
  await ok(site.call('PATCH', `calendar/events/v1/events/${prot.id}`, { password: 'secret' }));
  const hidden = await ok(site.call('POST', 'calendar/events/v1/events', {
    title: 'Staff Rehearsal', start_date: '2027-01-10 09:00', end_date: '2027-01-10 12:00', hide_from_listings: true, categories: [child.id], tags: 'jazz',
  }));
  const group = await ok(site.call('POST', 'redirection/v1/group', { name: 'Campaigns', moduleId: 1 }));
  const groupId = group.items.find((g: { name: string }) => g.name === 'Campaigns').id;
  await ok(site.call('POST', 'redirection/v1/redirect', { url: '/spring-sale', action_type: 'url', action_code: 302, action_data: { url: '/offers' }, match_type: 'url', group_id: groupId, title: 'Spring' }));
  await ok(site.call('POST', 'redirection/v1/redirect', { url: '^/old/(.*)$', regex: true, action_type: 'url', action_code: 301, action_data: { url: '/new/$1' }, match_type: 'url', group_id: 1 }));
  await ok(site.call('POST', 'redirection/v1/setting', { expire_404: 30, flag_trailing: false }));
  return { protectedId: prot.id, draftId: draft.id, hiddenId: hidden.id };
}

/** The rest bases of the post types the fake site lists (`wp/v2/types`); the global styles have no list route. */
const REST_BASES: Record<string, string> = {
  post: 'posts', page: 'pages', wp_navigation: 'navigation', wp_template: 'templates', wp_global_styles: 'global-styles', tribe_events: 'tribe_events',
};

/**
 * The legacy `wp/v2` routes the importer reads, for administrators (`admin` is their Authorization
 * header): events (their passwords), the users, the post types, WordPress's own posts (`wpPosts`),
 * and each post's revisions, counted in its `version-history` link.
 */
export function legacyPostRoutes(app: TestApp, admin: string, wpPosts: WpPost[]): void {
  const store = app.store;
  const revisionsOf = (id: number) => wpPosts.filter((p) => p.type === 'revision' && p.parent === id).toSorted((a, b) => b.id - a.id);
  const links = (id: number) => {
    const revisions = revisionsOf(id);
    return { 'version-history': [{ count: revisions.length }], ...(revisions.length ? { 'predecessor-version': [{ id: revisions[0].id }] } : {}) };
  };
  app.server.get('/wp-json/wp/v2/tribe_events/:id', async (req, reply) => {
    if (req.headers.authorization !== admin) return reply.code(401).send({ code: 'rest_cannot_edit', message: 'Sorry, you are not allowed to edit this post.', data: { status: 401 } });
    const e = await store.calendar.event(Number((req.params as { id: string }).id));
    if (!e) return reply.code(404).send({ code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } });
    return { id: e.id, status: e.status, password: e.password, _links: links(e.id) };
  });
  app.server.get('/wp-json/wp/v2/types', async () =>
    Object.fromEntries(Object.entries(REST_BASES).map(([slug, base]) => [slug, { slug, rest_base: base, rest_namespace: 'wp/v2' }])));
  app.server.get('/wp-json/wp/v2/:base', async (req, reply) => {
    const type = Object.keys(REST_BASES).find((t) => REST_BASES[t] === (req.params as { base: string }).base && t !== 'wp_global_styles');
    if (!type) return reply.code(404).send({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    // Without a status WordPress lists what is published; a list holds only what the type knows (a menu: no `future`).
    const statuses = (req.query as { status?: string }).status?.split(',') ?? ['publish'];
    if (type === 'wp_navigation' && statuses.includes('future')) {
      return reply.code(400).send({ code: 'rest_invalid_param', message: 'Invalid parameter(s): status', data: { status: 400, params: { status: 'status[1] is not one of publish, draft, private, trash.' } } });
    }
    const posts = wpPosts.filter((p) => p.type === type && statuses.includes(p.status));
    reply.header('X-WP-Total', String(posts.length)).header('X-WP-TotalPages', '1');
    // A menu has no author field.
    return posts.map(({ author, ...p }) => ({ ...p, ...(type === 'wp_navigation' ? {} : { author }), _links: links(p.id) }));
  });
  app.server.get('/wp-json/wp/v2/:base/:id/revisions', async (req, reply) => {
    const revisions = revisionsOf(Number((req.params as { id: string }).id));
    reply.header('X-WP-Total', String(revisions.length)).header('X-WP-TotalPages', '1');
    return revisions.map((r) => ({ id: r.id, author: r.author, parent: r.parent }));
  });
  // The post list as the legacy site pages it: `X-WP-Total(Pages)` headers, `page` from 1.
  app.server.get('/wp-json/wp/v2/tribe_events', async (req, reply) => {
    if (req.headers.authorization !== admin) return reply.code(400).send({ code: 'rest_invalid_param', message: 'Invalid parameter(s): context', data: { status: 400 } });
    const q = req.query as { page?: string; per_page?: string };
    const perPage = Number(q.per_page ?? 10);
    const page = Number(q.page ?? 1);
    const rows = await store.sql.query<{ id: number; password: string }>(`select id, password from calendar_events where status <> 'trash' order by id`);
    reply.header('X-WP-Total', String(rows.length)).header('X-WP-TotalPages', String(Math.ceil(rows.length / perPage)));
    return rows.slice((page - 1) * perPage, page * perPage).map((r) => ({ ...r, _links: links(r.id) }));
  });
  // The user list in edit context (administrators): logins, e-mails and roles, never passwords.
  app.server.get('/wp-json/wp/v2/users', async (req, reply) => {
    if (req.headers.authorization !== admin) return reply.code(400).send({ code: 'rest_forbidden_context', message: 'Sorry, you are not allowed to list users.', data: { status: 400 } });
    const q = req.query as { page?: string; per_page?: string };
    const perPage = Number(q.per_page ?? 10);
    const page = Number(q.page ?? 1);
    const users = await store.users.list();
    reply.header('X-WP-Total', String(users.length)).header('X-WP-TotalPages', String(Math.ceil(users.length / perPage)));
    return users.slice((page - 1) * perPage, page * perPage).map((u) => ({ id: u.id, username: u.login, email: u.email, name: u.displayName, roles: [u.role] }));
  });
}
