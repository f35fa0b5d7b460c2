/**
 * redirection/v1 import and export over HTTP: the exports against the recorded ones (254–263,
 * 410–413) after inserting the recorded state through the repository, and the import (448, 449)
 * with its options, its edge refresh and an import→export round trip.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../support/app.ts';
import { capture, insertThroughRepository, recordedState, seededState } from './support.ts';

const CLOCK = '2026-11-21T12:09:37Z';
const API = '/wp-json/redirection/v1';
let app: TestApp;
let admin: string;

beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: CLOCK } });
  await app.store.options.setSite({ name: 'Oracle Site', description: 'Reference oracle' });
  admin = await app.auth('administrator');
});
afterAll(() => app.close());

const get = (path: string, auth: string | null = admin) => app.server.inject({ method: 'GET', url: `${API}${path}`, headers: auth ? { authorization: auth } : {} });

interface Exported {
  data: string;
  total: number;
}
const recorded = (seq: number) => capture(seq).response.body_json as Exported;
// The file header carries the time of writing; the rest must be byte for byte.
const DATE = /\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000/g;
const undated = (e: Exported) => ({ data: e.data.replace(DATE, 'DATE'), total: e.total });

/** The recorded nginx export as Lintel writes it: regex rules keep their `/` and backslashes (DEVIATIONS.md). */
const nginxFixed = (e: Exported) => ({ ...e, data: e.data.replace('^blog/', '^/blog/').replace('^archive/(]d+)', '^/archive/(\\d+)') });

function multipart(filename: string, content: string, fields: Record<string, string> = {}) {
  const b = 'lintelboundary';
  const parts = Object.entries(fields).map(([k, v]) => `--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  parts.push(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n`);
  return { payload: `${parts.join('')}--${b}--\r\n`, headers: { authorization: admin, 'content-type': `multipart/form-data; boundary=${b}` } };
}

async function importFile(filename: string, content: string, fields: Record<string, string> = {}, group = 1) {
  const res = await app.server.inject({ method: 'POST', url: `${API}/import/file/${group}`, ...multipart(filename, content, fields) });
  return { status: res.statusCode, body: res.json() };
}

const count = async () => (await app.store.sql.query<{ n: number }>('select count(*)::int as n from redirection_items'))[0]!.n;
const lastHit = new Date('2026-11-21T12:07:00Z');

describe('exports of the seeded site (254-263)', () => {
  beforeAll(() => insertThroughRepository(app.store, seededState(), lastHit));

  it.each([
    [254, '/export/1/nginx'],
    [256, '/export/2/json'],
    [257, '/export/3/json'],
    [258, '/export/all/csv'],
    [260, '/export/all/nginx'],
  ])('capture %i: %s', async (seq, path) => {
    const res = await get(path);
    expect(res.statusCode).toBe(200);
    const want = path.endsWith('nginx') ? nginxFixed(recorded(seq)) : recorded(seq);
    expect(undated(res.json())).toEqual(undated(want));
  });

  it('an unknown format is no route (263)', async () => {
    const res = await get('/export/1/xml');
    expect([res.statusCode, res.json()]).toEqual([capture(263).response.status, capture(263).response.body_json]);
  });

  it('a query format that names no writer is a 400 naming the formats, and a known one overrides the path', async () => {
    const res = await get('/export/1/json?format=xml');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { format: 'format is not one of csv, apache, nginx, json, and redirects-file.' } } });
    expect((await get('/export/1/json?format=constructor')).statusCode).toBe(400);
    expect((await get('/export/1/json?format=csv')).json().data).toBe((await get('/export/1/csv')).json().data);
  });

  it('every legacy io route needs an administrator: 401 anonymous, 403 for an editor (as 219)', async () => {
    const editor = await app.auth('editor');
    const refused = capture(219).response.body_json;
    const anon = await get('/export/all/csv', null);
    expect([anon.statusCode, anon.json()]).toEqual([401, refused]);
    expect((await get('/export/all/csv', editor)).statusCode).toBe(403);
    const upload = multipart('a.csv', '/a,/b\n');
    const post = await app.server.inject({ method: 'POST', url: `${API}/import/file/1`, payload: upload.payload, headers: { ...upload.headers, authorization: editor } });
    expect(post.statusCode).toBe(403);
  });

  it('the contract-only routes are no route to anyone but an administrator, as on the legacy site (263)', async () => {
    const editor = await app.auth('editor');
    const noRoute = capture(263).response.body_json;
    for (const path of ['/export/1/redirects-file', '/export/redirect', '/export/group/csv', '/export/log/json', '/export/404/preview', '/export/bundle', '/group/dropdown', '/import/plugin/x/preview']) {
      for (const auth of [null, editor]) {
        const res = await get(path, auth);
        expect([res.statusCode, res.json(), res.headers.allow]).toEqual([404, noRoute, undefined]);
        const options = await app.server.inject({ method: 'OPTIONS', url: `${API}${path}`, headers: auth ? { authorization: auth } : {} });
        expect([options.statusCode, options.json(), options.headers.allow]).toEqual([200, [], undefined]);
      }
      expect((await get(path)).statusCode).toBe(200);
    }
  });
});

