/** history/v1 stats, search options, search-user, backfill status and the email report previews. */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logEvent } from '../../src/audit/log.ts';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let admin: string;
let smtp: SMTPServer;
const received: { from: string; to: string[]; data: string }[] = [];

const get = async (t: TestApp, url: string, auth: string | null = admin) => t.server.inject({ url: `/wp-json/history/v1${url}`, headers: auth ? { authorization: auth } : {} });
const optionsOf = async (url: string) => (await app.server.inject({ method: 'OPTIONS', url: `/wp-json/history/v1${url}` })).json();

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ from: String(session.envelope.mailFrom && session.envelope.mailFrom.address), to: session.envelope.rcptTo.map((r) => r.address), data: Buffer.concat(chunks).toString('utf8') });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:08:00Z', LINTEL_SMTP_URL: `smtp://127.0.0.1:${port}`, LINTEL_MAIL_FROM: 'history@lintel.test' } });
  admin = await app.auth('administrator');
  const actor = { user: await app.store.users.byLogin('admin'), ip: '127.0.0.1', clock: app.services.clock };
  // Site zone America/New_York: 2026-11-20 15:30 GMT is a Friday 10:30 local.
  for (const [date, logger, key] of [
    ['2026-11-20 15:30:00', 'SimplePostLogger', 'post_created'],
    ['2026-11-20 15:45:00', 'SimplePostLogger', 'post_updated'],
    ['2026-11-20 16:10:00', 'SimplePostLogger', 'post_trashed'],
    ['2026-11-21 09:00:00', 'SimpleUserLogger', 'user_login_failed'],
    ['2026-11-21 09:05:00', 'SimpleUserLogger', 'user_logged_in'],
    ['2026-09-01 12:00:00', 'SimplePostLogger', 'post_created'],
    ['2026-09-02 12:00:00', 'SimpleUserLogger', 'user_created'],
  ] as const) {
    await logEvent(app.store, actor, { logger, key, date, context: { post_id: date, post_type: 'tribe_events', post_title: 'x', login: 'admin' } });
  }
});
afterAll(async () => {
  await app.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('stats', () => {
  it('summarises the last 30 days in the site zone by default, with the legacy date range', async () => {
    const res = await get(app, '/stats/summary');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // Today is 2026-11-21 in New York: from 2026-10-23 00:00 to 2026-11-21 23:59:59 local.
    expect(body.date_range).toEqual({ from: 1792728000, to: 1795323599, from_formatted: 'October 23, 2026 4:00 am', to_formatted: 'November 22, 2026 4:59 am', duration_days: 31 });
    expect(body.total_events).toBe(5);
    expect(body.total_events_since_install).toBe(7);
    // As the legacy counters: "deleted" counts deletions, not trashing; each total counts every event of its area.
    expect(body.totals.content).toEqual({ created: 1, updated: 1, deleted: 0, total: 3 });
    expect(body.totals.users).toEqual({ logins: 1, failed_logins: 1, profile_updates: 0, total: 2 });
  });

  it('honours date_from and date_to, and lists details on request', async () => {
    const from = Date.parse('2026-08-01T00:00:00Z') / 1000;
    const to = Date.parse('2026-09-30T00:00:00Z') / 1000;
    const body = (await get(app, `/stats/content?date_from=${from}&date_to=${to}&include_details=true`)).json();
    expect(body.summary).toEqual({ created: 1, updated: 0, deleted: 0, total: 1 });
    // Each list as the legacy query selects it: named context values, as strings.
    const adminId = String((await app.store.users.byLogin('admin'))!.id);
    expect(body.details).toEqual({
      content_items_created_details: [{ created_date: '2026-09-01 12:00:00', post_id: '2026-09-01 12:00:00', post_title: 'x', post_type: 'tribe_events', created_by_id: adminId }],
      content_items_updated_details: [],
      content_items_trashed_details: [],
      content_items_deleted_details: [],
    });
    const actor = { user: await app.store.users.byLogin('admin'), ip: '127.0.0.1', clock: app.services.clock };
    await logEvent(app.store, actor, { logger: 'SimpleUserLogger', key: 'user_created', date: '2026-09-03 12:00:00', context: { created_user_id: '7', created_user_email: 'e@x.test', created_user_login: 'eve', created_user_role: 'editor' } });
    await logEvent(app.store, actor, { logger: 'SimpleUserLogger', key: 'user_login_failed', date: '2026-09-03 12:00:00', context: { login: 'eve' } });
    await logEvent(app.store, actor, { logger: 'SimpleUserLogger', key: 'user_unknown_login_failed', date: '2026-09-03 13:00:00', context: { failed_username: 'eve' } });
    const users = (await get(app, `/stats/users?date_from=${from}&date_to=${to}&include_details=true`)).json().details;
    // The user created without the created_user_* values (2026-09-02) is left out, as the legacy join leaves it out.
    expect(users.added_users).toEqual([{ date: '2026-09-03 12:00:00', user_id: '7', user_login: 'eve', user_email: 'e@x.test', user_role: 'editor', added_by_id: adminId }]);
    // Failed logins are counted per name tried, whether the user exists or not.
    expect(users.failed_logins).toEqual([{ date: '2026-09-03 12:00:00', attempted_username: 'eve', failed_count: '2' }]);
    // Users created are in the users' total, though no figure beside it shows them.
    expect((await get(app, `/stats/users?date_from=${from}&date_to=${to}`)).json().summary).toEqual({ logins: 0, failed_logins: 2, profile_updates: 0, total: 4 });
  });

  it('buckets peak days and times in the site zone, and fills every day of the activity overview', async () => {
    expect((await get(app, '/stats/peak-times')).json().peak_times).toEqual([
      { hour: '4', count: '2', time_span: '04:00-04:59' },
      { hour: '10', count: '2', time_span: '10:00-10:59' },
      { hour: '11', count: '1', time_span: '11:00-11:59' },
    ]);
    expect((await get(app, '/stats/peak-days')).json().peak_days).toEqual([
      { day: '5', count: '3', day_name: 'Friday' },
      { day: '6', count: '2', day_name: 'Saturday' },
    ]);
    const overview = (await get(app, '/stats/activity-overview')).json().activity_by_date;
    expect(overview).toHaveLength(30);
    expect(overview.at(-2)).toEqual({ date: '2026-11-20', count: '3' });
    expect(overview[0]).toEqual({ date: '2026-10-23', count: 0 });
  });

  it('needs manage_options', async () => {
    const res = await get(app, '/stats/summary', await app.auth('editor'));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('rest_forbidden_context');
    expect((await get(app, '/stats/summary?limit=101')).statusCode).toBe(400);
  });

  it('shows the stats item schema in each stats route\'s OPTIONS answer', async () => {
    for (const name of ['summary', 'plugins']) {
      const schema = (await optionsOf(`/stats/${name}`)).schema;
      expect(schema).toMatchObject({ title: 'simple-history-stats', properties: { date_range: { type: 'object' }, summary: { type: 'object' }, details: { type: 'object' } } });
    }
  });

  it('checks context, page, per_page and search first (core validate callbacks), the stats parameters only when those pass', async () => {
    expect((await get(app, '/stats/users?context[]=x&date_from[]=1')).json().message).toBe('Invalid parameter(s): context');
    expect((await get(app, '/stats/users?date_from[]=1&limit=x')).json().message).toBe('Invalid parameter(s): date_from, limit');
  });
});

describe('search options, search-user, backfill status', () => {
  it('answers the search options with the months that have events and the loggers', async () => {
    const body = (await get(app, '/search-options')).json();
    expect(body.dates.result_months).toEqual([{ yearMonth: '2026-11' }, { yearMonth: '2026-09' }]);
    // The plugin's 29 loggers with their own search labels, whether or not Lintel writes as them.
    expect(body.loggers).toHaveLength(29);
    expect(body.loggers[2]).toEqual({
      slug: 'CustomEntryLogger',
      name: 'Custom Entry Logger',
      search_data: { search: { label: 'Custom entries', options: ['CustomEntryLogger:custom_entry_added'] }, search_options: [{ label: 'Custom entry added', options: ['CustomEntryLogger:custom_entry_added'] }] },
    });
    // An editor is offered the loggers whose capability an editor has (edit_posts, upload_files, edit_pages, moderate_comments).
    const editor = (await get(app, '/search-options', await app.auth('editor'))).json();
    expect(editor.loggers.map((l: { slug: string }) => l.slug)).toEqual(['CustomEntryLogger', 'NotesLogger', 'PluginEnableMediaReplaceLogger', 'SimpleCommentsLogger', 'SimpleLogger', 'SimpleMediaLogger', 'SimplePostLogger']);
    // The months are those of the loggers the reader may read: none for a subscriber; the page estimates count every event.
    const subscriber = (await get(app, '/search-options', await app.auth('subscriber'))).json();
    expect([subscriber.loggers, subscriber.dates.result_months]).toEqual([[], []]);
    expect(subscriber.dates.arr_days_and_pages).toEqual(body.dates.arr_days_and_pages);
    expect((await get(app, '/search-options', null)).json()).toEqual({ code: 'rest_forbidden_context', message: 'Sorry, you are not allowed to view events.', data: { status: 401 } });
    expect(body.initiators[0]).toEqual({ value: 'wp_user', label: 'WordPress user' });
    expect(body.current_user_can_manage_options).toBe(true);
  });

  it('sizes the default date range as the legacy plugin does: distinct occasions per page of 20, from 1 up to 30 days back', async () => {
    const { dates, experimental_features_enabled, settings_page_url } = (await get(app, '/search-options')).json();
    // From the start of yesterday (2026-11-20 UTC) on: 5 of the seeded events, as in the 30 days back (not the one of September).
    expect(dates.arr_days_and_pages).toEqual([
      { daysToShow: 1, numPages: 5 / 20 },
      { daysToShow: 7, numPages: 5 / 20 },
      { daysToShow: 14, numPages: 5 / 20 },
      { daysToShow: 30, numPages: 5 / 20 },
    ]);
    expect(dates.daysToShow).toBe(30);
    expect(experimental_features_enabled).toBe(false);
    expect(settings_page_url).toMatch(/\/wp-admin\/admin\.php\?page=simple_history_settings_page$/);
  });

  it("keeps the page estimates and months for an hour, as the plugin's transients: events logged meanwhile do not move them", async () => {
    const fresh = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:08:00Z' } });
    try {
      const auth = await fresh.auth('administrator');
      const actor = { user: await fresh.store.users.byLogin('admin'), ip: '127.0.0.1', clock: fresh.services.clock };
      const entry = (date: string) => logEvent(fresh.store, actor, { logger: 'CustomEntryLogger', key: 'custom_entry_added', date, context: { message: date } });
      await entry('2026-11-21 10:00:00');
      const before = (await get(fresh, '/search-options', auth)).json().dates;
      expect([before.arr_days_and_pages[0], before.result_months]).toEqual([{ daysToShow: 1, numPages: 1 / 20 }, [{ yearMonth: '2026-11' }]]);
      await entry('2026-11-21 11:00:00');
      await entry('2026-10-01 11:00:00');
      expect((await get(fresh, '/search-options', auth)).json().dates).toEqual(before);
      // The live counts have moved: the list sees both new events at once.
      expect((await get(fresh, '/events?ungrouped=true', auth)).headers['x-wp-total']).toBe('3');
    } finally {
      await fresh.close();
    }
  });

  it('finds users by the q query parameter, and needs one', async () => {
    expect((await get(app, '/search-user?q=adm')).json()).toEqual([{ ID: '1', user_login: 'admin', user_nicename: 'admin', user_email: 'admin@example.test', display_name: 'admin', id: '1' }]);
    const empty = await get(app, '/search-user');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Please provide a search query.');
  });

  it('refuses anyone who may not list users with its own message', async () => {
    for (const auth of [null, await app.auth('editor')]) {
      const res = await get(app, '/search-user?q=adm', auth);
      expect(res.statusCode).toBe(auth ? 403 : 401);
      expect(res.json()).toMatchObject({ code: 'rest_forbidden_context', message: 'Sorry, you are not allowed to search users.' });
    }
  });

  it('reports no pending backfill', async () => {
    expect((await get(app, '/backfill-status')).json()).toEqual({ completed: true, type_stats: {} });
  });
});

describe('email report previews', () => {
  it('renders the HTML preview', async () => {
    const res = await get(app, '/email-report/preview/html');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<strong>5</strong> events');
    // The plugin prints the page and exits: neither _envelope nor _fields touch it.
    const enveloped = await get(app, '/email-report/preview/html?_envelope=1&_fields=id');
    expect([enveloped.statusCode, enveloped.headers['content-type'], enveloped.body]).toEqual([200, res.headers['content-type'], res.body]);
    // Nor the headers WordPress sends after dispatch.
    expect([res.headers.allow, res.headers['cache-control'], res.headers.link]).toEqual([undefined, undefined, '<http://lintel.test/wp-json/>; rel="https://api.w.org/"']);
  });

  it('sends the email preview to the administrator through the configured SMTP server', async () => {
    const res = await app.server.inject({ method: 'POST', url: '/wp-json/history/v1/email-report/preview/email', headers: { authorization: admin } });
    expect(res.json()).toEqual({ success: true, message: 'Test email sent successfully to admin@example.test.' });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: 'history@lintel.test', to: ['admin@example.test'] });
    expect(received[0].data).toMatch(/^Subject: .*Weekly_activity_summary/m);
    expect(received[0].data).toContain('<strong>5</strong> events');
  });

  it('answers as a failed send (500 email_send_failed, as the legacy site without mail) without an SMTP server', async () => {
    const bare = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:08:00Z' } });
    try {
      const res = await bare.server.inject({ url: '/wp-json/history/v1/email-report/preview/email', headers: { authorization: await bare.auth('administrator') } });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ code: 'email_send_failed', message: 'Failed to send test email.', data: { status: 500 } });
    } finally {
      await bare.close();
    }
  });
});

describe('the initiator filter', () => {
  // validate_initiator_param runs before the schema checks of the other arguments (offset here).
  it('is refused with the legacy message unless each value is a known initiator', async () => {
    const res = await get(app, '/events?initiator=robot&offset=abc');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Invalid parameter(s): initiator', data: { params: { initiator: 'initiator is not one of wp_user, web_user, wp, wp_cli, other' } } });
    expect((await get(app, '/events?initiator[]=wp_user&initiator[]=wp')).statusCode).toBe(200);
  });
});
