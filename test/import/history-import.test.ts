/**
 * `lintel import --only history`: the legacy audit log read through `simple-history/v1` (every
 * occasion its own row) lands in an empty store with its IDs, messages and occasions, so the target's
 * history/v1 lists (ungrouped and grouped) answer as the source's; the ID sequence moves past the
 * imported IDs; a re-run adds nothing; `--verify` finds no difference.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LegacyClient } from '../../src/import/client.ts';
import { importResources } from '../../src/import/index.ts';
import { runImport, verifyImport } from '../../src/import/resource.ts';
import type { OpenStore } from '../../src/store/store.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { testStore } from '../support/store.ts';
import { addExtraRecords, legacySite, type LegacySite } from './support.ts';
import { scaled } from '../support/time.ts';

let site: LegacySite;
let target: TestApp;
const opened: OpenStore[] = [];

const client = () => new LegacyClient(site.url, site.login, site.password);
const history = () => importResources(client(), ['history']);

/** Every page of the history/v1 list (`query` chooses grouped or not), as an administrator. */
async function listAll(app: TestApp, query: string): Promise<{ total: string; events: Record<string, unknown>[] }> {
  const auth = await app.auth('administrator');
  const events: Record<string, unknown>[] = [];
  let total = '';
  for (let page = 1; ; page++) {
    const res = await app.server.inject({ method: 'GET', url: `/wp-json/history/v1/events?${query}&per_page=100&page=${page}`, headers: { authorization: auth } });
    expect(res.statusCode).toBe(200);
    events.push(...res.json());
    total = String(res.headers['x-wp-total']);
    if (page >= Number(res.headers['x-wp-totalpages'])) break;
  }
  return { total, events };
}

async function emptyTarget(): Promise<TestApp> {
  const store = await testStore();
  opened.push(store);
  return testApp({ store });
}