describe('exports after the write captures (410-413)', () => {
  beforeAll(() => insertThroughRepository(app.store, recordedState(), lastHit));

  it.each([
    [410, 'csv'],
    [411, 'apache'],
    [412, 'nginx'],
    [413, 'json'],
  ])('capture %i: all/%s', async (seq, format) => {
    const res = await get(`/export/all/${format}`);
    const want = format === 'nginx' ? nginxFixed(recorded(seq)) : recorded(seq);
    expect(undated(res.json())).toEqual(undated(want));
  });

  it('nginx: the regex rule is one nginx matches (with its leading slash)', async () => {
    const { data } = (await get('/export/all/nginx')).json() as Exported;
    expect(data).toContain('    rewrite ^/blog/(.*)$ /news/$1 permanent;\n');
    expect(data).toContain('    rewrite (?i)^/archive/(\\d+)/(.*)$ /year/$1/$2 redirect;\n');
  });

  it('redirects-file: the enabled plain url redirects, total counting all exported', async () => {
    expect((await get('/export/all/redirects-file')).json()).toEqual({
      data: '/old-page /new-page/ 301\n/partner https://partner.example.com/landing 308\n/oracle-created /target-2/ 302\n',
      total: 8,
    });
  });

  it('export/redirect is the JSON export of everything; its preview the first 10', async () => {
    expect(undated((await get('/export/redirect')).json())).toEqual(undated(recorded(413)));
    await importFile('more.csv', Array.from({ length: 12 }, (_, i) => `/more-${i},/t-${i}`).join('\n'));
    const preview = (await get('/export/redirect/preview')).json() as Exported;
    expect(preview.total).toBe(20);
    expect((JSON.parse(preview.data) as { redirects: unknown[] }).redirects).toHaveLength(10);
  });

  it('export/group/{csv,json}: every group with its redirect count', async () => {
    await insertThroughRepository(app.store, recordedState(), lastHit);
    const groups = JSON.parse(recorded(413).data).groups;
    expect((await get('/export/group/json')).json()).toEqual({ data: JSON.stringify(groups, null, 4) + '\n', total: 3 });
    expect((await get('/export/group/csv')).json()).toEqual({
      data: 'id,name,redirects,module_id,enabled\n1,"Redirections",3,1,1\n2,"Modified Posts",0,1,1\n3,"Marketing",5,1,1\n',
      total: 3,
    });
  });

  it('bundle: groups, redirects and the settings; its preview the first 10 redirects', async () => {
    const bundle = JSON.parse(((await get('/export/bundle')).json() as Exported).data);
    expect(bundle.redirects).toEqual(JSON.parse(recorded(413).data).redirects);
    expect(bundle.settings).toMatchObject({ flag_case: true, flag_trailing: true, last_group_id: 1 });
    expect(((await get('/export/bundle/preview')).json() as Exported).total).toBe(8);
  });
});

