/** forms-submissions over HTTP on the demo forms: table reads, trash/restore/delete, update, handle-extra, exports, files, settings, e-mail; permissions and errors. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/lib/roles.ts';
import { pinnedClock } from '../../src/clock.ts';
import { seedFormsDemo } from '../../src/namespaces/forms/demo.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { testSmtp, type TestSmtp } from '../support/smtp.ts';

const NOW = '2026-11-21T12:00:00Z';
const NS = '/wp-json/forms-submissions';
let app: TestApp;
let smtp: TestSmtp;
let admin: string;
const filesDir = mkdtempSync(path.join(tmpdir(), 'lintel-forms-'));

const call = (method: string, url: string, body?: unknown, auth?: string, a: TestApp = app) =>
  a.server.inject({
    method: method as 'GET',
    url: NS + url,
    headers: { ...(auth ? { authorization: auth } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    payload: body !== undefined ? JSON.stringify(body) : undefined,
  });

let contact: number;
let feedback: number;

beforeAll(async () => {
  smtp = await testSmtp();
  app = await testApp({ env: { LINTEL_CLOCK: NOW, LINTEL_FORMS_FILES_DIR: filesDir, LINTEL_SMTP_URL: smtp.url, LINTEL_MAIL_FROM: 'Site <site@example.test>' } });
  await seedFormsDemo(app.store, pinnedClock(NOW));
  admin = await app.auth('administrator');
  [contact, feedback] = (await app.store.forms.forms()).map((f) => f.id);
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});

const data = async (query: string) => (await call('GET', `/submissions/get?type=data&form_ids=${contact}${query}`, undefined, admin)).json();

describe('submissions/get', () => {
  it('type=columns: the form\'s value fields keyed by slug', async () => {
    const cols = (await call('GET', `/submissions/get?type=columns&form_ids=${contact}`, undefined, admin)).json();
    expect(Object.keys(cols)).toEqual(['name', 'email', 'topics', 'message']);
    expect(cols.email).toMatchObject({ slug: 'email', label: 'Email', adminLabel: 'E-mail address', type: 'email' });
  });

  it('type=data: SingleSubmissions newest first with the count of all matching, paged and searchable', async () => {
    const all = await data('');
    expect(all.count).toBe(3);
    const subs = Object.values(all.data) as any[];
    expect(subs.map((s) => s.submissionFieldCollection.name.value)).toEqual(['Alan Kay', 'Grace Hopper', 'Ada Byron']);
    const first = subs[0];
    expect(Object.keys(all.data)[0]).toBe(`store_${first.submissionRecordId}`);
    expect(first).toMatchObject({ formId: contact, dataSource: 'store', status: ['active'], extraValues: { seq_num: 3 }, submissionHandlers: { csv: { handlerClassName: 'SubmissionCsvDownload' } } });
    expect(first.timestamp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const page2 = await data('&page_size=2&current_page=2');
    expect(page2.count).toBe(3);
    expect(Object.values(page2.data).map((s: any) => s.submissionFieldCollection.name.value)).toEqual(['Ada Byron']);
    const found = await data('&search_term=hall');
    expect(found.count).toBe(1);
    // A date window (Unix timestamps): only the last 10 days.
    const recent = await data(`&start_date=${Date.parse(NOW) / 1000 - 10 * 86400}&end_date=0`);
    expect(recent.count).toBe(2);
  });

  it('refuses a missing type (malformed_request) and a missing form_ids (missing parameter)', async () => {
    const noType = await call('GET', `/submissions/get?form_ids=${contact}`, undefined, admin);
    expect(noType.statusCode).toBe(400);
    expect(noType.json().code).toBe('malformed_request');
    const noForm = await call('GET', '/submissions/get?type=data', undefined, admin);
    expect(noForm.json()).toMatchObject({ code: 'rest_missing_callback_param', data: { status: 400, params: ['form_ids'] } });
    for (const range of ['&start_date=99999999999999', '&end_date=99999999999999']) {
      const far = await call('GET', `/submissions/get?type=data&form_ids=${contact}${range}`, undefined, admin);
      expect(far.statusCode, range).toBe(400);
      expect(far.json().code).toBe('malformed_request');
    }
  });
});

describe('trash, restore, delete, update', () => {
  it('delete trashes an active submission, restore brings it back, delete in the trash removes it for good', async () => {
    const sub = await app.store.forms.addSubmission(feedback, { x: 'temp' }, new Date(NOW));
    const single = { submissionRecordId: sub.id };
    expect((await call('POST', '/submissions/delete', { submissions: [single] }, admin)).json()).toBe('ok');
    expect((await app.store.forms.submission(sub.id))!.status).toBe('trash');
    const trash = (await call('GET', `/submissions/get?type=data&form_ids=${feedback}&status=trash`, undefined, admin)).json();
    expect(Object.values(trash.data).map((s: any) => s.submissionRecordId)).toEqual([sub.id]);
    expect((await call('POST', '/submissions/restore', { restore: true, submissions: [single] }, admin)).json()).toBe('ok');
    expect((await app.store.forms.submission(sub.id))!.status).toBe('active');
    await call('POST', '/submissions/delete', { submissions: [sub.id] }, admin);
    await call('POST', '/submissions/delete', { submissions: [String(sub.id)] }, admin);
    expect(await app.store.forms.submission(sub.id)).toBeNull();
  });

  it('a delete naming an unknown submission changes nothing', async () => {
    const sub = await app.store.forms.addSubmission(feedback, {}, new Date(NOW));
    const res = await call('POST', '/submissions/delete', { submissions: [sub.id, 999999] }, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('malformed_request');
    expect((await app.store.forms.submission(sub.id))!.status).toBe('active');
  });

  it('update writes the values sent (by slug) and keeps the others; bad values are refused', async () => {
    const [latest] = Object.values((await data('&page_size=1')).data) as any[];
    latest.submissionFieldCollection.message.value = 'Edited by the admin';
    latest.submissionFieldCollection.topics.value = ['press', 'tickets'];
    delete latest.submissionFieldCollection.name;
    expect((await call('POST', '/submissions/update', { singleSubmission: JSON.stringify(latest) }, admin)).json()).toBe('ok');
    const after = (Object.values((await data('&page_size=1')).data) as any[])[0].submissionFieldCollection;
    expect(after.message.value).toBe('Edited by the admin');
    expect(after.topics.value).toEqual(['press', 'tickets']);
    expect(after.name.value).toBe('Alan Kay');
    latest.submissionFieldCollection.message.value = { nested: true };
    expect((await call('POST', '/submissions/update', { singleSubmission: latest }, admin)).statusCode).toBe(400);
    expect((await call('POST', '/submissions/update', { singleSubmission: 'not json' }, admin)).json().code).toBe('malformed_request');
    expect((await call('POST', '/submissions/update', {}, admin)).json().code).toBe('rest_missing_callback_param');
  });

  it('handle-extra runs only listed handlers: the CSV download, or an empty response for any other name', async () => {
    const [latest] = Object.values((await data('&page_size=1')).data) as any[];
    const csv = (await call('POST', '/submissions/handle-extra', { singleSubmission: latest, handleExtra: 'SubmissionCsvDownload' }, admin)).json();
    expect(csv).toMatchObject({ responseType: 'download', blobType: 'text/csv', filename: 'Contact-Me-3.csv' });
    expect(Buffer.from(csv.download, 'base64').toString()).toContain('"Alan Kay"');
    const other = (await call('POST', '/submissions/handle-extra', { singleSubmission: latest, handleExtra: 'WP_Filesystem_Direct' }, admin)).json();
    expect(other).toEqual({ responseType: 'none', download: '', blobType: '', result: '', filename: '' });
    expect((await call('POST', '/submissions/handle-extra', { singleSubmission: latest, handleExtra: 'constructor' }, admin)).json().responseType).toBe('none');
  });
});

describe('export', () => {
  it('date range: one CSV per form under admin labels, formulas neutralised', async () => {
    await app.store.forms.addSubmission(contact, { [String((await app.store.forms.fields(contact))[0].id)]: '=HYPERLINK("http://evil")' }, new Date('2026-11-20T10:00:00Z'));
    const res = await call('POST', '/export', { form_ids: `${contact},${feedback}`, start_date: '2026-11-19', end_date: '2026-11-20' }, admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual([String(contact), String(feedback)]);
    const lines = body[contact].trim().split('\n');
    expect(lines[0]).toBe('"#","Date Submitted","Name","E-mail address","Topics","Message"');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"\'=HYPERLINK(""http://evil"")"');
    expect(body[feedback].trim().split('\n')).toEqual(['"#","Date Submitted","Event","Rating","Comments"']);
  });

  it('a single submission, or selected IDs of a form; anything else is malformed', async () => {
    const subs = Object.values((await data('')).data) as any[];
    const one = (await call('POST', '/export', { singleSubmission: subs[0] }, admin)).json();
    expect(one[contact].trim().split('\n')).toHaveLength(2);
    const picked = (await call('POST', '/export', { submissions: [subs[0].submissionRecordId, subs[1].submissionRecordId], form_ids: [contact] }, admin)).json();
    expect(picked[contact].trim().split('\n')).toHaveLength(3);
    expect((await call('POST', '/export', { form_ids: [contact] }, admin)).json().code).toBe('malformed_request');
    const badDate = await call('POST', '/export', { form_ids: [contact], start_date: 'soon', end_date: '2026-01-01' }, admin);
    expect(badDate.json()).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { start_date: 'Invalid date.' } } });
  });

  it('download-all writes the CSV under the files folder, served at downloadUrl; delete-download-file deletes only there', async () => {
    const res = (await call('POST', '/download-all', { form_ids: `${feedback},${contact}` }, admin)).json();
    expect(res.formId).toBe(feedback);
    expect(path.dirname(res.filePath)).toBe(filesDir);
    expect(readFileSync(res.filePath, 'utf8')).toContain('"Autumn Jazz Night"');
    const url = new URL(res.downloadUrl);
    const served = await app.server.inject({ url: url.pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('text/csv; charset=UTF-8');
    expect(served.body).toContain('"Autumn Jazz Night"');

    const outside = path.join(mkdtempSync(path.join(tmpdir(), 'lintel-outside-')), 'keep.txt');
    writeFileSync(outside, 'keep');
    for (const p of [outside, path.join(filesDir, '..', path.basename(path.dirname(outside)), 'keep.txt'), '../keep.txt', filesDir]) {
      expect((await call('POST', '/delete-download-file', { file_path: p }, admin)).json()).toEqual({ result: 'Permission denied to delete a file in that directory.' });
    }
    expect(existsSync(outside)).toBe(true);
    expect((await call('POST', '/delete-download-file', { file_path: res.filePath }, admin)).json()).toEqual({ result: 'File was deleted' });
    expect(existsSync(res.filePath)).toBe(false);
    expect((await call('POST', '/delete-download-file', { file_path: res.filePath }, admin)).json()).toEqual({ result: 'File could not be found for deletion' });
    expect((await app.server.inject({ url: url.pathname })).statusCode).toBe(404);
    expect((await call('POST', '/download-all', {}, admin)).json().code).toBe('malformed_request');
    expect((await call('POST', '/delete-download-file', {}, admin)).json().code).toBe('rest_missing_callback_param');
  });
});

describe('batch', () => {
  it('trash and settings writes run in batch/v1, all or nothing', async () => {
    const sub = await app.store.forms.addSubmission(feedback, {}, new Date(NOW));
    const res = await app.server.inject({
      method: 'POST', url: '/wp-json/batch/v1', headers: { authorization: admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ validation: 'require-all-validate', requests: [
        { path: '/forms-submissions/submissions/delete', body: { submissions: [sub.id] } },
        { path: '/forms-submissions/submissions/restore', body: { restore: true, submissions: [999999] } },
      ] }),
    });
    expect(res.json().responses.map((r: { status: number }) => r.status)).toEqual([200, 400]);
    expect((await app.store.forms.submission(sub.id))!.status).toBe('active');
  });
});

describe('settings', () => {
  it('get answers "false" until set; set answers the JSON text of what it did', async () => {
    expect((await call('GET', '/get-submissions-settings', undefined, admin)).json()).toBe('false');
    const set = (d: unknown) => call('POST', '/set-submissions-settings', { settingName: 'hiddenColumns', data: d, formID: String(contact) }, admin);
    expect(JSON.parse((await set({ cols: ['email'] })).json())).toEqual({ message: 'add_option', status: true });
    expect(JSON.parse((await set({ cols: ['email'] })).json())).toEqual({ message: 'unchanged', status: false });
    expect(JSON.parse((await set({ cols: [] })).json())).toEqual({ message: 'update_option', status: true });
    expect(JSON.parse((await call('GET', '/get-submissions-settings', undefined, admin)).json())).toEqual({ [contact]: { hiddenColumns: { cols: [] } } });
  });
});

describe('email-action', () => {
  it('resends through the SMTP server with merge tags (values escaped in HTML mail) and answers true', async () => {
    const sub = await app.store.forms.addSubmission(contact, { [String((await app.store.forms.fields(contact))[0].id)]: '<b>Eve</b>' }, new Date(NOW));
    const received = smtp.next();
    const res = await call('POST', '/email-action', {
      submission: sub.id, formID: String(contact),
      action_settings: { to: 'office@example.test, {field:email}', email_subject: 'New message from {field:name} on {form:title}', email_message: '<p>{all_fields_table}</p>', from_name: 'Forms' },
    }, admin);
    expect(res.json()).toBe(true);
    const m = await received;
    expect(m.to).toEqual(['office@example.test']);
    expect(m.from).toBe('site@example.test');
    expect(m.data).toContain('Subject: New message from <b>Eve</b> on Contact Me');
    expect(m.data).toContain('<td>&#60;b&#62;Eve&#60;/b&#62;</td>');
  });

  it('keeps merged values out of the mail headers', async () => {
    const sub = await app.store.forms.addSubmission(contact, { [String((await app.store.forms.fields(contact))[0].id)]: 'Eve\r\nBcc: victim@example.test' }, new Date(NOW));
    const received = smtp.next();
    await call('POST', '/email-action', { submission: sub.id, formID: contact, action_settings: { to: 'office@example.test', email_subject: 'From {field:name}', email_message: 'x' } }, admin);
    const m = await received;
    expect(m.to).toEqual(['office@example.test']);
    expect(m.data).not.toMatch(/^Bcc:/m);
  });

  it('answers the sequence number when the SMTP server cannot take the message', async () => {
    const sub = (await app.store.forms.submissions({ formId: contact, status: 'active' }))[0];
    const down = await testApp({ store: app.store, env: { LINTEL_FORMS_FILES_DIR: filesDir, LINTEL_SMTP_URL: 'smtp://127.0.0.1:1' } });
    const res = await call('POST', '/email-action', { submission: sub.id, formID: contact, action_settings: { to: 'a@example.test', email_message: 'x' } }, admin, down);
    expect([res.statusCode, res.json()]).toEqual([200, sub.seqNum]);
    await down.server.close();
  });

  it('refuses a missing form, an unknown submission or no recipient; with no SMTP server configured, 503', async () => {
    const sub = (await app.store.forms.submissions({ formId: contact, status: 'active' }))[0];
    expect((await call('POST', '/email-action', { submission: sub.id, action_settings: { to: 'a@example.test' } }, admin)).json()).toMatchObject({ code: 'malformed_request', data: { status: 400 } });
    expect((await call('POST', '/email-action', { submission: 999999, formID: contact, action_settings: { to: 'a@example.test' } }, admin)).json().code).toBe('malformed_request');
    expect((await call('POST', '/email-action', { submission: sub.id, formID: contact, action_settings: {} }, admin)).json().code).toBe('malformed_request');
    const bare = await testApp({ store: app.store, env: { LINTEL_FORMS_FILES_DIR: filesDir } });
    const res = await call('POST', '/email-action', { submission: sub.id, formID: contact, action_settings: { to: 'a@example.test' } }, admin, bare);
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('mail_not_configured');
    await bare.server.close();
  });
});

describe('permissions, index, OPTIONS', () => {
  const routes: [string, string][] = [
    ['GET', '/submissions/get?type=data&form_ids=1'], ['POST', '/submissions/delete'], ['POST', '/submissions/update'], ['POST', '/submissions/restore'],
    ['POST', '/submissions/handle-extra'], ['POST', '/export'], ['POST', '/download-all'], ['POST', '/delete-download-file'],
    ['POST', '/set-submissions-settings'], ['GET', '/get-submissions-settings'], ['POST', '/email-action'],
  ];
  it.each([[null, 401], ['subscriber', 403], ['editor', 403]] as const)('%s is refused on every route (%i)', async (role, status) => {
    const auth = role ? await app.auth(role as Role) : undefined;
    const body = { submissions: [1], singleSubmission: {}, restore: true, handleExtra: 'x', file_path: 'x', settingName: 'x', submission: 1, action_settings: {} };
    for (const [method, url] of routes) {
      const res = await call(method, url, method === 'POST' ? body : undefined, auth);
      expect(res.statusCode, `${method} ${url}`).toBe(status);
      expect(res.json().code).toBe('rest_forbidden');
    }
  });

  it('every route is in the index with its contract arguments, and answers OPTIONS', async () => {
    const ns = (await call('GET', '')).json();
    expect(Object.keys(ns.routes)).toHaveLength(12);
    expect(ns.routes['/forms-submissions/submissions/restore'].endpoints[0].args).toMatchObject({ restore: { type: 'boolean', required: true }, submissions: { type: 'array', required: true } });
    expect(ns.routes['/forms-submissions/email-action'].endpoints[0].args).toMatchObject({ submission: { type: 'integer', required: true }, action_settings: { type: 'object', required: true } });
    const opts = await call('OPTIONS', '/export', undefined, admin);
    expect(opts.headers.allow).toBe('POST');
    expect(opts.json().endpoints[0].args.form_ids.required).toBe(false);
  });
});
