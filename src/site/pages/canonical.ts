/**
 * What redirect_canonical makes of a front-page request's query vars when it sends the request on to
 * another address (a guessed post, an author's page): which page of a post, which authors, and the
 * query carried over.
 */
import { phpInt } from '../../namespaces/calendar/args.ts';
import { lastOf, parseQueryString, type Params } from '../../lib/php-params.ts';
import { byteWise, rawurlencodeBytes } from '../../lib/url-encoding.ts';

/**
 * WP_Query's `page` (absint of it, slashes trimmed) as its address prints it: a guessed post's page over 1
 * is in its address (`/event/x/2/`). PHP reads a numeric string past its integers as PHP_INT_MAX and one
 * past a float's range (`1e400`) as 0.
 */
export function postPageAsked(vars: Params): string | null {
  const v = lastOf(vars.page);
  const page = typeof v === 'string' ? Math.abs(phpInt(v.replace(/^\/+|\/+$/g, ''))) : 0;
  if (!Number.isFinite(page) || page <= 1) return null;
  return page >= 2 ** 63 ? '9223372036854775807' : String(page);
}

/**
 * The post ID a front-page request asks for: WP_Query's `p`, else `page_id`, each's leading integer; 0
 * for none. (WP_Query takes a negative one's absolute value, but the legacy site answers `p=-15` with a
 * 200 page, redirecting nowhere: Lintel leaves it to the front page.)
 */
export function postIdAsked(vars: Params): number {
  const id = (name: string) => {
    const v = lastOf(vars[name]);
    return typeof v === 'string' ? Math.max(0, phpInt(v)) : 0;
  };
  return id('p') || id('page_id');
}

/**
 * The authors a front-page request asks for (WP_Query's `author`: a comma list, all but digits,
 * commas and hyphens dropped, each item's leading integer, sorted, once each), or null when it asks
 * for none (empty, zero or not a string) and the page is not an author archive.
 */
export function authorsAsked(vars: Params): number[] | null {
  const v = lastOf(vars.author);
  const list = typeof v === 'string' ? v.replace(/[^0-9,-]/g, '') : '';
  // `'0' != $author`: a numeric string compares as a number (`00`, `-0`).
  if (list === '' || (/^-?\d+$/.test(list) && Number(list) === 0)) return null;
  return [...new Set(list.split(/,+/).map((item) => phpInt(item) + 0))].sort((a, b) => a - b);
}

/**
 * The query redirect_canonical carries to the address it redirects to: the request's query as parse_str
 * reads it, without the vars that named the target, keys and values rawurlencoded (a list's items as
 * `x%5B0%5D=1`), an empty value without its `=` (add_query_arg), and an empty `p`, `page_id`, `cat` or
 * `tag` dropped. Returns `?...` or `''`.
 */
export function carriedQuery(query: string, dropped: readonly string[]): string {
  const pairs: string[] = [];
  const add = (key: string, value: unknown): void => {
    if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) add(`${key}%5B${rawurlencodeBytes(k)}%5D`, v);
    else pairs.push(`${key}=${rawurlencodeBytes(String(value))}`);
  };
  for (const [key, value] of Object.entries(parseQueryString(byteWise(query)))) if (!dropped.includes(key)) add(rawurlencodeBytes(key), lastOf(value));
  const built = pairs
    .join('&')
    .replace(/=(&|$)/g, '$1')
    .replace(/(^|&)(p|page_id|cat|tag)=?(?=&|$)/g, '')
    .replace(/^&+/, '');
  return built ? `?${built}` : '';
}

