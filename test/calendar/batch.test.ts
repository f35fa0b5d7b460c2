/** Calendar writes inside batch/v1 (issue 4), and the legacy refusal when mappings say `batch: false`. */
import { afterEach, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp | undefined;
afterEach(() => app?.close());

const createInBatch = async (t: TestApp) =>
  t.server.inject({
    method: 'POST', url: '/wp-json/batch/v1',
    headers: { authorization: await t.auth('administrator'), 'content-type': 'application/json' },
    payload: JSON.stringify({ requests: [{ method: 'POST', path: '/calendar/events/v1/events', body: { title: 'Batched Event', start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00' } }] }),
  });

describe('calendar routes in batch/v1', () => {
  it('runs a calendar create inside a batch (201 inside 207)', async () => {
    app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:08:00Z' } });
    const res = await createInBatch(app);
    expect(res.statusCode).toBe(207);
    const [item] = res.json().responses;
    expect(item.status).toBe(201);
    expect(item.body.title).toBe('Batched Event');
    const read = await app.server.inject({ url: `/wp-json/calendar/events/v1/events/${item.body.id}` });
    expect(read.json().title).toBe('Batched Event');
  });

  it('refuses calendar routes in a batch when mappings set batch: false, as the legacy site does', async () => {
    app = await testApp({
      env: { LINTEL_CLOCK: '2026-11-21T12:08:00Z' },
      mappings: (m) => ({ ...m, namespaces: { ...m.namespaces, 'calendar/events/v1': { ...m.namespaces['calendar/events/v1'], batch: false } } }),
    });
    const res = await createInBatch(app);
    expect(res.statusCode).toBe(207);
    const [item] = res.json().responses;
    expect(item.body.code).toBe('rest_batch_not_allowed');
    const list = await app.server.inject({ url: '/wp-json/calendar/events/v1/events?search=Batched' });
    expect(list.json().total).toBe(0);
  });
});
