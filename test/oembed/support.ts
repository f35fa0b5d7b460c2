/** An in-test EmbeddableLookup over a few records, shaped like the captures' events. */
import type { Embeddable, EmbeddableLookup } from '../../src/namespaces/oembed/embeddable.ts';

export function record(home: string, slug: string, over: Partial<Embeddable> = {}): Embeddable {
  return {
    kind: 'event',
    title: slug.split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join(' '),
    permalink: `${home}/event/${slug}/`,
    authorName: 'admin',
    authorUrl: `${home}/author/admin/`,
    start: '2026-12-05T19:00:00',
    end: '2026-12-05T23:30:00',
    timezone: 'America/New_York',
    allDay: false,
    venueName: 'Blue Note Hall',
    organizerNames: ['Jazz Society', 'Events Co'],
    descriptionHtml: '<p>An evening of <strong>jazz</strong> across three stages.</p>',
    isPublic: true,
    ...over,
  };
}

/** Finds records by permalink path (with or without the trailing slash, or under `embed/`). */
export function lookupOver(records: Embeddable[]): EmbeddableLookup & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async byUrl(url) {
      calls.push(url.href);
      const path = url.pathname.replace(/\/?$/, '/');
      return records.find((r) => new URL(r.permalink).pathname === path && new URL(r.permalink).host === url.host) ?? null;
    },
  };
}
