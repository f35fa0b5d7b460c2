/**
 * The cut-over guide (docs/migration.md) end to end, against a legacy site double (a Lintel with the
 * demo data and the `wp/v2` routes the importer and the credential check read): forward everything,
 * import, shadow, read the page, switch, keep syncing, stop forwarding; a client using its legacy
 * application password is served at every step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LegacyClient } from '../src/import/client.ts';
import { importResources } from '../src/import/index.ts';
import { runImport } from '../src/import/resource.ts';
import { runManage } from '../src/manage.ts';
import { testApp, type TestApp } from './support/app.ts';
import { eventually } from './support/eventually.ts';
import { addExtraRecords, legacySite, type LegacySite } from './import/support.ts';

let legacy: LegacySite;
let lintel: TestApp;
/** Requests that reached the legacy site, by path. */
const reached: string[] = [];

const FORWARDED = ['calendar/events/v1', 'redirection/v1', 'history/v1'];

beforeAll(async () => {
  legacy = await legacySite((app, adminHeader) => {
    app.server.addHook('onRequest', async (req) => void reached.push(req.url.split('?')[0]));
    // The legacy site's `users/me`, as WordPress answers it for an application password.
    app.server.get('/wp-json/wp/v2/users/me', async (req, reply) => {
      if (req.headers.authorization !== adminHeader) return reply.code(401).send({ code: 'incorrect_password', message: 'wrong', data: { status: 401 } });
      const admin = await app.store.users.byLogin('admin');
      return { id: admin!.id, username: admin!.login, email: admin!.email, name: admin!.displayName, roles: ['administrator'] };
    });
  });
  await addExtraRecords(legacy);
  lintel = await testApp({
    env: { LINTEL_LEGACY_ORIGIN: legacy.url, LINTEL_SHADOW_NOISE_SAMPLE: '0', LINTEL_CACHE_TTL_S: '0' },
    mappings: (m) => ({ ...m, namespaces: { ...m.namespaces, ...Object.fromEntries(FORWARDED.map((ns) => [ns, { ...m.namespaces[ns], mode: 'forward' as const }])) } }),
  });
});
afterAll(async () => {
  await lintel.close();
  await legacy.app.close();
});

const read = (url: string) => lintel.server.inject({ url, headers: { authorization: legacy.admin } });
const mode = async (namespace: string, m: 'forward' | 'shadow' | 'translate', primary?: 'legacy' | 'lintel') => {
  await runManage(lintel.store, 'mode', { namespace, mode: m, primary });
  await eventually(async () => (await lintel.server.inject({ url: '/readyz' })).json().modes[namespace] === m);
};
const READS = ['/wp-json/calendar/events/v1/events?status=draft', '/wp-json/calendar/events/v1/events', '/wp-json/calendar/events/v1/venues', '/wp-json/calendar/events/v1/categories'];

describe('the cut-over guide', () => {
  it('1. forward everything: the legacy site answers, with its own credentials', async () => {
    reached.length = 0;
    const drafts = await read(READS[0]);
    expect(drafts.statusCode).toBe(200);
    expect(drafts.json()).toEqual((await legacy.call('GET', 'calendar/events/v1/events?status=draft')).json());
    expect(reached).toContain('/wp-json/tribe/events/v1/events');
  });

  it('2. import: the legacy data is in the store', async () => {
    const summary = await runImport({ store: lintel.store, source: legacy.url, resources: importResources(new LegacyClient(legacy.url, legacy.login, legacy.password)) });
    expect(summary.resources.find((r) => r.name === 'calendar.events')?.written).toBeGreaterThan(0);
  });

  it('3-4. shadow: reads are compared, match, and the migration page says so', async () => {
    await mode('calendar/events/v1', 'shadow');
    for (const url of READS) expect((await read(url)).statusCode).toBe(200);
    await lintel.services.backends.shadowIdle();
    const { routes } = await lintel.store.shadow.report();
    const compared = routes.reduce((n, r) => n + r.compared, 0);
    const matched = routes.reduce((n, r) => n + r.matched, 0);
    expect(compared).toBe(READS.length);
    expect(matched / compared).toBeGreaterThanOrEqual(0.95);
    const page = await read('/lintel/migration');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<span class="mode shadow">shadow</span>');
    expect(page.body).toContain('No compared read was refused by one side only');
  });

  it('5. switch: Lintel answers alone, the legacy password checked locally', async () => {
    await mode('calendar/events/v1', 'translate');
    reached.length = 0;
    const drafts = await read(READS[0]);
    expect(drafts.statusCode).toBe(200);
    expect(drafts.json().events.length).toBeGreaterThan(0);
    expect((await read('/wp-json/')).statusCode).toBe(200);
    expect(reached).toEqual([]);
  });

  it('6. keep syncing: a redirect added on the legacy site arrives with the next import', async () => {
    const created = await legacy.call('POST', 'redirection/v1/redirect', { url: '/synced-later', match_type: 'url', action_type: 'url', action_code: 301, action_data: { url: '/here/' }, group_id: 1 });
    expect(created.statusCode).toBe(200);
    await runImport({ store: lintel.store, source: legacy.url, resources: importResources(new LegacyClient(legacy.url, legacy.login, legacy.password), ['redirection']), restart: true });
    await mode('redirection/v1', 'translate');
    const list = await read('/wp-json/redirection/v1/redirect?filterBy%5Burl%5D=synced-later');
    expect(list.json().items.map((r: { url: string }) => r.url)).toEqual(['/synced-later']);
  });

  it('7. stop forwarding: without the origin, the adopted legacy password still works', async () => {
    const alone = await testApp({ store: lintel.store });
    const drafts = await alone.server.inject({ url: READS[0], headers: { authorization: legacy.admin } });
    expect(drafts.statusCode).toBe(200);
    await alone.server.close();
  });
});
