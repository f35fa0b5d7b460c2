/**
 * The calendar's side of the oEmbed/page port: the event, venue or organizer a URL of this site
 * shows (`{home}/event/{slug}/`, `/venue/{slug}/`, `/organizer/{slug}/`, or their `embed/`), read
 * through the calendar repository. Only published records without a password are found.
 */
import { slugInPath, userNicename } from '../../lib/slug.ts';
import type { Embeddable, EmbeddableLookup, LookupContext } from './embeddable.ts';
import { sanitizeDescriptionHtml } from './sanitize.ts';
import type { OrganizerRow, StoredEvent, VenueRow } from '../../store/calendar.ts';
import { autop } from '../../lib/wordpress-text.ts';

const PATH = /^\/(event|venue|organizer)\/([^/]+)\/?(?:embed\/?)?$/;

/**
 * The record path under the site's home (which carries the request's locale) or, for a URL
 * without the locale, under the base address; null for any other URL.
 */
function recordPath(url: URL, urls: LookupContext['urls']): { kind: Embeddable['kind']; slug: string } | null {
  for (const root of [new URL(urls.home), new URL(urls.base)]) {
    const prefix = root.pathname.replace(/\/$/, '');
    if (url.origin !== root.origin || !url.pathname.startsWith(`${prefix}/`)) continue;
    const m = PATH.exec(url.pathname.slice(prefix.length));
    if (!m) continue;
    const slug = slugInPath(m[2]);
    // No record's slug holds a NUL byte (the store cannot keep one).
    return slug.includes('\0') ? null : { kind: m[1] as Embeddable['kind'], slug };
  }
  return null;
}

async function author(ctx: LookupContext, id: number): Promise<Pick<Embeddable, 'authorName' | 'authorUrl'>> {
  const user = id > 0 ? await ctx.store.users.byId(id) : null;
  return user ? { authorName: user.displayName || user.login, authorUrl: `${ctx.urls.home}/author/${userNicename(user.login)}/` } : { authorName: null, authorUrl: null };
}

async function eventFacts(ctx: LookupContext, e: StoredEvent): Promise<Partial<Embeddable>> {
  const { venues, organizers } = (await ctx.store.calendar.linksOf([e])).get(e.id)!;
  const wall = (t: string) => t.replace(' ', 'T');
  return {
    title: e.title,
    start: wall(e.start_date),
    end: wall(e.end_date),
    timezone: e.timezone,
    allDay: e.all_day,
    venueName: venues[0]?.name ?? null,
    organizerNames: organizers.map((o) => o.name),
  };
}

export const calendarEmbeddables: EmbeddableLookup = {
  async byUrl(url, ctx) {
    const at = recordPath(url, ctx.urls);
    if (!at) return null;
    // publicBySlug finds only published records without a password: drafts, pending, private,
    // scheduled, trashed and protected ones are not shown, as if they did not exist.
    const row = await ctx.store.calendar.publicBySlug(at.kind, at.slug);
    if (!row) return null;
    const facts = at.kind === 'event' ? await eventFacts(ctx, row as StoredEvent) : { title: (row as VenueRow | OrganizerRow).name };
    return {
      kind: at.kind,
      title: '',
      ...facts,
      // The calendar's `url` of a published record.
      permalink: `${ctx.urls.home}/${at.kind}/${row.slug}/`,
      ...(await author(ctx, row.author)),
      descriptionHtml: sanitizeDescriptionHtml(autop(row.description)),
      isPublic: true,
    };
  },
};
