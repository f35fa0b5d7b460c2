/**
 * Idempotency-Key on writes (issue 19): a retry with the same key answers the first answer and
 * writes nothing; the same key for another request is refused; keys are per user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from './support/app.ts';

let app: TestApp;
let admin: string;
let editor: string;
beforeAll(async () => {
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:00:00Z' } });
  admin = await app.auth('administrator');
  editor = await app.auth('editor');
});
afterAll(() => app.close());

const event = (title: string) => ({ title, start_date: '2027-05-01 20:00:00', end_date: '2027-05-01 22:00:00', status: 'publish' });
const create = (auth: string, key: string, title: string) =>
  app.server.inject({ method: 'POST', url: '/wp-json/calendar/events/v1/events', headers: { authorization: auth, 'idempotency-key': key }, payload: event(title) });
const count = async (title: string) => (await app.store.sql.query<{ n: number }>('select count(*)::int as n from calendar_events where title = $1', [title]))[0].n;

describe('Idempotency-Key', () => {
  it('answers a retried write with the first answer and writes nothing more', async () => {
    const first = await create(admin, 'k-1', 'Once Only');
    expect(first.statusCode).toBe(201);
    const retry = await create(admin, 'k-1', 'Once Only');
    expect(retry.statusCode).toBe(201);
    expect(retry.body).toBe(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await count('Once Only')).toBe(1);
  });

  it('refuses the same key for another request with 422, and keeps keys per user', async () => {
    await create(admin, 'k-2', 'First Use');
    const reused = await create(admin, 'k-2', 'Other Use');
    expect(reused.statusCode).toBe(422);
    expect(reused.json().code).toBe('rest_idempotency_key_reused');
    expect((await create(editor, 'k-2', 'First Use')).headers['idempotent-replayed']).toBeUndefined();
    expect(await count('First Use')).toBe(2);
    expect(await count('Other Use')).toBe(0);
  });

  it('saves no failed answer: a retry after a refusal runs again', async () => {
    const bad = await app.server.inject({ method: 'POST', url: '/wp-json/calendar/events/v1/events', headers: { authorization: admin, 'idempotency-key': 'k-3' }, payload: { title: 'No Dates' } });
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    const again = await app.server.inject({ method: 'POST', url: '/wp-json/calendar/events/v1/events', headers: { authorization: admin, 'idempotency-key': 'k-3' }, payload: { title: 'No Dates' } });
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });

  it('covers every write route, batch and history included', async () => {
    const batch = () =>
      app.server.inject({
        method: 'POST',
        url: '/wp-json/batch/v1',
        headers: { authorization: admin, 'idempotency-key': 'k-4' },
        payload: { requests: [{ method: 'POST', path: '/calendar/events/v1/events', body: event('Batched Once') }] },
      });
    expect((await batch()).statusCode).toBe(207);
    expect((await batch()).headers['idempotent-replayed']).toBe('true');
    expect(await count('Batched Once')).toBe(1);
    const events = async () => (await app.store.sql.query<{ n: number }>('select count(*)::int as n from history_events'))[0].n;
    const before = await events();
    const entry = () => app.server.inject({ method: 'POST', url: '/wp-json/history/v1/events', headers: { authorization: admin, 'idempotency-key': 'k-5' }, payload: { message: 'Logged once' } });
    expect((await entry()).statusCode).toBe(201);
    expect((await entry()).headers['idempotent-replayed']).toBe('true');
    expect(await events()).toBe(before + 1);
  });
});
