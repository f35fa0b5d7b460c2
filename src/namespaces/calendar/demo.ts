/**
 * Calendar demo content: venues with coordinates, organizers, nested categories, tags, and a few
 * dozen events from six months before the first start to a year after, in several time zones,
 * a few of them upcoming drafts (what `?status=draft` lists for an author).
 */
import { fmt, instantToWall, wallToInstant } from '../../lib/time.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { slugify } from '../../lib/slug.ts';
import type { Clock } from '../../clock.ts';
import type { Store } from '../../store/store.ts';
import { costFields } from './events.ts';

const FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/demo/calendar.json');

interface Demo {
  venues: (Record<string, string | number> & { venue: string })[];
  organizers: (Record<string, string> & { organizer: string })[];
  categories: { name: string; slug: string; description?: string; parent?: string }[];
  tags: string[];
  events: {
    title: string; category: string; timezone: string; dayOffset: number; start: string; durationHours: number; allDay?: boolean; featured?: boolean;
    venues: number[]; organizers: number[]; tags: string[]; cost: string; description: string; status?: 'publish' | 'draft';
  }[];
}

export async function seedCalendarDemo(store: Store, clock: Clock): Promise<void> {
  const demo = JSON.parse(readFileSync(FILE, 'utf8')) as Demo;
  const now = clock.now();
  await store.transaction(async (s) => {
    const cal = s.calendar;
    const blank = { author: 0, status: 'publish', description: '', excerpt: '', phone: '', website: '', image: '' };
    const venueIds: number[] = [];
    for (const { venue, latitude, longitude, ...rest } of demo.venues) {
      venueIds.push(await cal.createLinked('venue', {
        ...blank, address: '', city: '', country: '', province: '', state: '', zip: '', stateprovince: '', show_map: true, show_map_link: true,
        ...(rest as Record<string, string>), name: venue, slug: slugify(venue), latitude: Number(latitude), longitude: Number(longitude),
      }, now));
    }
    const organizerIds: number[] = [];
    for (const { organizer, ...rest } of demo.organizers) {
      organizerIds.push(await cal.createLinked('organizer', { ...blank, email: '', ...rest, name: organizer, slug: slugify(organizer) }, now));
    }
    const terms = new Map<string, number>();
    for (const c of demo.categories) {
      terms.set(c.slug, (await cal.createTerm({ taxonomy: 'category', name: c.name, slug: c.slug, description: c.description ?? '', parent: c.parent ? terms.get(c.parent)! : 0 })).id);
    }
    for (const t of demo.tags) terms.set(`tag:${t}`, (await cal.createTerm({ taxonomy: 'tag', name: t, slug: t, description: '', parent: 0 })).id);

    const today = instantToWall(now, 'UTC');
    for (const e of demo.events) {
      const day = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + e.dayOffset));
      const [h, m] = e.start.split(':').map(Number);
      let start = new Date(day.getTime() + (h * 60 + m) * 60000);
      let end = new Date(start.getTime() + e.durationHours * 3600000);
      if (e.allDay) [start, end] = [day, new Date(day.getTime() + 86399000)];
      const id = await cal.createEvent({
        author: 0, status: e.status ?? 'publish', password: '', slug: slugify(e.title), title: e.title, description: e.description, excerpt: '',
        start_date: fmt(start), end_date: fmt(end), utc_start_date: fmt(wallToInstant(start, e.timezone)), utc_end_date: fmt(wallToInstant(end, e.timezone)),
        timezone: e.timezone, all_day: e.allDay ?? false, ...costFields(e.cost), website: null, image: '',
        show_map: true, show_map_link: true, hide_from_listings: false, sticky: false, featured: e.featured ?? false, post_parent: 0,
      }, now);
      await cal.setLinks(id, 'venue', e.venues.map((i) => venueIds[i]));
      await cal.setLinks(id, 'organizer', e.organizers.map((i) => organizerIds[i]));
      await cal.setTerms(id, 'category', [terms.get(e.category)!]);
      await cal.setTerms(id, 'tag', e.tags.map((t) => terms.get(`tag:${t}`)!));
    }
  });
}
