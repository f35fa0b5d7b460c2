/**
 * `lintel import` keeps the legacy site's posts that are no calendar record (WordPress's posts and
 * pages, menus, revisions of posts and of events): with their type, status, author and parent, and
 * Lintel's next post ID comes after every one of them, so a cut-over client never sees an ID that
 * meant something else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LegacyClient } from '../../src/import/client.ts';
import { importResources } from '../../src/import/index.ts';
import { runImport, verifyImport } from '../../src/import/resource.ts';
import type { OpenStore } from '../../src/store/store.ts';
import { testApp } from '../support/app.ts';
import { testStore } from '../support/store.ts';
import { scaled } from '../support/time.ts';
import { legacySite, type LegacySite } from './support.ts';

let site: LegacySite;
let eventId: number;
const opened: OpenStore[] = [];
/** The paths the legacy site was asked for. */
const asked: string[] = [];

beforeAll(async () => {
  site = await legacySite((app) => app.server.addHook('onRequest', async (req) => void asked.push(req.url.split('?')[0])));
  eventId = (await site.call('GET', 'calendar/events/v1/events?per_page=1')).json().events[0].id;
  site.wpPosts.push(
    { id: 900, type: 'wp_navigation', status: 'publish', author: 0, parent: 0 },
    // A menu list refuses the status set (no `future`): it is read a status at a time, so the draft is kept.
    { id: 903, type: 'wp_navigation', status: 'draft', author: 0, parent: 0 },
    // One revision of the event (named by its link), two of the first post (read from its revisions list).
    { id: 901, type: 'revision', status: 'inherit', author: 1, parent: eventId },
    { id: 902, type: 'revision', status: 'inherit', author: 1, parent: 1 },
    { id: 5000, type: 'revision', status: 'inherit', author: 1, parent: 1 },
  );
}, scaled(120_000));

afterAll(async () => {
  await site?.app.close();
  for (const s of opened) await s.close().catch(() => undefined);
});

async function importInto() {
  const store = await testStore();
  opened.push(store);
  const client = new LegacyClient(site.url, site.login, site.password);
  await runImport({ store, source: site.url, resources: importResources(client, ['users', 'calendar']) });
  return { store, client };
}

describe('lintel import: the legacy site\'s other posts', { timeout: scaled(120_000) }, () => {
  it('keeps every post that is no calendar record, with its type, status, author and parent', async () => {
    const { store } = await importInto();
    expect([...(await store.legacyPosts.many([1, 2, 3, 900, 901, 902, 903, 5000])).values()]).toEqual([
      { id: 1, post_type: 'post', status: 'publish', author: 1, parent: 0 },
      { id: 2, post_type: 'page', status: 'publish', author: 1, parent: 0 },
      { id: 3, post_type: 'page', status: 'draft', author: 1, parent: 0 },
      { id: 900, post_type: 'wp_navigation', status: 'publish', author: 0, parent: 0 },
      { id: 901, post_type: 'revision', status: 'inherit', author: 0, parent: eventId },
      { id: 902, post_type: 'revision', status: 'inherit', author: 1, parent: 1 },
      { id: 903, post_type: 'wp_navigation', status: 'draft', author: 0, parent: 0 },
      { id: 5000, post_type: 'revision', status: 'inherit', author: 1, parent: 1 },
    ]);
    // The calendar records are not among them.
    expect(await store.legacyPosts.byId(eventId)).toBeNull();
    // Listing the templates makes the legacy calendar plugin save its own as posts: the import never asks.
    expect(asked.filter((p) => p.startsWith('/wp-json/wp/v2/'))).toContain('/wp-json/wp/v2/navigation');
    expect(asked).not.toContain('/wp-json/wp/v2/templates');
  });

  it('numbers the records created afterwards after the largest legacy post ID', async () => {
    const { store } = await importInto();
    const target = await testApp({ store });
    const created = await target.server.inject({
      method: 'POST', url: '/wp-json/calendar/events/v1/venues', headers: { authorization: await target.auth('administrator'), 'content-type': 'application/json' },
      payload: JSON.stringify({ venue: 'After the cut-over' }),
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().id).toBe(5001);
  });

  it('a sync forgets a post the legacy site deleted, and --verify then finds no difference', async () => {
    const { store, client } = await importInto();
    const page = site.wpPosts.findIndex((p) => p.id === 3);
    const [removed] = site.wpPosts.splice(page, 1);
    try {
      const sync = await runImport({ store, source: site.url, resources: importResources(client, ['calendar']) });
      expect(sync.resources.find((r) => r.name === 'calendar.legacy-posts')).toMatchObject({ incremental: true, written: 0, removed: 1 });
      expect(await store.legacyPosts.byId(3)).toBeNull();
      expect(await verifyImport(store, importResources(client, ['calendar']))).toEqual([]);
    } finally {
      site.wpPosts.splice(page, 0, removed);
    }
  });
});
