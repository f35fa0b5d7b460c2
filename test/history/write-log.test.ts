/**
 * Every write made through Lintel is in the audit log, written in the write's own transaction:
 * calendar, redirection and login writes show up in history/v1, and a rolled-back batch leaves no row.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { logEvent } from '../../src/audit/log.ts';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp | undefined;
afterEach(() => app?.close());

async function start() {
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:08:00Z' } });
  return { t: app, admin: await app.auth('administrator') };
}

const json = (auth: string) => ({ authorization: auth, 'content-type': 'application/json' });
const history = async (t: TestApp, auth: string, q = '') =>
  (await t.server.inject({ url: `/wp-json/history/v1/events?ungrouped=true&per_page=100${q}`, headers: { authorization: auth } })).json() as {
    logger: string;
    message_key: string;
    message: string;
    initiator: string;
    context: Record<string, string>;
  }[];

describe('writes through Lintel in history/v1', () => {
  it('logs a calendar event created, updated and trashed through REST', async () => {
    const { t, admin } = await start();
    const created = await t.server.inject({
      method: 'POST', url: '/wp-json/calendar/events/v1/events', headers: json(admin),
      payload: JSON.stringify({ title: 'Harbour Concert', start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00' }),
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    await t.server.inject({ method: 'POST', url: `/wp-json/calendar/events/v1/events/${id}`, headers: json(admin), payload: JSON.stringify({ title: 'Harbour Concert (moved)' }) });
    await t.server.inject({ method: 'DELETE', url: `/wp-json/calendar/events/v1/events/${id}`, headers: { authorization: admin } });
    const log = await history(t, admin, '&loggers=SimplePostLogger');
    expect(log.map((e) => e.message)).toEqual([
      'Moved event "Harbour Concert (moved)" to the trash',
      'Updated event "Harbour Concert (moved)"',
      'Created event "Harbour Concert"',
    ]);
    expect(log[2]).toMatchObject({ initiator: 'wp_user', context: { post_id: String(id), post_type: 'tribe_events', _user_login: 'admin', _rest_api_request: 'true' } });
    // As the post logger writes its HTML: the record (in the trash too) links to its edit page; only the type and title are escaped.
    const edit = `http://lintel.test/wp-admin/post.php?post=${id}&amp;action=edit`;
    expect((log as unknown as { message_html: string }[]).map((e) => e.message_html)).toEqual([
      `Moved event <a href="${edit}">"Harbour Concert (moved)"</a> to the trash`,
      `Updated event <a href="${edit}">"Harbour Concert (moved)"</a>`,
      `Created event <a href="${edit}">"Harbour Concert"</a>`,
    ]);
  });

  it('shows the post logger events of a record that is gone without a link, and every message as the legacy HTML made text', async () => {
    const { t, admin } = await start();
    const actor = { user: await t.store.users.byLogin('admin'), ip: '127.0.0.1', clock: t.services.clock };
    await logEvent(t.store, actor, { logger: 'SimplePostLogger', key: 'post_updated', context: { post_id: '987654', post_type: 'tribe_events', post_title: 'Rock & <b>Roll</b>' } });
    await logEvent(t.store, actor, { logger: 'CustomEntryLogger', key: 'custom_entry_added', context: { message: 'a <b>x</b> &amp; y < z \'s' } });
    const [entry, post] = (await history(t, admin)) as unknown as { message: string; message_html: string }[];
    expect([post.message_html, post.message]).toEqual(['Updated event "Rock &amp; &lt;b&gt;Roll&lt;/b&gt;"', 'Updated event "Rock & Roll"']);
    expect([entry.message_html, entry.message]).toEqual(['Added a custom entry: a &lt;b&gt;x&lt;/b&gt; &amp; y &lt; z &#039;s', "Added a custom entry: a x & y < z 's"]);
  });

  it('logs an update as the post logger does: the protected title, the password made, terms added and removed, updates of one event grouped', async () => {
    const { t, admin } = await start();
    const tag = async (name: string) =>
      (await t.server.inject({ method: 'POST', url: '/wp-json/calendar/events/v1/tags', headers: json(admin), payload: JSON.stringify({ name }) })).json() as { id: number };
    const [jazz, folk] = [await tag('Jazz'), await tag('Folk')];
    const created = await t.server.inject({
      method: 'POST', url: '/wp-json/calendar/events/v1/events', headers: json(admin),
      payload: JSON.stringify({ title: 'Tasting', start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00', tags: [jazz.id] }),
    });
    const id = created.json().id;
    const update = (body: object) => t.server.inject({ method: 'POST', url: `/wp-json/calendar/events/v1/events/${id}`, headers: json(admin), payload: JSON.stringify(body) });
    await update({ password: 'secret', tags: [folk.id] });
    await update({ title: 'Tasting for members' });
    const [second, first] = await history(t, admin, '&loggers=SimplePostLogger&messages=SimplePostLogger:post_updated');
    expect(first.message).toBe('Updated event "Protected: Tasting"');
    expect(first.context).toMatchObject({ post_title: 'Protected: Tasting', post_password_protected: 'true' });
    expect(JSON.parse(first.context.post_terms_added)).toEqual([{ term_id: folk.id, name: 'Folk', slug: 'folk', term_taxonomy_id: folk.id, taxonomy: 'post_tag' }]);
    expect(JSON.parse(first.context.post_terms_removed)).toEqual([{ term_id: jazz.id, name: 'Jazz', slug: 'jazz', term_taxonomy_id: jazz.id, taxonomy: 'post_tag' }]);
    expect(second.context).toMatchObject({ post_title: 'Protected: Tasting for members', post_terms_added: '[]', post_terms_removed: '[]' });
    expect(second.context.post_password_protected).toBeUndefined();
    expect((second as unknown as { occasions_id: string }).occasions_id).toBe((first as unknown as { occasions_id: string }).occasions_id);
  });

  it('logs venues once when created, not when an identical one is reused, and those an event creates inline', async () => {
    const { t, admin } = await start();
    const venue = JSON.stringify({ venue: 'Blue Note Hall', city: 'Springfield' });
    await t.server.inject({ method: 'POST', url: '/wp-json/calendar/events/v1/venues', headers: json(admin), payload: venue });
    await t.server.inject({ method: 'POST', url: '/wp-json/calendar/events/v1/venues', headers: json(admin), payload: venue });
    await t.server.inject({
      method: 'POST', url: '/wp-json/calendar/events/v1/events', headers: json(admin),
      payload: JSON.stringify({ title: 'Quartet', start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00', venue: { venue: 'Riverside Park' } }),
    });
    expect((await history(t, admin, '&loggers=SimplePostLogger')).map((e) => e.message)).toEqual([
      'Created event "Quartet"',
      'Created venue "Riverside Park"',
      'Created venue "Blue Note Hall"',
    ]);
  });

  it('leaves no history row when a require-all-validate batch fails and rolls back', async () => {
    const { t, admin } = await start();
    const res = await t.server.inject({
      method: 'POST', url: '/wp-json/batch/v1', headers: json(admin),
      payload: JSON.stringify({
        validation: 'require-all-validate',
        requests: [
          { path: '/calendar/events/v1/events', body: { title: 'Rolled back', start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00' } },
          { path: '/calendar/events/v1/events/999999', body: { title: 'No such event' } },
        ],
      }),
    });
    expect(res.statusCode).toBe(207);
    expect(res.json().responses[0].status).toBe(201);
    expect(res.json().responses[1].status).toBeGreaterThanOrEqual(400);
    expect(await history(t, admin, '&loggers=SimplePostLogger')).toEqual([]);
    // The same create outside a failing batch is logged.
    await t.server.inject({ method: 'POST', url: '/wp-json/batch/v1', headers: json(admin), payload: JSON.stringify({ validation: 'require-all-validate', requests: [{ path: '/calendar/events/v1/events', body: { title: 'Kept', start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00' } }] }) });
    expect((await history(t, admin, '&loggers=SimplePostLogger')).map((e) => e.message)).toEqual(['Created event "Kept"']);
  });

  it('logs categories and tags with the legacy term logger', async () => {
    const { t, admin } = await start();
    const cat = await t.server.inject({ method: 'POST', url: '/wp-json/calendar/events/v1/categories', headers: json(admin), payload: JSON.stringify({ name: 'Sports & Games' }) });
    await t.server.inject({ method: 'POST', url: `/wp-json/calendar/events/v1/categories/${cat.json().id}`, headers: json(admin), payload: JSON.stringify({ name: 'Sports' }) });
    await t.server.inject({ method: 'DELETE', url: `/wp-json/calendar/events/v1/categories/${cat.json().id}`, headers: { authorization: admin } });
    expect((await history(t, admin, '&loggers=SimpleCategoriesLogger')).map((e) => e.message_key)).toEqual(['deleted_term', 'edited_term', 'created_term']);
  });

  it("shows term events as the legacy term logger does: the term linked to its edit page while it exists, the taxonomy to its terms page", async () => {
    const { t, admin } = await start();
    const tag = (await t.server.inject({ method: 'POST', url: '/wp-json/calendar/events/v1/tags', headers: json(admin), payload: JSON.stringify({ name: 'Jazz' }) })).json();
    const cat = (await t.server.inject({ method: 'POST', url: '/wp-json/calendar/events/v1/categories', headers: json(admin), payload: JSON.stringify({ name: 'Running' }) })).json();
    await t.server.inject({ method: 'POST', url: `/wp-json/calendar/events/v1/categories/${cat.id}`, headers: json(admin), payload: JSON.stringify({ name: 'Sports' }) });
    await t.server.inject({ method: 'DELETE', url: `/wp-json/calendar/events/v1/categories/${cat.id}`, headers: { authorization: admin } });
    const wpAdmin = 'http://lintel.test/wp-admin';
    const log = (await history(t, admin, '&loggers=SimpleCategoriesLogger')) as unknown as { message_html: string; message: string }[];
    expect(log.map((e) => e.message_html)).toEqual([
      `Deleted term "Sports" from taxonomy <a href="${wpAdmin}/term.php?taxonomy=tribe_events_cat">"Event Category"</a>`,
      // The term is gone: the message as logged, the taxonomy by its slug.
      'Edited term "Sports" in taxonomy "tribe_events_cat"',
      'Added term "Running" in taxonomy "tribe_events_cat"',
      `Added term <a href="${wpAdmin}/term.php?taxonomy=post_tag&tag_ID=${tag.id}&post_type=post">"Jazz"</a> in taxonomy <a href="${wpAdmin}/term.php?taxonomy=post_tag">"Tag"</a>`,
    ]);
    expect(log[3].message).toBe('Added term "Jazz" in taxonomy "Tag"');
  });

  it('logs redirection changes with the legacy logger name, message keys and context', async () => {
    const { t, admin } = await start();
    const groups = (await t.server.inject({ url: '/wp-json/redirection/v1/group', headers: { authorization: admin } })).json().items;
    await t.server.inject({
      method: 'POST', url: '/wp-json/redirection/v1/redirect', headers: json(admin),
      payload: JSON.stringify({ url: '/old', match_type: 'url', action_type: 'url', action_code: 301, action_data: { url: '/new' }, group_id: groups[0].id }),
    });
    const rid = (await t.server.inject({ url: '/wp-json/redirection/v1/redirect', headers: { authorization: admin } })).json().items[0].id;
    await t.server.inject({ method: 'POST', url: `/wp-json/redirection/v1/bulk/redirect/disable`, headers: json(admin), payload: JSON.stringify({ items: [rid] }) });
    await t.server.inject({ method: 'POST', url: '/wp-json/redirection/v1/group', headers: json(admin), payload: JSON.stringify({ name: 'Marketing', moduleId: 1 }) });
    const log = await history(t, admin, '&loggers=Plugin_Redirection');
    expect(log.map((e) => e.message)).toEqual(['Added redirection group "Marketing"', 'Disabled redirection for 1 URL(s)', 'Added a redirection for URL "/old"']);
    expect(log[1].context).toMatchObject({ items: `[\n    ${rid}\n]`, items_count: '1' });
    expect(log[2].context).toMatchObject({ source_url: '/old', target_url: '/new' });
  });

  it('logs failed logins as the anonymous web user, with the address anonymised', async () => {
    const { t, admin } = await start();
    const bad = `Basic ${Buffer.from('admin:wrong wrong wrong wrong wrong wrong').toString('base64')}`;
    expect((await t.server.inject({ url: '/wp-json/', headers: { authorization: bad, 'x-forwarded-for': '1.2.3.4' }, remoteAddress: '198.51.100.23' })).statusCode).toBe(401);
    const unknown = `Basic ${Buffer.from('nobody:xxxx').toString('base64')}`;
    await t.server.inject({ url: '/wp-json/', headers: { authorization: unknown }, remoteAddress: '198.51.100.23' });
    const log = await history(t, admin, '&loggers=SimpleUserLogger');
    expect(log.map((e) => e.message)).toEqual([
      'Failed to login with username "nobody" (username does not exist)',
      'Failed to login with username "admin" (incorrect password entered)',
    ]);
    expect(log[1]).toMatchObject({ initiator: 'web_user', context: { login: 'admin', _server_remote_addr: '198.51.100.x' } });
    expect(log[1].context._user_id).toBeUndefined();
  });

  it('keeps full addresses when the site turns anonymisation off', async () => {
    const { t, admin } = await start();
    await t.store.options.set('history', { anonymize_ip: false });
    await t.server.inject({ method: 'POST', url: '/wp-json/history/v1/events', headers: json(admin), payload: JSON.stringify({ message: 'hello' }), remoteAddress: '198.51.100.23' });
    const [entry] = await history(t, admin, '&search=hello');
    expect(entry.context._server_remote_addr).toBe('198.51.100.23');
  });
});
