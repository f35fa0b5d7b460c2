import { describe, expect, it } from 'vitest';
import { diffJson } from '../../src/compare/diff.ts';
import { withoutLoggedLocale } from './clients.ts';

const aliases = { 'tribe/events/v1': 'calendar/events/v1', 'simple-history/v1': 'history/v1' };
const LOCALES = ['en', 'fr', 'de'];

describe('Redirection log rows of requests sent to Lintel under a locale', () => {
  // The oracle (no language plugin) logged the request unprefixed and under its own names.
  const legacy = {
    items: [
      { id: 4, url: '/wp-json/tribe/events/v1/categories', sent_to: 'http://127.0.0.1:8088/wp-json/tribe/events/v1/categories/', referrer: '', agent: 'lintel-differential' },
      { id: 3, url: '/wp-json/simple-history/v1/events?rest_route=', sent_to: null, referrer: '', agent: 'lintel-differential' },
    ],
    total: 2,
  };
  const lintel = {
    items: [
      { id: 4, url: '/fr/wp-json/calendar/events/v1/categories', sent_to: 'http://127.0.0.1:8088/fr/wp-json/calendar/events/v1/categories/', referrer: '', agent: 'lintel-differential' },
      { id: 3, url: '/de/wp-json/history/v1/events?rest_route=', sent_to: null, referrer: '', agent: 'lintel-differential' },
    ],
    total: 2,
  };

  it('compare equal once the locale is taken off, in the 404 list and the redirect log', () => {
    for (const template of ['/redirection/v1/404', '/redirection/v1/log']) {
      expect(diffJson(legacy, withoutLoggedLocale(template, lintel, LOCALES), { aliases }), template).toEqual([]);
    }
  });

  it('keep a locale-like path the legacy site logged too, and leave other routes and other strings alone', () => {
    const grouped = { items: [{ count: 1, url: '/french/x', id: '/french/x' }, { count: 2, url: '/fr', id: '' }] };
    expect(withoutLoggedLocale('/redirection/v1/404', grouped, LOCALES)).toEqual(grouped);
    expect(withoutLoggedLocale('/redirection/v1/redirect', lintel, LOCALES)).toBe(lintel);
    // A real difference in what was logged still shows.
    const other = { ...lintel, items: [{ ...lintel.items[0], url: '/fr/wp-json/calendar/events/v1/tags' }, lintel.items[1]] };
    expect(diffJson(legacy, withoutLoggedLocale('/redirection/v1/404', other, LOCALES), { aliases }).map((d) => d.path)).toEqual(['$.items[0].url']);
  });
});