describe('log and 404 exports', () => {
  beforeAll(async () => {
    const base = { domain: 'http://127.0.0.1', agent: 'Mozilla/5.0', referrer: null, ip: '192.0.2.1', requestMethod: 'GET', requestData: null };
    await app.store.redirection.logs.insertLog({ ...base, created: new Date('2026-11-21T12:06:30Z'), url: '/old-page', sentTo: '/new-page/', httpCode: 301, redirectionId: 1, redirectBy: 'redirection' });
    for (let i = 0; i < 12; i++) await app.store.redirection.logs.insert404({ ...base, created: new Date(Date.UTC(2026, 10, 21, 12, 0, i)), url: `/missing-${i}`, httpCode: 404 });
  });

  it('log csv and json', async () => {
    expect((await get('/export/log/csv')).json()).toEqual({
      data: 'date,url,sent_to,http_code,method,ip,domain,referrer,agent,redirect_by,redirection_id\n"2026-11-21T12:06:30.000Z","/old-page","/new-page/",301,"GET","192.0.2.1","http://127.0.0.1","","Mozilla/5.0","redirection",1\n',
      total: 1,
    });
    const json = (await get('/export/log/json')).json() as Exported;
    expect(JSON.parse(json.data)).toMatchObject([{ url: '/old-page', sent_to: '/new-page/', http_code: 301, redirect_by: 'Redirection', created: 'November 21, 2026', created_time: '7:06 am' }]);
    expect((await get('/export/log/preview')).json()).toEqual((await get('/export/log/csv')).json());
  });

  it('404 csv, json and the preview of the newest 10', async () => {
    const csv = (await get('/export/404/csv')).json() as Exported;
    expect(csv.total).toBe(12);
    expect(csv.data.split('\n')[1]).toBe('"2026-11-21T12:00:11.000Z","/missing-11",404,"GET","192.0.2.1","http://127.0.0.1","","Mozilla/5.0"');
    expect(JSON.parse(((await get('/export/404/json')).json() as Exported).data)).toHaveLength(12);
    const preview = (await get('/export/404/preview')).json() as Exported;
    expect([preview.total, preview.data.trimEnd().split('\n').length]).toEqual([12, 11]);
  });
});

