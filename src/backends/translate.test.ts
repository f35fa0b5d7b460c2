import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/support/app.ts';
import { UNCANCELLED, type BackendCall } from './backend.ts';
import { translateBackend } from './translate.ts';
import { backendCall } from '../../test/support/backend-call.ts';

let app: TestApp;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const call = (path: string, query = '', over: Partial<BackendCall> = {}): BackendCall => backendCall(path, query, { ...{ client: { ip: '127.0.0.1', protocol: 'http', host: 'lintel.test' }, requestId: 'r' }, ...over });

describe('the translate backend', () => {
  it("answers exactly as Lintel's own pipeline does, authentication included", async () => {
    const viaBackend = await translateBackend(() => app.services)(call('/wp-json/calendar/events/v1/categories', 'per_page=2'), UNCANCELLED);
    const viaServer = await app.server.inject({ method: 'GET', url: '/wp-json/calendar/events/v1/categories?per_page=2' });
    expect(viaBackend.status).toBe(viaServer.statusCode);
    expect(JSON.parse(String(viaBackend.body))).toEqual(viaServer.json());
    expect(viaBackend.headers['Content-Type']).toBe('application/json; charset=UTF-8');

    await app.auth('administrator');
    const bad = await translateBackend(() => app.services)(call('/', 'rest_route=/calendar/events/v1/events', { headers: { authorization: `Basic ${Buffer.from('nobody:wrong').toString('base64')}` } }), UNCANCELLED);
    expect(bad.status).toBe(401);
  });

  it('answers rest_no_route for a path outside the REST prefix', async () => {
    const a = await translateBackend(() => app.services)(call('/not-rest'), UNCANCELLED);
    expect(a.status).toBe(404);
    expect(JSON.parse(String(a.body))).toMatchObject({ code: 'rest_no_route' });
  });
});