const entry = async (body: Record<string, string>) => {
  const res = await site.call('POST', 'simple-history/v1/events', body);
  if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${JSON.stringify(res.json())}`);
};

beforeAll(async () => {
  site = await legacySite();
  // Custom entries: the occasions ID is the logger, level and template (not the entry's text), so equal levels in a row
  // are one run: two runs of backups split by a warning, then a backdated entry (its own run, at its date).
  for (const [message, level] of [['Backup finished', 'info'], ['Backup finished', 'info'], ['Backup finished', 'info'],
    ['Disk almost full', 'warning'], ['Backup finished', 'info'], ['Backup finished', 'info']]) await entry({ message, level });
  await entry({ message: 'Audit {not a placeholder}', note: 'Checked by the night shift', level: 'error', date: '2026-01-10 08:30:00' });
  // Writes through the REST API as the administrator, each logged by its logger.
  await addExtraRecords(site);
  // Enough repeats for several pages of 100: runs of identical messages between other events.
  for (let i = 0; i < 230; i++) await entry(i % 5 === 4 ? { message: `Cache warmed ${i}`, level: 'notice' } : { message: 'Cache purged', level: 'info' });
  target = await emptyTarget();
}, scaled(120_000));

afterAll(async () => {
  await site?.app.close();
  await target?.close();
  for (const s of opened) await s.close().catch(() => undefined);
});

describe('lintel import --only history', { timeout: scaled(120_000) }, () => {
  it('keeps every event with its ID, messages and occasions; the lists answer as the source\'s', async () => {
    expect((await listAll(target, 'ungrouped=true')).total).toBe('0');
    const summary = await runImport({ store: target.store, source: site.url, resources: history(), batchSize: 100 });
    expect(summary.resources.map((r) => r.name)).toEqual(['history.events']);
    const source = await listAll(site.app, 'ungrouped=true');
    expect(source.events.length).toBeGreaterThan(250);
    expect(summary.records).toBe(source.events.length);
    const copy = await listAll(target, 'ungrouped=true');
    expect(copy.total).toBe(source.total);
    // The whole event object: IDs, GMT and local dates, interpolated and raw messages, keys, levels, initiators, context.
    // Only the history was imported: a post event links its post's edit page only where the post exists, as the
    // legacy logger does, so the copy names the posts the source still holds without the link.
    expect(copy.events.some((e) => String(e.message_html).includes('post.php'))).toBe(false);
    // Likewise a term event links its term, and names a term's taxonomy by its label, only where the term exists: the
    // copy shows a term created or edited as the legacy logger shows one that is gone (the message as logged).
    const terms = copy.events.filter((e) => e.logger === 'SimpleCategoriesLogger' && e.message_key !== 'deleted_term');
    expect(terms.length).toBeGreaterThan(0);
    expect(terms.every((e) => !String(e.message_html).includes('term.php') && / in taxonomy "(post_tag|tribe_events_cat)"$/.test(String(e.message)))).toBe(true);
    const termText = (e: Record<string, unknown>) => (terms.some((t) => t.id === e.id) ? { ...e, message: '', message_html: '' } : e);
    expect(copy.events.map(termText)).toEqual(source.events.map((e) => termText({ ...e, message_html: String(e.message_html).replace(/<a href="[^"]*\/post\.php\?post=\d+&amp;action=edit">(.*?)<\/a>/g, '$1') })));
    expect(copy.events.find((e) => e.message === 'Added a custom entry: Audit {not a placeholder}')).toMatchObject({ message_uninterpolated: 'Added a custom entry: {message}', loglevel: 'error' });
    expect([...new Set(copy.events.map((e) => e.logger))]).toEqual(expect.arrayContaining(['CustomEntryLogger', 'SimplePostLogger', 'SimpleCategoriesLogger', 'Plugin_Redirection']));

    const [grouped, groupedCopy] = [await listAll(site.app, 'ungrouped=false'), await listAll(target, 'ungrouped=false')];
    const runs = (l: { events: Record<string, unknown>[] }) => l.events.map((e) => [e.id, e.occasions_id, e.subsequent_occasions_count]);
    expect(runs(groupedCopy)).toEqual(runs(grouped));
    expect(groupedCopy.total).toBe(grouped.total);
    // The backups: runs of two and three, not one group of five (occasions group only when consecutive).
    expect(grouped.events.filter((e) => e.message === 'Added a custom entry: Backup finished').map((e) => e.subsequent_occasions_count)).toEqual([2, 3]);
  });

  it('moves the ID sequence past the largest imported ID', async () => {
    const maxId = Math.max(...(await listAll(target, 'ungrouped=true')).events.map((e) => Number(e.id)));
    const auth = await target.auth('administrator');
    const res = await target.server.inject({
      method: 'POST', url: '/wp-json/history/v1/events', headers: { authorization: auth, 'content-type': 'application/json' }, payload: JSON.stringify({ message: 'After import' }),
    });
    expect(res.statusCode).toBe(201);
    const [newest] = (await listAll(target, 'ungrouped=true')).events;
    expect(newest).toMatchObject({ message: 'Added a custom entry: After import' });
    expect(newest.id).toBeGreaterThan(maxId);
  });

  it('a re-run adds nothing, and --verify reports no difference', async () => {
    const copy = await emptyTarget();
    await runImport({ store: copy.store, source: site.url, resources: history() });
    const first = await listAll(copy, 'ungrouped=true');
    await runImport({ store: copy.store, source: site.url, resources: history() });
    const again = await listAll(copy, 'ungrouped=true');
    expect(again.total).toBe(first.total);
    expect(again.events).toEqual(first.events);
    expect((await listAll(copy, 'ungrouped=false')).total).toBe((await listAll(site.app, 'ungrouped=false')).total);
    expect(await verifyImport(copy.store, history())).toEqual([]);
  });

  it('brings every legacy entry into a store that logged its own first (the admin created at the first start): those move past them', async () => {
    const copy = await emptyTarget();
    const own = await copy.store.history.log({ date: '2026-11-21 12:00:00', logger: 'SimpleUserLogger', level: 'info', message: 'Created the administrator', messageKey: 'user_created', initiator: 'wp_cli', context: {}, occasionsId: 'lintel-own' });
    const source = await listAll(site.app, 'ungrouped=true');
    expect(source.events.map((e) => e.id)).toContain(own);
    await runImport({ store: copy.store, source: site.url, resources: history() });
    const ids = (await listAll(copy, 'ungrouped=true')).events.map((e) => e.id as number);
    for (const e of source.events) expect(ids).toContain(e.id);
    expect(ids).toHaveLength(source.events.length + 1);
    expect(Math.max(...ids)).toBeGreaterThan(Math.max(...source.events.map((e) => e.id as number)));
    expect(await verifyImport(copy.store, history())).toEqual([]);
  });

  it('a sync reads only the new entries, and carries entries deleted on the legacy site', async () => {
    const copy = await emptyTarget();
    await runImport({ store: copy.store, source: site.url, resources: history() });
    await entry({ message: 'After the first sync', level: 'info' });
    const oldest = Math.min(...(await listAll(site.app, 'ungrouped=true')).events.map((e) => e.id as number));
    await site.app.store.history.deleteEvents([oldest]);
    const sync = await runImport({ store: copy.store, source: site.url, resources: history() });
    // The first page, then the full listing of IDs the counts asked for: the deleted entry is found.
    expect(sync.resources[0]).toMatchObject({ incremental: true, written: 1, removed: 1 });
    expect(await copy.store.history.byId(oldest)).toBeNull();
    expect(await verifyImport(copy.store, history())).toEqual([]);
  });

  it('--verify names the field that differs after a change on one side', async () => {
    const copy = await emptyTarget();
    await runImport({ store: copy.store, source: site.url, resources: history() });
    const [newest] = (await listAll(copy, 'ungrouped=true')).events;
    await copy.store.sql.query(`update history_events set level = 'debug' where id = $1`, [newest.id]);
    expect(await verifyImport(copy.store, history())).toEqual([{ resource: 'history.events', id: newest.id, field: 'level', source: newest.loglevel, target: 'debug' }]);
  });
});
