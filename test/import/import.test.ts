/**
 * `lintel import` against a Lintel serving the legacy contract: everything read back through a second
 * Lintel's API equals the source's, IDs and sequences included; re-runs update in place; an
 * interrupted import resumes from its checkpoint; `--verify` finds no difference, then finds one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoOnce } from '../../src/bootstrap.ts';
import { systemClock } from '../../src/clock.ts';
import { ImportError, LegacyClient } from '../../src/import/client.ts';
import { importResources } from '../../src/import/index.ts';
import { runImport, verifyImport, type ProgressEvent } from '../../src/import/resource.ts';
import type { OpenStore } from '../../src/store/store.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { sandbox } from '../support/process.ts';
import { testStore } from '../support/store.ts';
import { addExtraRecords, legacySite, type LegacySite } from './support.ts';
import { scaled } from '../support/time.ts';

let site: LegacySite;
let extra: { protectedId: number; draftId: number; hiddenId: number };
let target: TestApp;
const opened: OpenStore[] = [];

const ALL = 'status=publish,future,draft,pending,private';

/** Every record the API shows, as an administrator: calendar archives (all pages), the protected event, redirection lists and settings. */
async function readAll(app: TestApp): Promise<Record<string, unknown>> {
  const auth = await app.auth('administrator');
  const get = async (path: string) => {
    const res = await app.server.inject({ method: 'GET', url: `/wp-json/${path}`, headers: { authorization: auth } });
    return { status: res.statusCode, body: res.json() };
  };
  const out: Record<string, unknown> = {};
  for (const [route, query] of [
    ['events', `${ALL}&start_date=1900-01-01&end_date=2999-12-31`], ['venues', ALL], ['organizers', ALL],
    ['categories', 'hide_empty=false&orderby=id'], ['tags', 'hide_empty=false&orderby=id'],
  ]) {
    for (let page = 1; ; page++) {
      const r = await get(`calendar/events/v1/${route}?${query}&per_page=50&page=${page}`);
      out[`${route}-${page}`] = r;
      if (page >= (r.body.total_pages ?? 1)) break;
    }
  }
  out.protected = await get(`calendar/events/v1/events/${extra.protectedId}?password=secret`);
  out.draft = await get(`calendar/events/v1/events/${extra.draftId}`);
  // Hidden from listings: only the single route shows it.
  out.hidden = await get(`calendar/events/v1/events/${extra.hiddenId}`);
  out.redirects = await get('redirection/v1/redirect?per_page=200&orderby=id&direction=asc');
  out.groups = await get('redirection/v1/group?per_page=200&orderby=id&direction=asc');
  out.settings = await get('redirection/v1/setting');
  return out;
}

async function emptyTarget(): Promise<TestApp> {
  const store = await testStore();
  opened.push(store);
  return testApp({ store });
}

const client = () => new LegacyClient(site.url, site.login, site.password);

/** Source events beyond the demo, written through the repository: enough for several archive pages. */
async function addBulkEvents(n: number): Promise<void> {
  const now = new Date();
  await site.app.store.transaction(async (tx) => {
    const category = (await tx.calendar.termArchive({ taxonomy: 'category', hideEmpty: false, orderby: 'id', order: 'asc', limit: 1, offset: 0 })).rows[0].id;
    for (let i = 0; i < n; i++) {
      const day = String(1 + (i % 28)).padStart(2, '0');
      const id = await tx.calendar.createEvent({
        author: 0, status: i % 10 === 0 ? 'draft' : 'publish', password: '', slug: `bulk-${i}`, title: `Bulk ${i}`, description: `Line ${i}`, excerpt: '',
        start_date: `2027-04-${day} 10:00:00`, end_date: `2027-04-${day} 12:00:00`, utc_start_date: `2027-04-${day} 14:00:00`, utc_end_date: `2027-04-${day} 16:00:00`,
        timezone: 'America/New_York', all_day: false, cost: i % 3 ? `${i}` : '', currency_symbol: '', currency_code: '', currency_position: '', website: null, image: '',
        show_map: true, show_map_link: false, hide_from_listings: false, sticky: false, featured: i % 7 === 0, post_parent: 0,
      }, now);
      await tx.calendar.setTerms(id, 'category', [category]);
    }
  });
}

beforeAll(async () => {
  site = await legacySite();
  extra = await addExtraRecords(site);
  await addBulkEvents(120);
  target = await emptyTarget();
}, scaled(120_000));

afterAll(async () => {
  await site?.app.close();
  for (const s of opened) await s.close().catch(() => undefined);
});

