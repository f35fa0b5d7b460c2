/**
 * Step 1 of the pipeline, parse: an HTTP request becomes a REST request (locale, route, method,
 * parameter buckets), or null when the URL is not under the REST prefix.
 */
import Busboy from 'busboy';
import type { UploadedFile } from '../contract/context.ts';
import { phpTrim } from '../lib/legacy-html.ts';
import { asParamMaps, paramMap, parsePhpParams, parseQueryString, lastOf, type Params } from '../lib/php-params.ts';
import { safeDecode } from '../lib/url-encoding.ts';
import { decodePhpJson, type Decoded } from '../lib/php-json.ts';

export interface RestLocation {
  locale: string | null;
  route: string;
  /** Named by `?rest_route=` rather than by the path. */
  byQuery?: true;
  /** `?rest_route` is not a string (`rest_route[]=`): the legacy site refuses the request before any route runs. */
  routeNotString?: true;
}

export interface RestPrefixes {
  restPrefix: string;
  locales: readonly string[];
}

/**
 * What rest_api_loaded serves for a `rest_route`: trailing slashes and backslashes go (untrailingslashit),
 * and nothing left is the index. The route is matched as it is: without its leading slash
 * (`?rest_route=oembed/1.0`) or with two (`/wp-json//oembed/1.0`) it names no route.
 */
function restRoute(route: string): string {
  const r = route.replace(/[/\\]+$/, '');
  return r === '' || r === '0' ? '/' : r;
}

/**
 * The `rest_route` query variable as WordPress reads it: a repeated name is its last value, and an
 * empty one (`''` or `'0'`, PHP's empty()) names no route at all.
 */
function namedRoute(query: Params): string | undefined | { notString: true } | { empty: true } {
  const v = lastOf(query.rest_route);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') return { notString: true };
  return v === '' || v === '0' ? { empty: true } : v;
}

/**
 * The route the rewrite rule makes of the path after the prefix, as the legacy site reads it. Its PHP
 * server decodes the path and resolves its dot segments (`by-slug/..%2F` is the collection), and hands
 * WordPress the result when no dot is left in it (PATH_INFO), which WordPress cuts at its first `?`
 * (`/wp-json/x/by-slug/a%3Fb` names the slug `a`) and re-escapes; a path with a dot left reaches it as
 * sent. The rewrite rule's query gets the path urlencoded (WP_MatchesMapRegex) before parse_str reads
 * it back, so the route is the path as WordPress was handed it: `&`, `+` and `%xx` stay as they are.
 */
function pathRoute(prefix: string, tail: string): string {
  const decoded = withoutDotSegments(safeDecode(tail));
  // What stands before the tail is the locale and the prefix as configured, plain segments: only the prefix may hold a dot.
  return `/${prefix.includes('.') || decoded.includes('.') ? tail : decoded.split('?')[0]!}`;
}

/**
 * The PHP server's normalize_vpath on a decoded path: a `.` segment goes, a `..` one takes the segment
 * before it along (none above the prefix), and a run of slashes is one.
 */
function withoutDotSegments(path: string): string {
  const kept: string[] = [];
  const segments = path.split('/');
  for (const seg of segments) {
    if (seg === '..') kept.pop();
    else if (seg !== '.' && seg !== '') kept.push(seg);
  }
  // The trailing slash stays (rest_api_loaded trims it anyway), as after a dot segment.
  const last = segments.at(-1);
  return kept.join('/') + (kept.length && (last === '' || last === '.' || last === '..') ? '/' : '');
}

/** Where `rest_route` applies: under the REST prefix (the route its path names) or on the site root (`/`, `index.php`), with or without a locale. */
interface Entry {
  locale: string | null;
  /** `/fr`, or `''`: the part of the path before the prefix or the root. */
  localePath: string;
  /** The route the rewrite rule makes of a path under the prefix; null on the site root. */
  byPath: string | null;
  indexPhp: boolean;
}

