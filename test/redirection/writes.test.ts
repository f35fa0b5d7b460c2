/**
 * Redirect writes reach the site at once (the edge's loaded rules are dropped on every rule write,
 * not left to expire), and the write routes run inside batch/v1 (issue 4).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let admin: string;
beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:08:00Z' } });
  admin = await app.auth('administrator');
});
afterAll(() => app.close());

const site = (url: string) => app.server.inject({ method: 'GET', url, headers: { host: '127.0.0.1:8088' } });
const redirect = (url: string, target: string) => ({ url, match_type: 'url', action_type: 'url', action_code: 301, action_data: { url: target }, group_id: 1 });

describe('redirect writes and the site', () => {
  it('a redirect created through the API redirects on the next site request', async () => {
    expect((await site('/fresh-rule')).statusCode).toBe(404); // loads the rule index without the new rule
    const res = await app.server.inject({ method: 'POST', url: '/wp-json/redirection/v1/redirect', headers: { authorization: admin }, payload: redirect('/fresh-rule', '/landed/') });
    expect(res.statusCode).toBe(200);
    const hit = await site('/fresh-rule');
    expect(hit.statusCode).toBe(301);
    expect(hit.headers.location).toBe('/landed/');
  });

  it('a bulk disable stops the redirect at once', async () => {
    const id = (await app.store.sql.query<{ id: number }>(`select id from redirection_items where url = '/fresh-rule'`))[0].id;
    expect((await site('/fresh-rule')).statusCode).toBe(301);
    const res = await app.server.inject({ method: 'POST', url: '/wp-json/redirection/v1/bulk/redirect/disable', headers: { authorization: admin }, payload: { items: [id] } });
    expect(res.statusCode).toBe(200);
    expect((await site('/fresh-rule')).statusCode).toBe(404);
  });

  it('a redirect create runs in POST /wp-json/batch/v1 and the site follows it', async () => {
    const res = await app.server.inject({
      method: 'POST',
      url: '/wp-json/batch/v1',
      headers: { authorization: admin },
      payload: { requests: [{ method: 'POST', path: '/redirection/v1/redirect', body: redirect('/batched-rule', '/batched/') }] },
    });
    expect(res.statusCode).toBe(207);
    const [answer] = (res.json() as { responses: Array<{ status: number; body: { items: Array<{ url: string }> } }> }).responses;
    expect(answer.status).toBe(200);
    expect(answer.body.items.map((r) => r.url)).toContain('/batched-rule');
    const hit = await site('/batched-rule');
    expect(hit.statusCode).toBe(301);
    expect(hit.headers.location).toBe('/batched/');
  });

  it('a write with a gapped or nested _fields list is answered with what it saved, never 500 after the commit', async () => {
    for (const [i, fields] of ['_fields[]=total&_fields[2]=items', '_fields[a][b]=total&_fields[]=total'].entries()) {
      const res = await app.server.inject({ method: 'POST', url: `/wp-json/redirection/v1/redirect?${fields}`, headers: { authorization: admin }, payload: redirect(`/fields-rule-${i}`, '/f/') });
      expect(res.statusCode, fields).toBe(200);
      expect(Object.keys(res.json()).sort()).toEqual(i === 0 ? ['items', 'total'] : ['total']);
    }
  });
});
