/**
 * Read-your-writes across replicas, as a client sees it: two `lintel serve` processes on one
 * PostgreSQL database; the event archive is cached on replica A, an event is created on replica B,
 * and A is asked at once after B's 201 arrived. A read that still shows the old total is stale; the
 * staleness is the time from B's answer until A shows the write (its cache entry is dropped when
 * the change feed's announcement of the commit reaches A; 0 when the first read already shows it).
 * Prints the number of stale first reads and the staleness's p50, p99 and maximum: the bound the
 * README states.
 *
 *   LINTEL_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/replicas.ts [writes]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { throwawayDatabase } from '../test/support/store.ts';
import { startServer } from './outside.ts';

const ARCHIVE = '/wp-json/calendar/events/v1/events';

export interface ReplicaStaleness { writes: number; staleFirstReads: number; p50Ms: number; p99Ms: number; maxMs: number }

export async function measureReplicaStaleness(databaseUrl: string, writes: number): Promise<ReplicaStaleness> {
  const dirs = [mkdtempSync(path.join(tmpdir(), 'lintel-replica-a-')), mkdtempSync(path.join(tmpdir(), 'lintel-replica-b-'))];
  const a = await startServer({ dataDir: dirs[0]!, databaseUrl });
  const b = await startServer({ dataDir: dirs[1]!, databaseUrl });
  try {
    if (!a.adminAuth) throw new Error('replica A made no administrator (the database was not fresh)');
    const total = async () => {
      const r = await fetch(a.url + ARCHIVE);
      const body = (await r.json()) as { total: number };
      return { total: body.total, hit: r.headers.get('x-lintel-cache') === 'hit' };
    };
    const staleness: number[] = [];
    let staleFirstReads = 0;
    for (let i = 0; i < writes; i++) {
      // Cached on A before the write.
      let before = await total();
      while (!before.hit) before = await total();
      const created = await fetch(b.url + ARCHIVE, {
        method: 'POST',
        headers: { authorization: a.adminAuth, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Replica write ${i}`, status: 'publish', start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 11:00:00' }),
      });
      await created.arrayBuffer();
      if (created.status !== 201) throw new Error(`create on B answered ${created.status}`);
      const written = performance.now();
      let seen = await total();
      if (seen.total === before.total) {
        staleFirstReads++;
        while (seen.total === before.total) seen = await total();
        staleness.push(performance.now() - written);
      } else staleness.push(0);
    }
    staleness.sort((x, y) => x - y);
    const at = (q: number) => Math.round(staleness[Math.min(staleness.length - 1, Math.floor(q * staleness.length))]! * 10) / 10;
    return { writes, staleFirstReads, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) };
  } finally {
    await a.stop();
    await b.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.LINTEL_TEST_DATABASE_URL;
  if (!url) throw new Error('set LINTEL_TEST_DATABASE_URL to a PostgreSQL server (replicas share one database)');
  const db = await throwawayDatabase();
  try {
    console.log(await measureReplicaStaleness(db.url, Number(process.argv[2] ?? 300)));
  } finally {
    await db.drop();
  }
}