// Each test opens a store of its own and imports over HTTP: many seconds on a busy machine.
describe('lintel import', { timeout: scaled(120_000) }, () => {
  it('imports every resource; the target then answers as the source does, IDs kept', async () => {
    const events: ProgressEvent[] = [];
    const summary = await runImport({ store: target.store, source: site.url, resources: importResources(client()), onProgress: (e) => events.push(e) });
    expect(summary.resources.map((r) => r.name)).toEqual([
      'users.users', 'calendar.categories', 'calendar.tags', 'calendar.venues', 'calendar.organizers', 'calendar.events', 'calendar.unlisted-events', 'calendar.legacy-posts',
      'redirection.settings', 'redirection.groups', 'redirection.redirects', 'redirection.log', 'redirection.404', 'history.events',
    ]);
    expect(events.filter((e) => e.type === 'start' && e.resource === 'calendar.events')).toEqual([expect.objectContaining({ totalPages: 4 })]);
    const [source, copy] = [await readAll(site.app), await readAll(target)];
    expect(copy).toEqual(source);
    // The protected event kept its password: anonymous readers still need it.
    const anon = await target.server.inject({ method: 'GET', url: `/wp-json/calendar/events/v1/events/${extra.protectedId}` });
    expect(anon.json().code).toBe('event-password-protected');
    expect((copy.protected as { body: { website: string } }).body.website).toBe('https://tasting.example/?a=1&b=2');
    expect((copy.draft as { body: { status: string; title: string } }).body).toMatchObject({ status: 'draft', title: 'Critic&#8217;s Draft &#038; Notes' });
    expect((copy.hidden as { status: number; body: { hide_from_listings: boolean } })).toMatchObject({ status: 200, body: { hide_from_listings: true } });
    expect(summary.resources.find((r) => r.name === 'calendar.unlisted-events')).toMatchObject({ written: 1 });
    // A later first start does not add the demo content to the imported one.
    expect(await seedDemoOnce(target.store, systemClock)).toBe(false);
  });

  it('moves the ID sequences past the largest imported IDs', async () => {
    const auth = await target.auth('administrator');
    const maxPost = Math.max(...(await target.store.sql.query<{ id: number }>('select id from calendar_events union all select id from calendar_venues union all select id from calendar_organizers')).map((r) => r.id));
    const maxTerm = Math.max(...(await target.store.sql.query<{ id: number }>('select id from calendar_terms')).map((r) => r.id));
    const post = (url: string, body: unknown) => target.server.inject({ method: 'POST', url: `/wp-json/${url}`, headers: { authorization: auth, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    const created = await post('calendar/events/v1/events', { title: 'After import', start_date: '2027-09-01 10:00', end_date: '2027-09-01 11:00' });
    expect(created.statusCode).toBe(201);
    expect(created.json().id).toBeGreaterThan(maxPost);
    expect((await post('calendar/events/v1/tags', { name: 'after-import' })).json().id).toBeGreaterThan(maxTerm);
    const maxRedirect = Math.max(...(await target.store.sql.query<{ id: number }>('select id from redirection_items')).map((r) => r.id));
    const redirect = await post('redirection/v1/redirect', { url: '/after-import', action_type: 'url', action_data: { url: '/x' }, match_type: 'url', group_id: 1 });
    expect(Math.max(...redirect.json().items.map((r: { id: number }) => r.id))).toBeGreaterThan(maxRedirect);
  });

  it('a re-run updates in place: same counts, changed fields applied', async () => {
    const copy = await emptyTarget();
    await runImport({ store: copy.store, source: site.url, resources: importResources(client()) });
    await site.call('PATCH', `calendar/events/v1/events/${extra.draftId}`, { title: 'Renamed draft', status: 'publish' });
    await site.call('POST', 'redirection/v1/setting', { expire_404: 14 });
    await runImport({ store: copy.store, source: site.url, resources: importResources(client()) });
    expect(await readAll(copy)).toEqual(await readAll(site.app));
    expect(await verifyImport(copy.store, importResources(client()))).toEqual([]);
  });

  it('an interrupted import resumes from its checkpoint and ends with the same result', async () => {
    const copy = await emptyTarget();
    const abort = new AbortController();
    let eventBatches = 0;
    const first = runImport({
      store: copy.store, source: site.url, resources: importResources(client(), ['calendar']), batchSize: 50, signal: abort.signal,
      onProgress: (e) => {
        if (e.type === 'batch' && e.resource === 'calendar.events' && ++eventBatches === 2) abort.abort();
      },
    });
    await expect(first).rejects.toThrow();
    expect(await copy.store.importCheckpoints.get(site.url, 'calendar.events')).toEqual({ resource: 'calendar.events', lastPage: 2, done: false, syncedFrom: null });
    const half = (await readAll(copy))['events-1'] as { body: { total: number } };
    expect(half.body.total).toBe(100);
    const resumed = await runImport({ store: copy.store, source: site.url, resources: importResources(client(), ['calendar']), batchSize: 50 });
    expect(resumed.resources.find((r) => r.name === 'calendar.events')).toMatchObject({ fromPage: 3 });
    // Finished resources start again from their first page (re-running updates in place).
    expect(resumed.resources.find((r) => r.name === 'calendar.venues')).toMatchObject({ fromPage: 1 });
    const all = await readAll(copy);
    const source = await readAll(site.app);
    for (const key of Object.keys(source).filter((k) => !['redirects', 'groups', 'settings'].includes(k))) expect(all[key]).toEqual(source[key]);
  });

  it('starts a resource again when the source has fewer pages than its checkpoint', async () => {
    const copy = await emptyTarget();
    await copy.store.importCheckpoints.save(site.url, 'redirection.redirects', 99, false);
    const summary = await runImport({ store: copy.store, source: site.url, resources: importResources(client(), ['redirection']) });
    expect(summary.resources.find((r) => r.name === 'redirection.redirects')).toMatchObject({ fromPage: 1 });
    expect((await readAll(copy)).redirects).toEqual((await readAll(site.app)).redirects);
  });

  it('--verify reports no difference after an import, and the field that differs after a change on one side', async () => {
    const copy = await emptyTarget();
    await runImport({ store: copy.store, source: site.url, resources: importResources(client()) });
    expect(await verifyImport(copy.store, importResources(client()))).toEqual([]);
    await copy.store.calendar.updateEvent(extra.protectedId, { title: 'Changed here' }, new Date());
    await copy.store.sql.query('delete from redirection_items where url = $1', ['/spring-sale']);
    const diffs = await verifyImport(copy.store, importResources(client()));
    expect(diffs).toContainEqual({ resource: 'calendar.events', id: extra.protectedId, field: 'title', source: 'Members-only Tasting', target: 'Changed here' });
    const springSale = (await site.app.store.redirection.redirects.list({}, 'id', 'asc', { page: 0, perPage: 100 })).items.find((r) => r.url === '/spring-sale')!;
    expect(diffs).toContainEqual({ resource: 'redirection.redirects', id: springSale.id, field: '(record)', source: 'present', target: 'missing' });
    expect(diffs).toContainEqual(expect.objectContaining({ resource: 'redirection.redirects', field: 'count' }));
  });

  it('imports users with their roles (no passwords) and both redirection logs', async () => {
    const editor = await site.app.auth('editor');
    await site.app.server.inject({ method: 'GET', url: '/no-such-page-for-the-404-log' });
    const copy = await emptyTarget();
    await runImport({ store: copy.store, source: site.url, resources: importResources(client(), ['users', 'redirection']) });
    const strip = (u: { passwordHash: string | null }[]) => u.map(({ passwordHash: _, ...rest }) => rest);
    expect(strip(await copy.store.users.list())).toEqual(strip(await site.app.store.users.list()));
    expect((await copy.store.users.list()).every((u) => u.passwordHash === null)).toBe(true);
    expect((await copy.store.users.byId((await site.app.store.users.list()).find((u) => u.role === 'editor')!.id))?.role).toBe('editor');
    expect(editor).toMatch(/^Basic /);
    const minute = (rows: { created: Date }[]) => rows.map((r) => ({ ...r, created: Math.floor(r.created.getTime() / 60_000) }));
    expect(minute(await copy.store.redirection.logs.all('log'))).toEqual(minute(await site.app.store.redirection.logs.all('log')));
    expect(minute(await copy.store.redirection.logs.all('404'))).toEqual(minute(await site.app.store.redirection.logs.all('404')));
    expect((await site.app.store.redirection.logs.all('404')).length).toBeGreaterThan(0);
  });

  it('a sync after a complete run writes only what changed, reads only the new audit log page, and carries deletions', async () => {
    const copy = await emptyTarget();
    await runImport({ store: copy.store, source: site.url, resources: importResources(client()) });
    const events = (await site.call('GET', `calendar/events/v1/events?${ALL}&start_date=1900-01-01&end_date=2999-12-31&per_page=3`)).json().events;
    const [renamed, trashed, deleted] = events.map((e: { id: number }) => e.id);
    await site.call('PATCH', `calendar/events/v1/events/${renamed}`, { title: 'Renamed on the legacy site' });
    await site.call('DELETE', `calendar/events/v1/events/${trashed}`);
    // Deleted for good (the legacy site's `force=true`): Lintel's API only trashes.
    await site.app.store.sql.query('delete from calendar_events where id = $1', [deleted]);
    const redirect = (await site.app.store.redirection.redirects.list({}, 'id', 'asc', { page: 0, perPage: 1 })).items[0];
    await site.app.store.redirection.redirects.delete({ ids: [redirect.id] });
    const progress: ProgressEvent[] = [];
    const sync = await runImport({ store: copy.store, source: site.url, resources: importResources(client()), onProgress: (e) => progress.push(e) });
    const of = (name: string) => sync.resources.find((r) => r.name === name)!;
    expect(of('calendar.events')).toMatchObject({ incremental: true, written: 1, removed: 2 });
    expect(of('redirection.redirects')).toMatchObject({ incremental: true, written: 0, removed: 1 });
    expect(of('calendar.venues')).toMatchObject({ written: 0, removed: 0 });
    // The audit log logged the rename and the trashing: one new page at most, never the whole log.
    expect(of('history.events').fetched).toBeLessThanOrEqual(100);
    expect(progress).toContainEqual({ type: 'removed', resource: 'calendar.events', ids: [trashed, deleted].sort((a, b) => a - b) });
    expect((await copy.store.calendar.event(renamed))!.title).toBe('Renamed on the legacy site');
    expect((await copy.store.calendar.event(trashed))!.status).toBe('trash');
    expect((await copy.store.calendar.event(deleted))!.status).toBe('trash');
    expect(await copy.store.redirection.redirects.byId(redirect.id)).toBeNull();
    expect(await verifyImport(copy.store, importResources(client()))).toEqual([]);
    // A record created in Lintel is never removed by a sync.
    const created = await copy.server.inject({
      method: 'POST', url: '/wp-json/calendar/events/v1/events', headers: { authorization: await copy.auth('administrator'), 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'Lintel only', start_date: '2027-09-01 10:00', end_date: '2027-09-01 11:00' }),
    });
    const own = created.json().id as number;
    await runImport({ store: copy.store, source: site.url, resources: importResources(client(), ['calendar']) });
    expect((await copy.store.calendar.event(own))!.status).toBe('publish');
  });

  it('names the URL and the legacy error when the credentials are refused, and writes nothing', async () => {
    const copy = await emptyTarget();
    const refused = runImport({ store: copy.store, source: site.url, resources: importResources(new LegacyClient(site.url, site.login, 'wrong password here'), ['redirection']) });
    await expect(refused).rejects.toThrow(/^GET http:\/\/127\.0\.0\.1:\d+\/wp-json\/redirection\/v1\/setting: 401 incorrect_password/);
    await expect(refused).rejects.toBeInstanceOf(ImportError);
    expect(await copy.store.importCheckpoints.get(site.url, 'redirection.settings')).toBeNull();
  });

  it('runs as a command: JSON progress lines when not on a terminal, then --verify finds no difference', async () => {
    const box = await sandbox({ LINTEL_DEMO_DATA: 'false', LINTEL_LOG_LEVEL: 'silent' });
    try {
      const args = ['import', '--from', site.url, '--user', site.login, '--app-password', site.password];
      const run = await box.run(args);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const lines = run.stdout.trim().split('\n');
      const progress = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as ProgressEvent);
      expect(lines).toContainEqual(expect.stringMatching(/^calendar\.events: (\d+) read, \1 written, 0 removed$/));
      expect(progress.filter((p) => p.type === 'done').map((p) => p.resource)).toHaveLength(14);
      expect(progress).toContainEqual(expect.objectContaining({ type: 'batch', resource: 'calendar.events', page: 4, totalPages: 4 }));
      expect(lines.at(-1)).toMatch(/^read \d+ records in [\d.]+ s \(\d+ records\/s\)$/);
      const verify = await box.run([...args, '--verify']);
      expect(verify.stdout).toBe('no differences\n');
      expect(verify.code).toBe(0);
      const bad = await box.run([...args, '--only', 'calendar,forms']);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('--only: unknown forms');
    } finally {
      await box.remove();
    }
  }, scaled(120_000));
});
