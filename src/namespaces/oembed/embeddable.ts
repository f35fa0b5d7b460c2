/**
 * The port through which oEmbed and the site pages read the records they show. The calendar
 * implements it over its repository (events, venues, organizers); oEmbed never sees the calendar:
 * the namespaces' wiring (`namespaces/index.ts`) hands the lookup to both.
 */
import type { SiteUrls } from '../../contract/site-urls.ts';
import type { Store } from '../../store/store.ts';

export interface Embeddable {
  kind: 'event' | 'venue' | 'organizer';
  title: string;
  /** The record's page, absolute, with its trailing slash (`{home}/event/winter-jazz-festival/`). */
  permalink: string;
  authorName: string | null;
  /** The author's archive (`{home}/author/admin/`); the site's home when null. */
  authorUrl: string | null;
  /** Events: local wall-clock times in the event's zone (`2026-12-05T19:00:00`), the zone, and whether all day. */
  start?: string;
  end?: string;
  timezone?: string;
  allDay?: boolean;
  venueName?: string | null;
  organizerNames?: string[];
  /** The record's description as stored (already sanitized HTML). */
  descriptionHtml: string;
  /** False for drafts, private, scheduled and password-protected records: they are neither embedded nor shown. */
  isPublic: boolean;
}

export interface LookupContext {
  urls: SiteUrls;
  store: Store;
}

export interface EmbeddableLookup {
  /** The record a URL of this site shows (its permalink, or any URL the site resolves to it), or null. */
  byUrl(url: URL, ctx: LookupContext): Promise<Embeddable | null>;
}

/** The public record behind a URL, or null: what oEmbed and the pages may show. */
export async function publicEmbeddable(lookup: EmbeddableLookup, url: URL, ctx: LookupContext): Promise<Embeddable | null> {
  const found = await lookup.byUrl(url, ctx);
  return found?.isPublic ? found : null;
}

/** A lookup that finds nothing: no record of this site is embeddable or shown. */
export const noEmbeddables: EmbeddableLookup = { byUrl: async () => null };