describe('import/file (448, 449)', () => {
  beforeEach(() => insertThroughRepository(app.store, recordedState(), lastHit));

  const csv448 = '/imported-one,/imported-target,0,301\n/imported-two,/imported-target-2,0,302\n';

  it('capture 448: the recorded upload imports 2, listed as 450 shows them, and the site redirects at once', async () => {
    const c = capture(448);
    const res = await app.server.inject({
      method: 'POST',
      url: `${API}/import/file/1`,
      payload: c.request.body as unknown as string,
      headers: { authorization: admin, 'content-type': c.request.headers['Content-Type']! },
    });
    expect([res.statusCode, res.json()]).toEqual([200, c.response.body_json]);
    const list = (await get('/redirect?filterBy%5Burl%5D=imported')).json() as { items: Array<Record<string, unknown>> };
    const want = (capture(450).response.body_json as { items: Array<Record<string, unknown>> }).items;
    expect(list.items.map(({ id: _, ...r }) => r)).toEqual(want.map(({ id: _, ...r }) => r));
    const site = await app.server.inject({ method: 'GET', url: '/imported-one' });
    expect([site.statusCode, site.headers.location]).toEqual([301, '/imported-target']);
  });

  it('capture 449: no file; an unreadable file answers the same', async () => {
    const c = capture(449);
    const none = await app.server.inject({ method: 'POST', url: `${API}/import/file/1`, payload: '{}', headers: { authorization: admin, 'content-type': 'application/json' } });
    expect([none.statusCode, none.json()]).toEqual([c.response.status, c.response.body_json]);
    for (const [name, text] of [['bad.csv', 'just one column\n'], ['bad.json', '{not json'], ['bad.htaccess', 'Options -Indexes\n']]) {
      const r = await importFile(name!, text!);
      expect([r.status, r.body]).toEqual([c.response.status, c.response.body_json]);
    }
    expect(await count()).toBe(8);
  });

  it('an unknown group is redirect_import_invalid_group', async () => {
    const r = await importFile('a.csv', csv448, {}, 99);
    expect([r.status, r.body.code, r.body.message]).toEqual([400, 'redirect_import_invalid_group', 'Invalid group']);
  });

  it('dry_run counts what would be imported and writes nothing', async () => {
    const r = await importFile('a.csv', csv448, { dry_run: 'true' });
    expect(r.body).toEqual({ imported: 2, dry_run: true });
    expect(await count()).toBe(8);
    const json = await importFile('export.json', recorded(413).data, { dry_run: '1' });
    expect(json.body).toEqual({ imported: 8, dry_run: true });
    expect(await app.store.redirection.groups.all()).toHaveLength(3);
  });

  it('duplicate_mode: allow adds again, skip leaves existing sources, overwrite replaces them', async () => {
    expect((await importFile('a.csv', csv448)).body).toEqual({ imported: 2 });
    expect((await importFile('a.csv', csv448, { duplicate_mode: 'skip' })).body).toEqual({ imported: 0, skipped: 2 });
    expect(await count()).toBe(10);
    expect((await importFile('a.csv', csv448)).body).toEqual({ imported: 2 });
    expect(await count()).toBe(12);
    expect((await importFile('b.csv', '/old-page,/newer-page/,0,302\n', { duplicate_mode: 'overwrite' })).body).toEqual({ imported: 1 });
    expect(await count()).toBe(12);
    const [row] = await app.store.sql.query<{ action_code: number; action_data: { url: string } }>(`select action_code, action_data from redirection_items where id = 1`);
    expect(row).toEqual({ action_code: 302, action_data: { url: '/newer-page/' } });
  });

  it('deduplicate keeps the first of the same source in the file', async () => {
    const text = '/dup,/first\n/dup,/second\n/other,/x\n';
    expect((await importFile('d.csv', text, { deduplicate: 'true' })).body).toEqual({ imported: 2, skipped: 1 });
    const rows = await app.store.sql.query<{ action_data: { url: string } }>(`select action_data from redirection_items where url = '/dup'`);
    expect(rows).toEqual([{ action_data: { url: '/first' } }]);
  });

  it('a JSON export imported into a wiped site exports the same again (groups reused, nothing lost)', async () => {
    const before = (await get('/export/all/json')).json() as Exported;
    await app.store.redirection.wipe();
    expect((await importFile('export.json', before.data, {}, 1)).body).toEqual({ imported: 8 });
    const after = (await get('/export/all/json')).json() as Exported;
    const strip = (e: Exported) => {
      const doc = JSON.parse(e.data.replace(DATE, 'DATE'));
      return { ...doc, redirects: doc.redirects.map(({ id: _, ...r }: Record<string, unknown>) => r) };
    };
    expect(strip(after)).toEqual(strip(before));
  });

  it('a CSV export imported into an empty group keeps source, target, regex, code, type, hits, title and status', async () => {
    const before = (await get('/export/all/csv')).json() as Exported;
    await app.store.redirection.wipe();
    expect((await importFile('export.csv', before.data)).body).toEqual({ imported: 8 });
    expect((await get('/export/all/csv')).json()).toEqual(before);
  });

  it('import_sections: only the settings of a bundle', async () => {
    const bundle = ((await get('/export/bundle')).json() as Exported).data;
    await app.store.redirection.settings.save({ expire_redirect: 30 });
    const doc = JSON.parse(bundle);
    doc.settings.expire_redirect = 14;
    const r = await importFile('bundle.json', JSON.stringify(doc), { 'import_sections[]': 'settings' });
    expect(r.body).toEqual({ imported: 0 });
    expect(await count()).toBe(8);
    expect((await app.store.redirection.settings.get()).expire_redirect).toBe(14);
  });

  it('format overrides the file extension', async () => {
    expect((await importFile('rules.txt', 'Redirect 301 /from-htaccess /to\n', { format: 'apache' })).body).toEqual({ imported: 1 });
    const [row] = await app.store.sql.query<{ action_code: number }>(`select action_code from redirection_items where url = '/from-htaccess'`);
    expect(row).toEqual({ action_code: 301 });
  });
});