function entryOf(pathname: string, p: RestPrefixes): Entry | null {
  const segs = pathname.split('/');
  // segs[0] is '' (leading slash)
  const first = segs[1]?.toLowerCase();
  const i = first && p.locales.includes(first) && segs.length > 2 ? 2 : 1;
  const locale = i === 2 ? first! : null;
  const localePath = segs.slice(0, i).join('/');
  if (segs[i]?.toLowerCase() === p.restPrefix.toLowerCase()) return { locale, localePath, byPath: restRoute(pathRoute(segs[i], segs.slice(i + 1).join('/'))), indexPhp: false };
  const rest = segs.slice(i).join('/');
  return rest === '' || rest === 'index.php' ? { locale, localePath, byPath: null, indexPhp: rest === 'index.php' } : null;
}

/**
 * `/{prefix}/...`, `/{locale}/{prefix}/...`, or `?rest_route=/...` on the site root (with or
 * without a locale, or `index.php`), as the legacy rewrite rules accept them. WordPress reads the
 * query's `rest_route` before the one the rewrite rule makes of the path, so a non-empty one names
 * the route under the prefix too (`/wp-json/oembed/1.0?rest_route=/redirection/v1`), and an empty one
 * makes the request none of the API's (see `frontPage`).
 */
export function locateRest(pathname: string, query: Params, p: RestPrefixes): RestLocation | null {
  const entry = entryOf(pathname, p);
  if (!entry) return null;
  const { locale, byPath } = entry;
  const named = namedRoute(query);
  if (named === undefined) return byPath === null ? null : { locale, route: byPath };
  if (typeof named === 'string') return { locale, route: restRoute(named), byQuery: true };
  return 'notString' in named ? { locale, route: byPath ?? '/', routeNotString: true } : null;
}

/**
 * The query vars WordPress's parse_request reads `rest_route` and the front page's from: a
 * POST's form body (`$_POST`, urlencoded or multipart) before the query string (`$_GET`); a
 * public query var in both, differing, is `mismatch` (wp_die 400 "A variable mismatch has been
 * detected."). Read once per request.
 */
export function routeVars(req: { method: string; url: string; headers: Record<string, unknown>; body?: unknown }): Promise<Params | 'mismatch'> {
  let vars = routeVarsRead.get(req);
  if (!vars) routeVarsRead.set(req, (vars = readRouteVars(req)));
  return vars;
}

const routeVarsRead = new WeakMap<object, Promise<Params | 'mismatch'>>();

async function readRouteVars(req: { method: string; url: string; headers: Record<string, unknown>; body?: unknown }): Promise<Params | 'mismatch'> {
  const q = req.url.indexOf('?');
  const query = parseQueryString(q < 0 ? '' : req.url.slice(q + 1));
  const type = req.headers['content-type'];
  if (req.method !== 'POST' || typeof type !== 'string' || !/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type) || !Buffer.isBuffer(req.body)) return query;
  const posted = (await readBody(type, req.body)).form;
  if (!posted) return query;
  if (PUBLIC_QUERY_VARS.some((name) => posted[name] !== undefined && query[name] !== undefined && JSON.stringify(lastOf(query[name])) !== JSON.stringify(lastOf(posted[name])))) return 'mismatch';
  const vars = { ...query };
  for (const name of PUBLIC_QUERY_VARS) if (posted[name] !== undefined) vars[name] = posted[name];
  return vars;
}

/**
 * WordPress's public query vars (WP::$public_query_vars), the REST API's `rest_route`, and those The
 * Events Calendar adds (its `query_vars` filters and the `tribe_events` post type's var): parse_request
 * dies with "A variable mismatch has been detected." when a POST form and the query string both send
 * one with different values, whatever the route (checked on the legacy site for each of the calendar's).
 */
