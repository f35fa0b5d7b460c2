/** The slug cache: per store, and a hit is used only while its record still has the slug; events by ID from the events cache. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventFields } from '../../src/store/calendar.ts';
import type { OpenStore } from '../../src/store/store.ts';
import { eventually } from '../support/eventually.ts';
import { testStore } from '../support/store.ts';

const NOW = new Date('2026-11-21T12:00:00Z');
const event = (slug: string, title: string): EventFields => ({
  author: 0, status: 'publish', password: '', slug, title, description: '', excerpt: '',
  start_date: '2027-01-01 10:00:00', end_date: '2027-01-01 11:00:00', utc_start_date: '2027-01-01 15:00:00', utc_end_date: '2027-01-01 16:00:00',
  timezone: 'America/New_York', all_day: false, cost: '', currency_symbol: '', currency_code: '', currency_position: '', website: null, image: '',
  show_map: false, show_map_link: false, hide_from_listings: false, sticky: false, featured: false, post_parent: 0,
});

let a: OpenStore;
let b: OpenStore;
beforeAll(async () => {
  [a, b] = await Promise.all([testStore(), testStore()]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

describe('calendar slug cache', () => {
  it('does not serve a cached record after its slug changed outside the repository (another replica)', async () => {
    const first = await a.calendar.createEvent(event('gala', 'First Gala'), NOW);
    expect((await a.calendar.eventBySlug('gala'))?.id).toBe(first); // now cached
    // Another replica renames it and gives the slug to a new record, bypassing this process's cache.
    await a.sql.query(`update calendar_events set slug = 'old-gala' where id = $1`, [first]);
    const second = await a.calendar.createEvent(event('gala', 'Second Gala'), NOW);
    expect((await a.calendar.eventBySlug('gala'))?.title).toBe('Second Gala');
    expect((await a.calendar.eventBySlug('gala'))?.id).toBe(second);
    await a.sql.query(`update calendar_events set slug = 'gone' where id = $1`, [second]);
    expect(await a.calendar.eventBySlug('gala')).toBeNull();
  });

  it('keeps one cache per store, shared by its transactions', async () => {
    await a.calendar.createEvent(event('fair', 'Fair on A'), NOW);
    await b.calendar.createEvent(event('other', 'Other on B'), NOW);
    await b.calendar.createEvent(event('fair', 'Fair on B'), NOW);
    expect((await a.calendar.eventBySlug('fair'))?.title).toBe('Fair on A');
    expect((await b.calendar.eventBySlug('fair'))?.title).toBe('Fair on B');
    // Same ID on both stores' sequences would pass a shared cache's slug check only by accident: titles tell them apart.
    expect((await a.transaction((tx) => tx.calendar.eventBySlug('fair')))?.title).toBe('Fair on A');
  });

  it('serves an event by ID from the events cache, and the stored one once a write to it is announced', async () => {
    const id = await a.calendar.createEvent(event('fete', 'Fete'), NOW);
    // Kept: the same object again, once the creation's announcement has arrived.
    await eventually(async () => {
      const first = await a.calendar.event(id);
      return first === (await a.calendar.event(id));
    });
    await a.transaction((tx) => tx.calendar.updateEvent(id, { title: 'Fete, renamed' }, NOW));
    await eventually(async () => (await a.calendar.event(id))?.title === 'Fete, renamed');
  });
});
