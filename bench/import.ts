/**
 * `lintel import` throughput: 2,000 events (with a venue, an organizer and a category each) on a
 * Lintel serving the legacy contract on 127.0.0.1, imported into an empty store through the API
 * (calendar family: terms, venues, organizers, events 50 per page, then the wp/v2 post list that finds
 * unlisted events; 500 records per transaction). The source runs in the same process: its own time
 * to render the pages is part of the figure. The baseline of the same run is a raw multi-row insert of the same event rows into
 * another empty store (no HTTP, no mapping, no links): `ratio` is the import's records/s relative
 * to it (1 = as fast as writing the rows directly).
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { LegacyClient } from '../src/import/client.ts';
import { importResources } from '../src/import/index.ts';
import { runImport } from '../src/import/resource.ts';
import { testApp } from '../test/support/app.ts';
import { legacyPostRoutes } from '../test/import/support.ts';
import { testStore } from '../test/support/store.ts';
import { runIfMain } from './lib.ts';

const EVENTS = 2_000;

export async function run(): Promise<Array<Record<string, unknown>>> {
  const source = await testApp();
  const target = await testStore();
  const raw = await testStore();
  try {
    const now = new Date('2026-11-21T12:08:00Z');
    await source.store.transaction(async (tx) => {
      const cal = tx.calendar;
      const blank = { author: 0, status: 'publish', description: '', excerpt: '', phone: '', website: '', image: '' };
      const venue = await cal.createLinked('venue', { ...blank, slug: 'hall', name: 'Hall', address: '', city: 'Boston', country: '', province: '', state: '', zip: '', stateprovince: '', show_map: true, show_map_link: true, latitude: 42.36, longitude: -71.06 }, now);
      const organizer = await cal.createLinked('organizer', { ...blank, slug: 'org', name: 'Org', email: '' }, now);
      const { id: category } = await cal.createTerm({ taxonomy: 'category', name: 'Music', slug: 'music', description: '', parent: 0 });
      // Written in bulk (the repository's import path, IDs after the linked records) so the setup stays short.
      const first = venue + 10;
      await cal.importEvents(Array.from({ length: EVENTS }, (_, i) => {
        const day = String(1 + (i % 28)).padStart(2, '0');
        return {
          id: first + i, author: 0, status: i % 10 ? 'publish' : 'draft', password: '', slug: `bench-import-${i}`, title: `Bench import ${i}`, description: `Event ${i} description.`, excerpt: '',
          start_date: `2027-03-${day} 19:00:00`, end_date: `2027-03-${day} 21:00:00`, utc_start_date: `2027-03-${day} 23:00:00`, utc_end_date: `2027-03-${day} 23:59:00`,
          timezone: 'America/New_York', all_day: false, cost: String(i % 50), currency_symbol: '', currency_code: '', currency_position: '', website: null, image: '',
          show_map: true, show_map_link: true, hide_from_listings: false, sticky: false, featured: false, post_parent: 0, created: now, modified: now,
          venues: [venue], organizers: [organizer], terms: [category],
        };
      }));
    });
    const auth = await source.auth('administrator');
    const [login, password] = Buffer.from(auth.slice(6), 'base64').toString().split(':');
    legacyPostRoutes(source, auth);
    await source.server.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(source.server.server.address() as AddressInfo).port}`;

    const summary = await runImport({ store: target, source: url, resources: importResources(new LegacyClient(url, login, password), ['calendar']) });
    const importRate = summary.records / summary.seconds;

    // The same event rows, written directly 500 per statement in one transaction each.
    const rows = await target.sql.query<Record<string, unknown>>('select * from calendar_events order by id');
    const cols = Object.keys(rows[0]);
    const t0 = performance.now();
    for (let start = 0; start < rows.length; start += 500) {
      const part = rows.slice(start, start + 500);
      await raw.sql.transaction((tx) =>
        tx.query(`insert into calendar_events (${cols.join(', ')}) values ${part.map((_, i) => `(${cols.map((_, j) => `$${i * cols.length + j + 1}`).join(', ')})`).join(', ')}`,
          part.flatMap((r) => cols.map((c) => r[c]))));
    }
    const rawRate = rows.length / ((performance.now() - t0) / 1000);
    const round = (n: number) => Math.round(n);
    return [
      { case: `raw multi-row insert of ${rows.length} event rows (baseline)`, records: rows.length, recordsPerSec: round(rawRate), ratio: 1 },
      { case: `lintel import, calendar (${EVENTS} events with links, over HTTP)`, records: summary.records, seconds: Math.round(summary.seconds * 10) / 10, recordsPerSec: round(importRate), ratio: Math.round((importRate / rawRate) * 1000) / 1000 },
    ];
  } finally {
    await source.close();
    await target.close();
    await raw.close();
  }
}

// Run directly: `node bench/import.ts`.
await runIfMain(import.meta.url, run);
