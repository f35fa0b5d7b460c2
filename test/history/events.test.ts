/** history/v1: the events list and its filters, headers, single events, create, stick/unstick, react/unreact. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logEvent } from '../../src/audit/log.ts';
import { testApp, TEST_BASE, type TestApp } from '../support/app.ts';

let app: TestApp;
let admin: string;
let editor: string;

const get = async (url: string, auth: string | null = admin) => app.server.inject({ url: `/wp-json/history/v1${url}`, headers: auth ? { authorization: auth } : {} });
const post = async (url: string, body: unknown, auth: string | null = admin) =>
  app.server.inject({ method: 'POST', url: `/wp-json/history/v1${url}`, headers: { ...(auth ? { authorization: auth } : {}), 'content-type': 'application/json' }, payload: JSON.stringify(body) });
const ids = (res: { json(): unknown }) => (res.json() as { id: number }[]).map((e) => e.id);

beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:08:00Z' } });
  admin = await app.auth('administrator');
  editor = await app.auth('editor');
  // Events written through the logging module, as write paths write them.
  const actor = { user: await app.store.users.byLogin('admin'), ip: '203.0.113.7', clock: app.services.clock };
  const at = (d: string) => ({ date: d });
  await logEvent(app.store, actor, { logger: 'Plugin_Redirection', key: 'redirection_group_added', context: { group_name: 'Marketing' }, ...at('2026-10-05 09:00:00') });
  await logEvent(app.store, actor, { logger: 'Plugin_Redirection', key: 'redirection_options_saved', ...at('2026-11-20 10:00:00') });
  await logEvent(app.store, actor, { logger: 'Plugin_Redirection', key: 'redirection_options_saved', ...at('2026-11-20 10:00:01') });
  await logEvent(app.store, actor, { logger: 'Plugin_Redirection', key: 'redirection_options_saved', ...at('2026-11-20 10:00:02') });
  await logEvent(app.store, { ...actor, user: null, initiator: 'web_user' }, { logger: 'SimpleUserLogger', key: 'user_login_failed', level: 'warning', context: { login: 'mallory' }, ...at('2026-11-20 11:00:00') });
  await logEvent(app.store, actor, { logger: 'CustomEntryLogger', key: 'custom_entry_added', context: { message: 'Jazz night announced', note: 'See the programme' }, ...at('2026-11-21 08:00:00') });
});
afterAll(() => app.close());

describe('the help descriptors', () => {
  it("shows the legacy controller's item schema for /events in OPTIONS and in an index asked for context=help only", async () => {
    const options = (await app.server.inject({ method: 'OPTIONS', url: '/wp-json/history/v1/events' })).json();
    expect(Object.keys(options)).toEqual(['namespace', 'methods', 'endpoints', 'schema', '_links']);
    expect(options.schema).toMatchObject({ $schema: 'http://json-schema.org/draft-04/schema#', title: 'simple-history-event', type: 'object' });
    expect((await app.server.inject({ method: 'OPTIONS', url: '/wp-json/history/v1/events/has-updates' })).json().schema).toBeUndefined();
    const index = async (q: string) => (await app.server.inject({ url: `/wp-json/history/v1${q}` })).json().routes['/history/v1/events'];
    expect((await index('?context=help')).schema).toEqual(options.schema);
    expect((await index('')).schema).toBeUndefined();
  });
});

describe('GET /events', () => {
  it('refuses anonymous readers with rest_forbidden_context 401', async () => {
    const res = await get('/events', null);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'rest_forbidden_context', message: 'Sorry, you are not allowed to view events.', data: { status: 401 } });
  });

  it('lists newest first, grouping consecutive occasions under their newest row, with the pagination headers', async () => {
    const res = await get('/events?per_page=2');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.map((e: { message: string }) => e.message)).toEqual(['Added a custom entry: Jazz night announced', 'Failed to login with username "mallory" (incorrect password entered)']);
    expect(res.headers['x-wp-total']).toBe('4');
    expect(res.headers['x-wp-totalpages']).toBe('2');
    expect(res.headers['x-simplehistory-maxid']).toBe(String(body[0].id));
    expect(res.headers['x-simplehistory-maxdate']).toBe('2026-11-21 08:00:00');
    expect(res.headers.link).toBe(`<${TEST_BASE}/wp-json/history/v1/events?per_page=2&page=2>; rel="next"`);
    // Set as integers by the legacy controller: numbers where a client reads them as JSON.
    expect((await get('/events?per_page=2&_envelope=1')).json().headers).toMatchObject({ 'X-WP-Total': 4, 'X-WP-TotalPages': 2, 'X-SimpleHistory-MaxId': body[0].id });
    const page2 = (await get('/events?per_page=2&page=2')).json();
    expect(page2[0]).toMatchObject({ message: 'Updated redirection options', subsequent_occasions_count: 3 });
  });

  it('shapes the event object as the legacy plugin does', async () => {
    const [entry] = (await get('/events?per_page=1')).json();
    expect(Object.keys(entry)).toEqual([
      'id', 'date_local', 'date_gmt', 'via', 'message', 'message_html', 'message_uninterpolated', 'details_data', 'details_html', 'link', 'logger', 'message_key',
      'loglevel', 'initiator', 'initiator_data', 'ip_addresses', 'occasions_id', 'subsequent_occasions_count', 'sticky', 'sticky_appended', 'backfilled', 'context', 'permalink',
    ]);
    expect(entry).toMatchObject({
      date_local: '2026-11-21 03:00:00',
      date_gmt: '2026-11-21 08:00:00',
      message_uninterpolated: 'Added a custom entry: {message}',
      details_data: [{ title: null, items: [{ name: 'Entry notes', new_value: 'See the programme', slug_new: 'note' }] }],
      logger: 'CustomEntryLogger',
      message_key: 'custom_entry_added',
      loglevel: 'info',
      initiator: 'wp_user',
      initiator_data: { user_login: 'admin', user_email: 'admin@example.test' },
      ip_addresses: {},
      link: `${TEST_BASE}/wp-admin/admin.php?page=simple_history_admin_menu_page#simple-history/event/${entry.id}`,
    });
    // The client address is anonymised by default, as the legacy option does.
    expect(entry.context).toMatchObject({ message: 'Jazz night announced', note: 'See the programme', _message_key: 'custom_entry_added', _user_login: 'admin', _server_remote_addr: '203.0.113.x' });
  });

  it('lists every occasion with ungrouped=true, and the earlier occasions with type=occasions', async () => {
    const all = await get('/events?ungrouped=true&per_page=100');
    expect(all.headers['x-wp-total']).toBe('6');
    const [head] = (await get('/events?loggers=Plugin_Redirection&per_page=1')).json();
    const occ = await get(`/events?type=occasions&logRowID=${head.id}&occasionsID=${head.occasions_id}&occasionsCount=2`);
    expect(occ.json().map((e: { date_gmt: string }) => e.date_gmt)).toEqual(['2026-11-20 10:00:01', '2026-11-20 10:00:00']);
    expect(occ.headers['x-wp-total']).toBeUndefined();
  });

  it('filters by search, loggers, loglevels, messages, users, initiator, ip, dates, context and their exclusions', async () => {
    const messages = async (q: string) => (await get(`/events?ungrouped=true&per_page=100&${q}`)).json().map((e: { message_key: string }) => e.message_key);
    expect(await messages('search=jazz')).toEqual(['custom_entry_added']);
    expect(await messages('loglevels[]=warning')).toEqual(['user_login_failed']);
    expect(await messages('loggers=SimpleUserLogger,CustomEntryLogger')).toEqual(['custom_entry_added', 'user_login_failed']);
    expect(await messages('messages[]=Plugin_Redirection:redirection_group_added')).toEqual(['redirection_group_added']);
    expect(await messages('initiator=web_user')).toEqual(['user_login_failed']);
    expect(await messages('exclude_initiator=wp_user')).toEqual(['user_login_failed']);
    expect((await messages('users[]=1')).length).toBe(5);
    expect((await messages('exclude_user=1'))).toEqual(['user_login_failed']);
    expect(await messages('ip_address=203.0.113.x&loggers=SimpleUserLogger')).toEqual(['user_login_failed']);
    expect(await messages('date_from=2026-10-01&date_to=2026-10-31')).toEqual(['redirection_group_added']);
    expect(await messages('months[]=2026-10')).toEqual(['redirection_group_added']);
    expect(await messages('lastdays=1')).toEqual(['custom_entry_added']);
    expect(await messages('lastdays=2')).toEqual(['custom_entry_added', 'user_login_failed', 'redirection_options_saved', 'redirection_options_saved', 'redirection_options_saved']);
    expect(await messages('context_filters[group_name]=Marketing')).toEqual(['redirection_group_added']);
    expect(await messages('metadata_search=programme')).toEqual(['custom_entry_added']);
    expect(await messages('exclude_search=options&exclude_loggers[]=SimpleUserLogger')).toEqual(['custom_entry_added', 'redirection_group_added']);
    expect(await messages('exclude_loglevels[]=info')).toEqual(['user_login_failed']);
    expect(await messages('exclude_messages[]=Plugin_Redirection:redirection_options_saved&exclude_messages[]=CustomEntryLogger:custom_entry_added')).toEqual(['user_login_failed', 'redirection_group_added']);
  });

  it('answers since_id, since_date, max_id_first_page, include and offset', async () => {
    const all = ids(await get('/events?ungrouped=true&per_page=100'));
    expect(ids(await get(`/events?ungrouped=true&since_id=${all[2]}`))).toEqual(all.slice(0, 2));
    expect(ids(await get(`/events?ungrouped=true&max_id_first_page=${all[4]}`))).toEqual(all.slice(4));
    expect(ids(await get(`/events?ungrouped=true&include=${all[0]},${all[5]}`))).toEqual([all[0], all[5]]);
    expect(ids(await get('/events?ungrouped=true&offset=4'))).toEqual(all.slice(4));
    expect(ids(await get('/events?ungrouped=true&offset=-1'))).toEqual(all.slice(0, 10));
    expect(ids(await get('/events?ungrouped=true&since_date=2026-11-20 11:00:00'))).toEqual(all.slice(0, 1));
  });

  it('refuses bad arguments with the legacy errors', async () => {
    expect((await get('/events?type=bogus')).json().data.params.type).toBe('type is not one of overview and occasions.');
    expect((await get('/events?per_page=101')).statusCode).toBe(400);
    const initiator = await get('/events?initiator=robot');
    expect(initiator.statusCode).toBe(400);
    expect(initiator.json().data.params.initiator).toBe('initiator is not one of wp_user, web_user, wp, wp_cli, other');
    // The legacy plugin has no ip_address or metadata_search parameter: a value it could not use is ignored, never refused.
    const all = (await get('/events')).json();
    expect((await get('/events?ip_address=not-an-ip')).json()).toEqual(all);
    expect((await get('/events?ip_address[]=1.2.3.4&metadata_search[a]=x')).json()).toEqual(all);
    // Nor skip_count_query: a value that is no boolean counts as false (the total is counted), a boolean one is read.
    const odd = await get('/events?skip_count_query[]=true');
    expect([odd.statusCode, odd.headers['x-wp-total']]).toEqual([200, '4']);
    expect((await get('/events?skip_count_query=1')).headers['x-wp-total']).toBe('0');
    expect((await get('/events/has-updates?since_id=1&skip_count_query=yes')).json().new_events_count).toEqual(expect.any(Number));
    expect((await get('/events/has-updates?since_id=1&skip_count_query=true')).json()).toEqual({ new_events_count: null });
    expect((await get('/events/has-updates')).json().code).toBe('rest_missing_callback_param');
  });

  it('checks context_filters as an object of strings (a list is one keyed by position), as rest_validate_request_arg does', async () => {
    const refusal = async (q: string) => (await get(`/events?${q}`)).json().data.params?.context_filters;
    expect(await refusal('context_filters=abc')).toBe('context_filters is not of type object.');
    expect(await refusal('context_filters[][]=true')).toBe('context_filters[0] is not of type string.');
    expect(await refusal('context_filters[a][b]=1')).toBe('context_filters[a] is not of type string.');
    expect((await post('/events?_method=GET', { context_filters: { group_name: 5 } })).json().data.params.context_filters).toBe('context_filters[group_name] is not of type string.');
    expect((await get('/events?context_filters[]=x')).json()).toEqual([]);
    const all = (await get('/events')).json();
    expect((await get('/events?context_filters=')).json()).toEqual(all);
    expect((await post('/events?_method=GET', { context_filters: [] })).json()).toEqual(all);
  });

  it('checks context and search first, as the legacy validate callbacks, and page, per_page with the typed filters only when those pass', async () => {
    // The plugin redeclares page and per_page without core's validate callback.
    const first = (await get('/events?context[]=x&per_page[]=5&initiator=robot')).json();
    expect(first.message).toBe('Invalid parameter(s): context, initiator');
    const then = (await get('/events?per_page[]=5&page=x')).json();
    expect(Object.keys(then.data.params).sort()).toEqual(['page', 'per_page']);
    expect((await get('/events?exclude_initiator=robot')).json().data.params.exclude_initiator).toBe('exclude_initiator is not one of wp_user, web_user, wp, wp_cli, other');
  });

  it('shows an editor only the loggers an editor may read', async () => {
    expect((await get('/events?ungrouped=true', editor)).json().map((e: { logger: string }) => e.logger)).toEqual(['CustomEntryLogger']);
  });

  it('surrounds an event for administrators only', async () => {
    const all = ids(await get('/events?ungrouped=true&per_page=100'));
    const res = await get(`/events?surrounding_event_id=${all[3]}&surrounding_count=1`);
    expect(ids(res)).toEqual(all.slice(2, 5));
    expect(res.headers['x-simplehistory-centereventid']).toBe(String(all[3]));
    const refused = await get(`/events?surrounding_event_id=${all[3]}`, editor);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('You do not have permission to view surrounding events. This feature requires administrator privileges.');
    // A permission callback refused it: no method is left in Allow (nor on has-updates, which shares the check).
    expect(refused.headers.allow).toBeUndefined();
    expect((await get(`/events/has-updates?since_id=1&surrounding_event_id=${all[3]}`, editor)).statusCode).toBe(403);
    // Refused for an invalid parameter, the legacy check still sees surrounding_event_id as sent, so Allow stays empty.
    const invalid = await get('/events?surrounding_event_id=-1&per_page=x', editor);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.headers.allow).toBeUndefined();
    expect((await get('/events?per_page=x', editor)).headers.allow).toBe('GET');
  });
});

describe('has-updates and single events', () => {
  it('counts the events after since_id', async () => {
    const all = ids(await get('/events?ungrouped=true&per_page=100'));
    expect((await get(`/events/has-updates?since_id=${all[3]}`)).json()).toEqual({ new_events_count: 3 });
  });

  it('answers one event, 404 rest_event_invalid_id for an unknown one, 403 for a logger the reader may not read', async () => {
    const all = ids(await get('/events?ungrouped=true&per_page=100'));
    expect((await get(`/events/${all[0]}`)).json().id).toBe(all[0]);
    expect((await get('/events/999999')).json()).toEqual({ code: 'rest_event_invalid_id', message: 'Invalid event ID.', data: { status: 404 } });
    expect((await get(`/events/${all[1]}`, editor)).json().code).toBe('rest_forbidden_context');
  });

  it('reads the ID a query parameter gives over the path, and leaves GET out of Allow for a missing or unreadable event', async () => {
    const all = ids(await get('/events?ungrouped=true&per_page=100'));
    expect((await get(`/events/${all[0]}?id=${all[1]}`)).json().id).toBe(all[1]);
    expect((await get('/events/999999')).headers.allow).toBeUndefined();
    expect((await get(`/events/${all[1]}`, editor)).headers.allow).toBeUndefined();
    expect((await get(`/events/${all[0]}`)).headers.allow).toBe('GET');
    // An id that is no ID (a list, a word) finds no event either: refused, with nothing in Allow (stick too).
    for (const q of ['id[]=1', 'id=abc']) {
      const res = await get(`/events/${all[0]}?${q}`);
      expect([res.statusCode, res.headers.allow]).toEqual([400, undefined]);
    }
    const stick = await post(`/events/${all[0]}/stick?id[]=1`, {});
    expect([stick.statusCode, stick.headers.allow]).toEqual([400, undefined]);
  });

  it('leaves a method out of an OPTIONS answer\'s Allow when its permission fails on the event the path names, as for any other method', async () => {
    const [first] = ids(await get('/events?ungrouped=true&per_page=1'));
    const allow = async (url: string) => (await app.server.inject({ method: 'OPTIONS', url: `/wp-json/history/v1${url}`, headers: { authorization: admin } })).headers.allow;
    expect([await allow(`/events/${first}`), await allow(`/events/${first}/stick`)]).toEqual(['GET', 'POST']);
    expect([await allow('/events/999999'), await allow('/events/999999/stick')]).toEqual([undefined, undefined]);
  });
});

describe('POST /events', () => {
  it('creates a custom entry: 201 with the legacy body, then listed', async () => {
    const res = await post('/events', { message: 'Deployed v2', note: 'by CI', level: 'notice', date: '2026-11-21 09:00:00' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'Event logged successfully', data: { status: 201 } });
    const [entry] = (await get('/events?search=Deployed')).json();
    expect(entry).toMatchObject({ loglevel: 'notice', date_gmt: '2026-11-21 09:00:00', message: 'Added a custom entry: Deployed v2' });
  });

  it('refuses bad dates, levels and anonymous writers', async () => {
    expect((await post('/events', { message: 'x', date: '2026-11-21T09:00:00' })).json().code).toBe('rest_invalid_date');
    expect((await post('/events', { message: 'x', level: 'bogus' })).json().code).toBe('rest_invalid_param');
    expect((await post('/events', { level: 'info' })).json().code).toBe('rest_missing_callback_param');
    expect((await post('/events', { message: 'x' }, null)).statusCode).toBe(401);
    expect((await post('/events', { message: 'x' }, editor)).statusCode).toBe(403);
  });
});

describe('stick, unstick, react, unreact', () => {
  it('sticks and unsticks; unsticking an event that is not sticky answers the event', async () => {
    const [first] = ids(await get('/events?ungrouped=true&per_page=1'));
    const stuck = await post(`/events/${first}/stick`, {});
    expect(stuck.json()).toMatchObject({ id: first, sticky: true, context: { _sticky: '{}' } });
    expect(ids(await get('/events?only_sticky=true'))).toEqual([first]);
    const withSticky = (await get('/events?include_sticky=true&per_page=2')).json();
    expect(withSticky[0]).toMatchObject({ id: first, sticky_appended: true });
    expect((await post(`/events/${first}/unstick`, {})).json().sticky).toBe(false);
    const again = await post(`/events/${first}/unstick`, {});
    expect(again.statusCode).toBe(200);
    expect(again.json().sticky).toBe(false);
    expect((await post('/events/999999/stick', {})).json().code).toBe('rest_event_invalid_id');
    expect((await post(`/events/${first}/stick`, {}, null)).json()).toMatchObject({ code: 'rest_forbidden_context', message: 'Sorry, you are not allowed to update events.' });
  });

  it('records reactions per user, idempotently, and takes them back', async () => {
    const [first] = ids(await get('/events?ungrouped=true&per_page=1'));
    await post(`/events/${first}/react`, { type: 'thumbsup' });
    const twice = await post(`/events/${first}/react`, { type: 'thumbsup' });
    expect(twice.json().reactions).toEqual({ thumbsup: { count: 1, user_ids: [1], user_names: ['admin'], reacted: true } });
    const byEditor = await post(`/events/${first}/react`, { type: 'thumbsup' }, editor);
    expect(byEditor.json().reactions.thumbsup).toMatchObject({ count: 2, reacted: true });
    expect((await post(`/events/${first}/unreact`, { type: 'thumbsup' })).json().reactions.thumbsup).toMatchObject({ count: 1, reacted: false });
    expect((await post(`/events/${first}/react`, { type: 'heart' })).statusCode).toBe(400);
    expect((await post('/events/999999/react', { type: 'thumbsup' })).statusCode).toBe(404);
  });

  it('answers reactions and occasions only for events of loggers the reader may read', async () => {
    const saved = (await get('/events?ungrouped=true&per_page=20')).json().find((e: { logger: string; message: string }) => e.message === 'Updated redirection options');
    const subscriber = await app.auth('subscriber');
    const refused = await post(`/events/${saved.id}/react`, { type: 'thumbsup' }, editor);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('rest_forbidden_context');
    expect((await post(`/events/${saved.id}/react`, { type: 'thumbsup' }, subscriber)).statusCode).toBe(403);
    expect((await get(`/events/${saved.id}`)).json().reactions ?? {}).toEqual({}); // nothing was written
    const occasions = `/events?type=occasions&logRowID=${saved.id + 1}&occasionsID=${saved.occasions_id}&occasionsCount=5`;
    expect((await get(occasions)).json().length).toBeGreaterThan(0);
    expect((await get(occasions, editor)).json()).toEqual([]);
  });
});

// Last: it logs an event of its own.
describe('initiator_data.user_profile_url', () => {
  it("links the event's user as WordPress's get_edit_user_link does: the reader's own profile, another user's edit page for an administrator, nothing for other readers", async () => {
    const [entry] = (await get('/events?loggers[]=CustomEntryLogger')).json();
    expect(entry.initiator_data.user_profile_url).toBe(`${TEST_BASE}/wp-admin/profile.php`);
    expect((await get(`/events/${entry.id}`, editor)).json().initiator_data.user_profile_url).toBe('');
    const editorUser = (await app.store.users.byLogin('editor'))!;
    await logEvent(app.store, { user: editorUser, ip: '203.0.113.7', clock: app.services.clock }, { logger: 'CustomEntryLogger', key: 'custom_entry_added', context: { message: 'By the editor' }, date: '2026-01-01 00:00:00' });
    const byEditor = (await get('/events?search=editor')).json()[0];
    expect(byEditor.initiator_data.user_profile_url).toBe(`${TEST_BASE}/wp-admin/user-edit.php?user_id=${editorUser.id}`);
    expect((await get(`/events/${byEditor.id}`, editor)).json().initiator_data.user_profile_url).toBe(`${TEST_BASE}/wp-admin/profile.php`);
  });

  it("links a user created who still exists as the legacy user logger does, and trims the plain message", async () => {
    const editorUser = (await app.store.users.byLogin('editor'))!;
    const actor = { user: await app.store.users.byLogin('admin'), ip: '203.0.113.7', clock: app.services.clock };
    const created = { created_user_id: String(editorUser.id), created_user_login: 'editor', created_user_email: 'e@x.test', created_user_role: '' };
    await logEvent(app.store, actor, { logger: 'SimpleUserLogger', key: 'user_created', context: created, date: '2025-12-01 00:00:00' });
    await logEvent(app.store, actor, { logger: 'SimpleUserLogger', key: 'user_created', context: { ...created, created_user_id: '999' }, date: '2025-11-01 00:00:00' });
    const [gone, exists] = (await get('/events?messages[]=SimpleUserLogger:user_created&ungrouped=true')).json().toReversed();
    expect(exists.message_html).toBe(`Created user <a href="${TEST_BASE}/wp-admin/user-edit.php?user_id=${editorUser.id}">editor (e@x.test)</a> with role `);
    expect(exists.message).toBe('Created user editor (e@x.test) with role');
    expect(gone.message_html).toBe('Created user editor (e@x.test) with role ');
  });

  it("shows the plugin's welcome event (imported from the legacy log) with its introduction as details", async () => {
    const id = await app.store.history.log({ logger: 'SimpleLogger', level: 'info', message: 'Welcome to Simple History!', messageKey: null, initiator: 'wp', context: { is_welcome_message: 'true' }, date: '2025-01-01 00:00:00', occasionsId: 'welcome' });
    const event = (await get(`/events/${id}`)).json();
    expect(event.details_data).toEqual([{ title: null, items: [[]] }]);
    expect(event.details_html).toMatch(/^<table class="SimpleHistoryLogitem__keyValueTable"><tbody><div class="sh-FeedIntroduction">\n\t\t\t<div class="sh-FeedIntroduction-row">\n\t\t\t\t<div><span class="sh-FeedIntroduction-emoji">🚀<\/span><\/div>/);
    expect(event.details_html).toContain('events are automatically cleared after 60 days');
    expect(event.details_html).toMatch(/<\/div>\n\t\t<\/div><\/tbody><\/table>$/);
    // Writing its message adds the key it lacks to its context, as the legacy message output does; without the message it is as stored.
    expect(event.context).toEqual({ is_welcome_message: 'true', _message_key: null });
    expect((await get(`/events/${id}?_fields=context,message_html`)).json().context).toEqual({ is_welcome_message: 'true', _message_key: null });
    expect((await get(`/events/${id}?_fields=id,context`)).json()).toEqual({ id, context: { is_welcome_message: 'true' } });
  });

  it("shows the plugin logger's details of the log's installation events (imported from the legacy log) as the legacy site does", async () => {
    const imported = (messageKey: string, message: string, context: Record<string, string>) =>
      app.store.history.log({ logger: 'SimplePluginLogger', level: 'info', message, messageKey, initiator: 'wp_user', context: { ...context, _message_key: messageKey }, date: '2025-01-01 00:00:00', occasionsId: messageKey });
    const installed = await imported('plugin_installed', 'Installed plugin "{plugin_name}"', {
      plugin_name: 'Simple History', plugin_description: 'Plugin that logs various things.', plugin_url: 'https://simple-history.com', plugin_version: '5.23.1', plugin_author: 'Pär Thernström',
    });
    const activated = await imported('plugin_activated', 'Activated plugin "{plugin_name}"', { plugin_slug: 'simple-history', plugin_name: 'Simple History' });
    // As the oracle answered (Simple History 5.23.1).
    const row = (label: string, value: string) => `\n\t\t\t\t<tr>\n\t\t\t\t\t<td>${label}</td>\n\t\t\t\t\t<td>${value}</td>\n\t\t\t\t</tr>\n\t\t\t\t`;
    expect((await get(`/events/${installed}`)).json()).toMatchObject({
      details_data: [],
      details_html: `<table class='SimpleHistoryLogitem__keyValueTable'>${row('Description', 'Plugin that logs various things.')}${row('Version', '5.23.1')}${row('Author', 'Pär Thernström')}${row('URL', '<a href="https://simple-history.com">https://simple-history.com</a>')}</table>`,
    });
    expect((await get(`/events/${activated}`)).json().details_html).toBe(
      `<p><a title="View plugin info" class="thickbox" href="${TEST_BASE}/wp-admin/plugin-install.php?tab=plugin-information&amp;plugin=simple-history&amp;section=&amp;TB_iframe=true&amp;width=640&amp;height=550">View plugin info</a></p>`,
    );
  });
});
