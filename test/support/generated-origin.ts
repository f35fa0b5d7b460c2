/**
 * A generated legacy origin of any size: the routes `lintel import` reads, answered as the legacy
 * site answers them (The Events Calendar's archives, `wp/v2` lists with `X-WP-Total(Pages)`,
 * Redirection's 0-based pages, Simple History's newest-first list), for `events` events with a
 * venue, an organizer, a category and a tag each, computed per request (no data held): the bench
 * imports 100k events from it without the origin's memory or speed being part of the figure.
 * Run on its own: `node test/support/generated-origin.ts [events]` prints its address.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const STATUSES = ['publish', 'publish', 'publish', 'draft', 'future'];
const LINKED = 3;
const json = (body: unknown, headers: Record<string, string> = {}) => ({ body: JSON.stringify(body), headers });
const pages = (total: number, perPage: number) => Math.max(1, Math.ceil(total / perPage));
/** IDs: terms 1..4, venues and organizers 10.., events 100.. */
const EVENT_BASE = 100;

function post(id: number, i: number) {
  const day = String(1 + (i % 28)).padStart(2, '0');
  return { id, author: 1, status: STATUSES[i % STATUSES.length], date: `2026-01-${day} 10:00:00`, date_utc: `2026-01-${day} 15:00:00`, modified: `2026-02-${day} 10:00:00`, modified_utc: `2026-02-${day} 15:00:00` };
}

function venue(i: number) {
  return { ...post(10 + i, i), status: 'publish', slug: `venue-${i}`, venue: `Venue ${i}`, description: '', excerpt: '', address: `${i} Main St`, city: 'Boston', country: 'US', province: '', state: 'MA', zip: '02110', phone: '', website: '', stateprovince: 'MA', show_map: true, show_map_link: true };
}

function organizer(i: number) {
  return { ...post(20 + i, i), status: 'publish', slug: `organizer-${i}`, organizer: `Organizer ${i}`, description: '', excerpt: '', phone: '', website: '', email: `org${i}@example.org` };
}

function event(i: number) {
  const id = EVENT_BASE + i;
  const month = String(1 + (i % 12)).padStart(2, '0');
  const day = String(1 + (i % 28)).padStart(2, '0');
  return {
    ...post(id, i), slug: `event-${i}`, title: `Event number ${i}`, url: `http://legacy.example/event/event-${i}/`,
    description: `<p>${'A generated event description with some length to it. '.repeat(8)}</p>`, excerpt: '',
    start_date: `2027-${month}-${day} 19:00:00`, end_date: `2027-${month}-${day} 21:00:00`, utc_start_date: `2027-${month}-${day} 23:00:00`, utc_end_date: `2027-${month}-${day} 23:59:00`,
    timezone: 'America/New_York', all_day: false, cost: String(i % 50), cost_details: { currency_symbol: '$', currency_code: 'USD', currency_position: 'prefix', values: [String(i % 50)] },
    website: `http://legacy.example/event/event-${i}/`, show_map: true, show_map_link: true, hide_from_listings: false, sticky: false, featured: i % 7 === 0,
    venue: venue(i % LINKED), organizer: [organizer(i % LINKED)], categories: [{ id: 1 + (i % 2) }], tags: [{ id: 3 + (i % 2) }],
  };
}

const term = (id: number) => ({ id, name: `Term ${id}`, slug: `term-${id}`, description: '', parent: 0 });

/** The answer to one GET, or null (404). */
function answer(path: string, q: URLSearchParams, events: number): { body: string; headers: Record<string, string> } | null {
  const perPage = Number(q.get('per_page') ?? 10);
  const page = Number(q.get('page') ?? 1);
  const slice = (total: number, make: (i: number) => unknown, from = (page - 1) * perPage) =>
    Array.from({ length: Math.max(0, Math.min(perPage, total - from)) }, (_, k) => make(from + k));
  const archive = (key: string, total: number, make: (i: number) => unknown) => json({ [key]: slice(total, make), total, total_pages: pages(total, perPage) });
  const wpList = (total: number, make: (i: number) => unknown) => json(slice(total, make), { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(pages(total, perPage)) });
  switch (path) {
    case '/wp-json/': return json({ name: 'Generated', timezone_string: 'America/New_York' });
    case '/wp-json/tribe/events/v1/categories': return archive('categories', 2, (i) => term(1 + i));
    case '/wp-json/tribe/events/v1/tags': return archive('tags', 2, (i) => term(3 + i));
    case '/wp-json/tribe/events/v1/venues': return archive('venues', LINKED, venue);
    case '/wp-json/tribe/events/v1/organizers': return archive('organizers', LINKED, organizer);
    case '/wp-json/tribe/events/v1/events': return archive('events', events, event);
    case '/wp-json/wp/v2/tribe_events': return wpList(events, (i) => ({ id: EVENT_BASE + i, password: '' }));
    case '/wp-json/wp/v2/users': return wpList(1, () => ({ id: 1, username: 'admin', email: 'admin@legacy.example', name: 'admin', roles: ['administrator'] }));
    case '/wp-json/redirection/v1/setting': return json({ settings: { expire_redirect: 7, expire_404: 7, modules: [], monitor_post: 0, redirect_cache: 1 } });
    case '/wp-json/redirection/v1/group': return json({ items: [{ id: 1, name: 'Redirections', module_id: 1, enabled: true }], total: 1 });
    case '/wp-json/redirection/v1/redirect':
    case '/wp-json/redirection/v1/log':
    case '/wp-json/redirection/v1/404': return json({ items: [], total: 0 });
    case '/wp-json/simple-history/v1/events': return wpList(0, () => null);
    default: return null;
  }
}

export async function startGeneratedOrigin(events: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://origin');
    const a = req.method === 'GET' ? answer(url.pathname, url.searchParams, events) : null;
    if (!a) {
      res.writeHead(404, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8', ...a.headers }).end(a.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const origin = await startGeneratedOrigin(Number(process.argv[2] ?? 100_000));
  console.log(origin.url);
  process.on('SIGTERM', () => void origin.close().then(() => process.exit(0)));
}
