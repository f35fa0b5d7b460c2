/**
 * Step 1 of the pipeline, parse: an HTTP request becomes a REST request (locale, route, method,
 * parameter buckets), or null when the URL is not under the REST prefix.
 */
import Busboy from 'busboy';
import type { UploadedFile } from '../contract/context.ts';
import { asParamMaps, paramMap, parsePhpParams, parseQueryString, type Params } from '../lib/php-params.ts';
import { safeDecode } from '../lib/url-encoding.ts';

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

function untrailingslash(route: string): string {
  const r = route.replace(/\/+$/, '');
  return r === '' ? '/' : r.startsWith('/') ? r : `/${r}`;
}

/**
 * `/{prefix}/...`, `/{locale}/{prefix}/...`, or `?rest_route=/...` on the site root (with or
 * without a locale, or `index.php`), as the legacy rewrite rules accept them. WordPress reads the
 * query's `rest_route` before the one the rewrite rule makes of the path, so a non-empty one names
 * the route under the prefix too (`/wp-json/oembed/1.0?rest_route=/redirection/v1`).
 */
export function locateRest(pathname: string, query: Params, p: RestPrefixes): RestLocation | null {
  const segs = pathname.split('/');
  // segs[0] is '' (leading slash)
  let i = 1;
  let locale: string | null = null;
  const first = segs[1]?.toLowerCase();
  if (first && p.locales.includes(first) && segs.length > 2) {
    locale = first;
    i = 2;
  }
  const head = segs[i]?.toLowerCase();
  const named = query.rest_route;
  if (head === p.restPrefix.toLowerCase()) {
    const route = untrailingslash(safeDecode(segs.slice(i + 1).join('/')));
    if (typeof named === 'string') return named === '' ? { locale, route } : { locale, route: untrailingslash(named), byQuery: true };
    return named === undefined || named === null ? { locale, route } : { locale, route, routeNotString: true };
  }
  const rest = segs.slice(i).join('/');
  if ((rest === '' || rest === 'index.php') && typeof named === 'string') return { locale, route: untrailingslash(named), byQuery: true };
  if ((rest === '' || rest === 'index.php') && named !== undefined && named !== null) return { locale, route: '/', routeNotString: true };
  return null;
}

export type JsonBody = { ok: true; value: unknown } | { ok: false; error: string } | null;

export interface RestBody {
  /** Parsed JSON when the Content-Type is a JSON media type (the error is reported after routing). */
  json: JsonBody;
  /** Form fields (urlencoded or multipart). */
  form: Params | null;
  files: Map<string, UploadedFile>;
}

// WordPress's JSON media type test (WP_REST_Request::is_json_content_type).
const JSON_TYPE = /(^|\s|,)application\/([\w!#$&-^.+]+\+)?json(\+oembed)?($|\s|;|,)/i;

export async function readBody(contentType: string | undefined, raw: Buffer | undefined): Promise<RestBody> {
  const empty: RestBody = { json: null, form: null, files: new Map() };
  if (!raw || raw.length === 0) return empty;
  const ct = contentType ?? '';
  if (JSON_TYPE.test(ct)) {
    try {
      return { ...empty, json: { ok: true, value: JSON.parse(raw.toString('utf8'), asParamMaps) } };
    } catch (e) {
      return { ...empty, json: { ok: false, error: (e as Error).message } };
    }
  }
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

/** Parameter precedence: JSON body, form body (write methods), query, path, then defaults (applied in validation). */
export function mergeParams(body: RestBody, method: string, query: Params, urlParams: Record<string, string>): Params {
  const buckets: Params[] = [];
  const json = body.json?.ok && isPlainObject(body.json.value) ? body.json.value : null;
  if (json) buckets.push(json);
  if (body.form && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) buckets.push(body.form);
  buckets.push(query, urlParams);
  const out = paramMap();
  // The first bucket holding a key wins; keys keep the order WordPress visits them in (JSON, form, query, path).
  for (const b of buckets) for (const [k, v] of Object.entries(b)) if (v !== null && v !== undefined && !Object.hasOwn(out, k)) out[k] = v;
  return out;
}

export function isPlainObject(v: unknown): v is Params {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
