/**
 * The legacy objects' schemas (what `shape.ts` builds), for the API reference: `/openapi.json`
 * declares them as the routes' responses and `/doc` lists them as its components.
 */
import { z } from 'zod';
import { shape } from '../../contract/reply.ts';

const str = z.string();
const int = z.int();
/** A flag a password-protected archive entry blanks to `null`. */
const flag = z.boolean().nullable();
const globalIds = { global_id: str, global_id_lineage: z.array(str) };
const postDates = { date: str, date_utc: str, modified: str, modified_utc: str };
const post = { id: int, author: str, status: str, ...postDates, url: str, description: str, excerpt: str, slug: str };

export const ImageSize = z.object({ width: int, height: int, 'mime-type': str, url: str }).meta({ id: 'ImageSize' });
export const Image = z.union([z.literal(false), z.object({ url: str, id: int, extension: str, width: int, height: int, sizes: shape.map(ImageSize) })]).meta({ id: 'Image' });
export const DateDetails = z.object({ year: str, month: str, day: str, hour: str, minutes: str, seconds: str }).meta({ id: 'DateDetails' });
export const CostDetails = z.object({ currency_symbol: str, currency_code: str, currency_position: str, values: z.array(str) }).meta({ id: 'CostDetails' });
const termUrls = z.object({ self: str, collection: str, up: str.optional() });

/** A term of the archives and single-term routes (single terms add `_links`); a `_fields` that does not name them leaves fields out. */
export const Term = z.object({
  id: int, count: int.optional(), description: str.optional(), name: str.optional(), slug: str.optional(), taxonomy: str.optional(), parent: int.optional(),
  meta: z.tuple([]).optional(), url: str.optional(), urls: termUrls, _links: shape.links().optional(),
}).meta({ id: 'Term' });
/** A term as embedded in an event (the raw WP_Term). */
const EmbeddedTerm = z.object({
  name: str, slug: str, term_group: int, term_taxonomy_id: int, taxonomy: str, description: str,
  parent: int, count: int, filter: str, id: int, urls: termUrls,
}).meta({ id: 'EmbeddedTerm' });

// Empty contact fields are left out (the legacy `array_filter`), hence optional.
const contact = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, str.optional()]));
export const Venue = z.object({
  ...post, venue: z.union([str, z.tuple([])]), image: Image,
  ...contact(['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince']),
  geo_lat: z.number().optional(), geo_lng: z.number().optional(), json_ld: shape.map().optional(),
  show_map: z.boolean(), show_map_link: z.boolean(), ...globalIds,
}).meta({ id: 'Venue' });
export const Organizer = z.object({
  ...post, organizer: z.union([str, z.tuple([])]), image: Image,
  ...contact(['phone', 'website', 'email']), json_ld: shape.map().optional(), ...globalIds,
}).meta({ id: 'Organizer' });

export const Event = z.object({
  ...post, ...globalIds, rest_url: str, title: str, image: Image, all_day: flag,
  start_date: str, start_date_details: DateDetails, end_date: str, end_date_details: DateDetails,
  utc_start_date: str, utc_start_date_details: DateDetails, utc_end_date: str, utc_end_date_details: DateDetails,
  timezone: str, timezone_abbr: str, cost: str, cost_details: CostDetails, website: str,
  show_map: flag, show_map_link: flag, hide_from_listings: flag, sticky: flag, featured: flag,
  categories: z.array(EmbeddedTerm), tags: z.array(EmbeddedTerm),
  venue: z.union([z.tuple([]), Venue, z.array(Venue)]), organizer: z.array(Organizer),
  custom_fields: z.array(z.unknown()), json_ld: shape.map().optional(),
}).meta({ id: 'Event' });

/** An archive page: its records under `key`, totals and the neighbouring pages' addresses. */
export function archive<K extends string>(key: K, item: z.ZodType) {
  return z.object({
    [key]: z.array(item), rest_url: str, next_rest_url: str.optional(), previous_rest_url: str.optional(), total: int, total_pages: int,
  } as Record<K | 'rest_url' | 'total' | 'total_pages', z.ZodType>);
}
