import { describe, expect, it } from 'vitest';
import { IdMap } from './ids.ts';
import type { DiffRequest } from './requests.ts';

const host = '127.0.0.1';
const post = (id: number, extra: Record<string, unknown> = {}) => ({ id, global_id: `${host}?id=${id}`, global_id_lineage: [`${host}?id=${id}`], ...extra });

describe('differential ID map', () => {
  it('reads the calendar posts Lintel made (inline ones too) as the legacy IDs, and leaves terms and seeded records alone', () => {
    const ids = new IdMap();
    // The legacy site spent two post IDs Lintel does not (a revision, a menu): its first new organizer is 27, Lintel's 25.
    ids.created('/calendar/events/v1/organizers', post(27), post(25));
    // An event made with an inline venue: the venue is paired by its place in the two answers.
    const legacyEvent = post(31, { venue: post(30), organizer: [post(27)], tags: [{ id: 25, name: 'jazz' }] });
    const lintelEvent = post(27, { venue: post(26), organizer: [post(25)], tags: [{ id: 25, name: 'jazz' }] });
    ids.created('/calendar/events/v1/events', legacyEvent, lintelEvent);
    ids.learn(legacyEvent, lintelEvent);

    expect(ids.asLegacy(lintelEvent, '/calendar/events/v1/events')).toEqual(legacyEvent);
    // A draft's permalink and the event's own links carry its ID.
    const draft = { ...post(25), url: 'http://127.0.0.1:8088/?post_type=tribe_organizer&p=25' };
    expect(ids.asLegacy(draft, '/calendar/events/v1/organizers/{id}')).toEqual({ ...post(27), url: 'http://127.0.0.1:8088/?post_type=tribe_organizer&p=27' });
    // `_fields=id` leaves no global_id: on a post route the answer and its archive's items are posts all the same.
    expect(ids.asLegacy({ body: { id: 26 }, status: 201 }, '/calendar/events/v1/venues')).toEqual({ body: { id: 30 }, status: 201 });
    expect(ids.asLegacy({ venues: [{ id: 26 }, { id: 4 }] }, '/calendar/events/v1/venues')).toEqual({ venues: [{ id: 30 }, { id: 4 }] });
    // A term numbered like a paired post keeps its ID.
    expect(ids.asLegacy({ id: 25, name: 'jazz' }, '/calendar/events/v1/tags/{id}')).toEqual({ id: 25, name: 'jazz' });

    // A later answer pairing a known record otherwise is not learned: it stays a difference.
    ids.learn(post(30), post(4));
    expect(ids.asLegacy(post(4), '/calendar/events/v1/venues/{id}')).toEqual(post(4));

    const read = (collection: string, pick: number) =>
      ids.pick({ path: `${collection}/{id}`, collection, write: true, pick } as DiffRequest);
    expect(read('/calendar/events/v1/organizers', 0)).toEqual({ legacy: 27, lintel: 25 });
  });

  it('pairs the newest redirect or group of a Redirection create, which answers its page of items, in its own collection', () => {
    const ids = new IdMap();
    // The legacy site spent redirect ID 6 on a record Lintel did not make: their next redirects are 7 and 6.
    const page = (...items: number[]) => ({ items: items.map((id) => ({ id, group_id: 1 })), total: items.length });
    ids.created('/redirection/v1/redirect', page(7, 5, 4), page(6, 5, 4));
    ids.created('/redirection/v1/group', { items: [{ id: 1 }, { id: 4 }] }, { items: [{ id: 1 }, { id: 3 }] });

    expect(ids.asLegacy(page(6, 5), '/redirection/v1/redirect')).toEqual(page(7, 5));
    expect(ids.asLegacy(page(6), '/redirection/v1/bulk/redirect/{bulk}')).toEqual(page(7));
    // A group's ID is read in the groups' pairs, under its own key or on the group routes; redirect 6 is not group 6.
    expect(ids.asLegacy({ id: 6, group_id: 3 }, '/redirection/v1/redirect/{id}')).toEqual({ id: 7, group_id: 4 });
    expect(ids.asLegacy({ items: [{ id: 3 }, { id: 6 }] }, '/redirection/v1/group')).toEqual({ items: [{ id: 4 }, { id: 6 }] });

    const write = (collection: string) => ids.pick({ path: `${collection}/{id}`, collection, write: true, pick: 0 } as DiffRequest);
    expect(write('/redirection/v1/redirect')).toEqual({ legacy: 7, lintel: 6 });
    expect(write('/redirection/v1/group')).toEqual({ legacy: 4, lintel: 3 });
  });
});