const PUBLIC_QUERY_VARS = ['m', 'p', 'posts', 'w', 'cat', 'withcomments', 'withoutcomments', 's', 'search', 'exact', 'sentence', 'calendar', 'page', 'paged', 'more', 'tb', 'pb', 'author', 'order', 'orderby', 'year', 'monthnum', 'day', 'hour', 'minute', 'second', 'name', 'category_name', 'tag', 'feed', 'author_name', 'pagename', 'page_id', 'error', 'attachment', 'attachment_id', 'subpost', 'subpost_id', 'preview', 'robots', 'favicon', 'taxonomy', 'term', 'cpage', 'post_type', 'embed', 'rest_route',
  'tribe_events', 'eventDisplay', 'eventDate', 'eventSequence', 'ical', 'start_date', 'end_date', 'featured', 'tribe_events_cat', 'tribe_remove_date_filters', 'tribe_events_views_kitchen_sink', 'tec_qr_hash', 'tribe-aggregator', 'tribe-action'];

/**
 * The post slug a front-page request asks for (WordPress's public `name` query var, or a post type's
 * such as `tribe_events`, trimmed as WP_Query trims it), or null: a non-empty one makes the page a
 * single post's. Not a string (`name[]=`): no slug, the front page.
 */
export function postSlugAsked(vars: Params, queryVar = 'name'): string | null {
  const v = lastOf(vars[queryVar]);
  const slug = typeof v === 'string' ? phpTrim(v) : '';
  return slug === '' ? null : slug;
}

/**
 * A request WordPress answers with its front page rather than the API: an empty `rest_route` (`''`
 * or `'0'`) on the site root, `index.php` or a path under the REST prefix (the rewrite rule matched,
 * but the empty variable makes it no REST request). Before the page, redirect_canonical sends a GET
 * or HEAD to the page's canonical address: the path with its trailing slash (the site root for
 * `index.php`), the query as sent. Returns that path, `page`, or null for any other request.
 */
export function frontPage(method: string, pathname: string, query: Params, p: RestPrefixes): { redirect: string } | 'page' | null {
  const named = namedRoute(query);
  const entry = named !== undefined && typeof named !== 'string' && 'empty' in named ? entryOf(pathname, p) : null;
  if (!entry) return null;
  if (method !== 'GET' && method !== 'HEAD') return 'page';
  if (entry.indexPhp) return { redirect: `${entry.localePath}/` };
  if (pathname.endsWith('/')) return 'page';
  const path = withoutEndPunctuation(pathname);
  return { redirect: path.endsWith('/') ? path : `${path}/` };
}

/** What redirect_canonical takes off the end of the path: spaces and end punctuation, as written or escaped in upper case (its pattern has no `i`). */
const END_PUNCTUATION = [' ', '%20', '!', '%21', '"', '%22', "'", '%27', '(', '%28', ')', '%29', ',', '%2C', '.', '%2E', ';', '%3B', '{', '%7B', '}', '%7D', '%E2%80%9C', '%E2%80%9D'];

/** The path without its run of END_PUNCTUATION at the end, cut token by token from the end: a `(…)+$` regex backtracks from every start, quadratic in a 16 KB path of dots. */
function withoutEndPunctuation(path: string): string {
  let end = path.length;
  for (let cut = END_PUNCTUATION.find((t) => path.endsWith(t, end)); cut !== undefined; cut = END_PUNCTUATION.find((t) => path.endsWith(t, end))) end -= cut.length;
  return path.slice(0, end);
}

export type JsonBody = Decoded | null;

export interface RestBody {
  /** Parsed JSON when the Content-Type is a JSON media type (the error is reported after routing). */
  json: JsonBody;
  /** Form fields (urlencoded or multipart). */
  form: Params | null;
  files: Map<string, UploadedFile>;
}

