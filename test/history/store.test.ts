/**
 * HistoryRepo: totals read from the hourly counts agree with the events they count (grouped and
 * not, with logger, message and date bounds cutting hours), runs of occasions, imports keeping their
 * IDs and occasions, and retention.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryFilter, NewHistoryEvent } from '../../src/store/history.ts';
import type { OpenStore } from '../../src/store/store.ts';
import { startHistoryRetention } from '../../src/namespaces/history/retention.ts';
import { testStore } from '../support/store.ts';

let store: OpenStore;
const event = (date: string, logger: string, key: string, occasionsId: string, id?: number): NewHistoryEvent => ({
  id, date, logger, level: 'info', message: key, messageKey: key, initiator: 'wp_user', context: { _message_key: key }, occasionsId,
});

beforeAll(async () => {
  store = await testStore();
  // 200 events over ~3 days, minutes apart; every fifth repeats the previous one's occasion (a run).
  let occ = 'o0';
  for (let i = 0; i < 200; i++) {
    const at = new Date(Date.UTC(2026, 10, 18, 0, 0, 0) + i * 23 * 60_000 + (i % 7) * 1000).toISOString().slice(0, 19).replace('T', ' ');
    const logger = ['A', 'B', 'C'][i % 3];
    if (i % 5 !== 0) occ = `o${i}`;
    await store.history.log(event(at, i % 5 === 0 && i > 0 ? ['A', 'B', 'C'][(i - 1) % 3] : logger, i % 5 === 0 && i > 0 ? `k${(i - 1) % 2}` : `k${i % 2}`, occ));
  }
});
afterAll(() => store.close());

describe('HistoryRepo totals', () => {
  const filters: HistoryFilter[] = [
    { readable: null, grouped: false },
    { readable: null, grouped: true },
    { readable: ['A', 'B'], grouped: true },
    { readable: null, grouped: true, loggers: ['C'] },
    { readable: null, grouped: false, excludeLoggers: ['A'] },
    { readable: null, grouped: true, messages: [{ logger: 'A', key: 'k0' }, { logger: 'B', key: 'k1' }] },
    { readable: null, grouped: false, excludeMessages: [{ logger: 'C', key: 'k0' }] },
    { readable: null, grouped: true, after: '2026-11-18 10:17:31' },
    { readable: null, grouped: false, before: '2026-11-19 05:44:02' },
    { readable: null, grouped: true, after: '2026-11-18 06:00:00', before: '2026-11-19 23:59:59', loggers: ['A', 'C'] },
    { readable: null, grouped: false, after: '2026-11-18 06:10:00', before: '2026-11-18 06:50:00' },
    { readable: null, grouped: true, levels: ['info'], after: '2026-11-18 13:00:00' },
  ];
  it.each(filters.map((f, i) => [i, f] as const))('filter %i: the total is the number of events listed', async (_i, f) => {
    const listed = await store.history.list(f, { limit: 10_000, offset: 0 });
    expect(await store.history.count(f)).toBe(listed.length);
  });

  it('groups runs of the same occasion under their newest event, with its size', async () => {
    const grouped = await store.history.list({ readable: null, grouped: true }, { limit: 10_000, offset: 0 });
    expect(grouped.length).toBe(200 - 39);
    const sizes = grouped.reduce((n, r) => n + r.run_size, 0);
    expect(sizes).toBe(200);
    expect(await store.history.totalEvents()).toBe(200);
  });
});

describe('imports and retention', () => {
  it('keeps imported IDs and occasions, rebuilds the runs and moves the sequence past them', async () => {
    const s = await testStore();
    try {
      await s.history.importEvents([
        { ...event('2026-01-01 10:00:00', 'A', 'k', 'same'), id: 500 },
        { ...event('2026-01-01 10:00:05', 'A', 'k', 'same'), id: 501 },
        { ...event('2026-01-01 10:00:09', 'B', 'k', 'other'), id: 502 },
      ], new Set());
      await s.history.rebuildRuns();
      const grouped = await s.history.list({ readable: null, grouped: true }, { limit: 10, offset: 0 });
      expect(grouped.map((r) => [r.id, r.occasions_id, r.run_size])).toEqual([[502, 'other', 1], [501, 'same', 2]]);
      expect(await s.history.count({ readable: null, grouped: true })).toBe(2);
      const next = await s.history.log(event('2026-01-02 00:00:00', 'C', 'k', 'new'));
      expect(next).toBe(503);
    } finally {
      await s.close();
    }
  });

  it('numbers the next event after the largest held once the log is replaced (restartIds)', async () => {
    const s = await testStore();
    try {
      for (let i = 0; i < 40; i++) await s.history.log(event('2026-01-01 10:00:00', 'A', 'k', `o${i}`));
      await s.history.deleteEvents(await s.history.allIds());
      await s.history.restartIds();
      expect(await s.history.log(event('2026-01-02 00:00:00', 'A', 'k', 'first'))).toBe(1);
      await s.history.deleteEvents(await s.history.allIds());
      await s.history.restartIds();
      await s.history.importEvents([{ ...event('2026-01-01 10:00:00', 'A', 'k', 'x'), id: 31 }], new Set());
      expect(await s.history.log(event('2026-01-02 00:00:00', 'A', 'k', 'next'))).toBe(32);
    } finally {
      await s.close();
    }
  });

  it('prunes events older than the retention bound, totals following', async () => {
    const s = await testStore();
    try {
      for (const d of ['2026-01-01 00:00:00', '2026-02-01 00:00:00', '2026-03-01 00:00:00']) await s.history.log(event(d, 'A', 'k', d));
      expect(await s.history.prune('2026-02-15 00:00:00', 1)).toBe(2);
      expect(await s.history.count({ readable: null, grouped: false })).toBe(1);
      expect(await s.history.totalEvents()).toBe(1);
    } finally {
      await s.close();
    }
  });
});

describe('retention at start', () => {
  it('deletes events older than LINTEL_HISTORY_RETENTION_DAYS, and keeps all with 0', async () => {
    const s = await testStore();
    try {
      for (const d of ['2026-08-01 00:00:00', '2026-11-20 00:00:00']) await s.history.log(event(d, 'A', 'k', d));
      const clock = { now: () => new Date('2026-11-21T12:00:00Z') };
      const log = { info: () => {}, warn: () => {} } as never;
      await startHistoryRetention({ config: { historyRetentionDays: 0 } as never, store: s, clock, log }).stop();
      expect(await s.history.totalEvents()).toBe(2);
      await startHistoryRetention({ config: { historyRetentionDays: 60 } as never, store: s, clock, log }).stop();
      expect(await s.history.totalEvents()).toBe(1);
    } finally {
      await s.close();
    }
  });
});