// WordPress's JSON media type test (wp_is_json_media_type, which WP_REST_Request::is_json_content_type and wp_is_json_request use).
const JSON_TYPE = /(^|\s|,)application\/([\w!#$&-^.+]+\+)?json(\+oembed)?($|\s|;|,)/i;

export function isJsonMediaType(value: string | undefined): boolean {
  return JSON_TYPE.test(value ?? '');
}

/** Each request body is parsed once: routing (routeVars) reads a POST form's `rest_route` before the handler reads the rest. */
const parsedBodies = new WeakMap<Buffer, { contentType: string | undefined; body: Promise<RestBody> }>();

export function readBody(contentType: string | undefined, raw: Buffer | undefined): Promise<RestBody> {
  if (!raw || raw.length === 0) return Promise.resolve({ json: null, form: null, files: new Map() });
  const known = parsedBodies.get(raw);
  if (known && known.contentType === contentType) return known.body;
  const body = parseBody(contentType ?? '', raw);
  parsedBodies.set(raw, { contentType, body });
  return body;
}

async function parseBody(ct: string, raw: Buffer): Promise<RestBody> {
  const empty: RestBody = { json: null, form: null, files: new Map() };
  // Parsed as PHP's json_decode, whose error the JSON error reports.
  if (JSON_TYPE.test(ct)) return { ...empty, json: decodePhpJson(raw, asParamMaps) };
  if (/^multipart\/form-data/i.test(ct)) return readMultipart(ct, raw);
  if (ct === '' || /^application\/x-www-form-urlencoded/i.test(ct)) return { ...empty, form: parseQueryString(raw.toString('utf8')) };
  return empty;
}

function readMultipart(contentType: string, raw: Buffer): Promise<RestBody> {
  return new Promise((resolve) => {
    const fields: [string, string][] = [];
    const files = new Map<string, UploadedFile>();
    let bb: Busboy.Busboy;
    try {
      bb = Busboy({ headers: { 'content-type': contentType } });
    } catch {
      resolve({ json: null, form: null, files });
      return;
    }
    bb.on('field', (name, value) => fields.push([name, value]));
    bb.on('file', (name: string, stream: NodeJS.ReadableStream, info: Busboy.FileInfo) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => files.set(name, { filename: info.filename ?? '', mimeType: info.mimeType, data: Buffer.concat(chunks) }));
    });
    const done = () => resolve({ json: null, form: parsePhpParams(fields), files });
    bb.on('close', done);
    bb.on('error', done);
    bb.end(raw);
  });
}

/** `?_method=` wins over `X-HTTP-Method-Override`; both only change a request's method, upper-cased. */
export function effectiveMethod(method: string, query: Params, override: string | undefined): { method: string; byHeader: boolean } {
  if (typeof query._method === 'string' && query._method) return { method: query._method.toUpperCase(), byHeader: false };
  if (override) return { method: override.toUpperCase(), byHeader: true };
  return { method: method.toUpperCase(), byHeader: false };
}

/** The methods whose form body WordPress reads as parameters. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The parameter sources in WordPress's order (get_parameter_order): JSON body, form body (write
 * methods), then these; a JSON `null` stays in its source (absent to get_param, checked by sanitize_params).
 */
export function paramSources(body: RestBody, method: string, ...rest: Params[]): Params[] {
  const sources: Params[] = [];
  const json = body.json?.ok && isPlainObject(body.json.value) ? body.json.value : null;
  if (json) sources.push(json);
  if (body.form && BODY_METHODS.has(method)) sources.push(body.form);
  return [...sources, ...rest];
}

/** Parameter precedence: JSON body, form body (write methods), query, path, then defaults (applied in validation). */
export function mergeParams(body: RestBody, method: string, query: Params, urlParams: Record<string, string>): Params {
  const out = paramMap();
  // The first source holding a key wins; keys keep the order WordPress visits them in (JSON, form, query, path).
  for (const b of paramSources(body, method, query, urlParams)) for (const [k, v] of Object.entries(b)) if (v !== null && v !== undefined && !Object.hasOwn(out, k)) out[k] = v;
  return out;
}

/** `_fields` as `$request['_fields']` reads it (rest_filter_response_fields): the body's before the query's. */
export function requestedFields(body: RestBody, method: string, query: Params): unknown {
  for (const b of paramSources(body, method, query)) if (Object.hasOwn(b, '_fields') && b._fields !== null && b._fields !== undefined) return b._fields;
  return undefined;
}

export function isPlainObject(v: unknown): v is Params {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
