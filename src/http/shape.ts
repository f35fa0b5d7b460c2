/**
 * Step 4 of the pipeline, shape: `_fields`, `_envelope` and the legacy response headers.
 */
import { Readable } from 'node:stream';
import { lastOf, type Params } from '../lib/php-params.ts';
import { toList } from '../contract/coerce.ts';
import type { RawBody, ResultHeaders } from '../contract/route.ts';

/**
 * A JSON value already serialized, as a top-level value of an answer's body: what is kept between
 * requests (an archive's event objects) is not serialized again on each. It is held as UTF-8 bytes,
 * in pieces: the answer is their concatenation, so a kept item is neither serialized nor encoded
 * again, and the socket is handed bytes (a string with one non-Latin-1 character is encoded as a
 * whole on every write). Anything that reads into it (`_fields`, `_envelope`, a batch) sees the
 * parsed value.
 */
export class JsonText {
  readonly parts: readonly Buffer[];
  constructor(text: string | readonly Buffer[]) {
    this.parts = typeof text === 'string' ? [Buffer.from(text)] : text;
  }
  /** A JSON array of these already-serialized items. */
  static list(items: readonly Buffer[]): JsonText {
    const parts: Buffer[] = [OPEN];
    for (const [i, item] of items.entries()) parts.push(...(i ? [COMMA, item] : [item]));
    parts.push(CLOSE);
    return new JsonText(parts);
  }
  toJSON(): unknown {
    return JSON.parse(Buffer.concat(this.parts).toString('utf8'));
  }
}
const [OPEN, COMMA, CLOSE] = ['[', ',', ']'].map((c) => Buffer.from(c));

const holdsJsonText = (body: unknown): body is Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && Object.values(body).some((v) => v instanceof JsonText);

/** The body with its JsonText values parsed, for what reads into it. */
function parsed(body: unknown): unknown {
  return holdsJsonText(body) ? Object.fromEntries(Object.entries(body).map(([k, v]) => [k, v instanceof JsonText ? v.toJSON() : v])) : body;
}

/** `JSON.stringify(body)`; a body holding JsonText comes out as UTF-8 bytes, its JsonText values as they are. */
export function serialize(body: unknown): string | Buffer {
  if (!holdsJsonText(body)) return JSON.stringify(body);
  const parts: Buffer[] = [];
  let text = '{';
  let first = true;
  for (const [k, v] of Object.entries(body)) {
    // A member whose value JSON.stringify leaves out (undefined, a function, a symbol) is left out here too.
    const value = v instanceof JsonText ? '' : (JSON.stringify(v) as string | undefined);
    if (value === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(k)}:${value}`;
    first = false;
    if (v instanceof JsonText) {
      parts.push(Buffer.from(text), ...v.parts);
      text = '';
    }
  }
  parts.push(Buffer.from(`${text}}`));
  return Buffer.concat(parts);
}

/**
 * `_fields=a,b.c`: keeps only those (nested) keys of an object, or of each item of a list. Only the
 * list's scalars name fields (wp_parse_list), so any parameter shape is filtered, never a failure:
 * shaping runs after a write is committed.
 */
export function filterFields(answer: unknown, fields: unknown): unknown {
  const paths = fieldPaths(fields);
  if (paths.length === 0) return answer;
  const body = parsed(answer);
  const pick = (obj: unknown): unknown => {
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return obj;
    const made = new WeakSet<object>();
    const out: Record<string, unknown> = {};
    made.add(out);
    for (const p of paths) copyPath(obj as Record<string, unknown>, out, p, made);
    return emptyAsPhpArray(out, made);
  };
  return Array.isArray(body) ? body.map(pick) : pick(body);
}

/** The paths `_fields` names (`b.c`: `['b', 'c']`); none when it names no field, and every field is kept. */
function fieldPaths(fields: unknown): string[][] {
  // A repeated plain key is its last value, as in PHP; then wp_parse_list: a string is split, an array of any keys gives its scalar values.
  const value = lastOf(fields);
  // A JSON body's number or boolean is split as the text PHP makes of it: `true` names the field `1`.
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : typeof value === 'boolean' ? (value ? '1' : '') : null;
  const list = text !== null ? toList(text) : value !== null && typeof value === 'object' ? Object.values(value) : [];
  // A number or boolean a JSON body lists is a field too, named as PHP prints it (true `1`, false ``), and seldom any key's.
  const named = (Array.isArray(list) ? list : []).flatMap((f) => (typeof f === 'string' || typeof f === 'number' ? [String(f)] : typeof f === 'boolean' ? [f ? '1' : ''] : []));
  return named.map((f) => f.trim().split('.'));
}

/**
 * Whether an answer filtered by `_fields` keeps a top-level field (WordPress's rest_is_field_included):
 * for handlers whose legacy output depends on the fields computed.
 */
export function fieldIncluded(fields: unknown, name: string): boolean {
  const paths = fieldPaths(fields);
  return paths.length === 0 || paths.some((p) => p[0] === name);
}

// Only own keys are followed and written (a `_fields` path such as `__proto__.x` names a key
// like any other), so the copy never reaches a prototype.
function copyPath(src: Record<string, unknown>, dst: Record<string, unknown>, path: string[], made: WeakSet<object>): void {
  const [head, ...rest] = path;
  if (!Object.hasOwn(src, head)) return;
  const value = src[head];
  if (rest.length === 0 || typeof value !== 'object' || value === null) {
    Object.defineProperty(dst, head, { value, enumerable: true, writable: true, configurable: true });
    return;
  }
  if (!Object.hasOwn(dst, head)) {
    const inner = {};
    made.add(inner);
    Object.defineProperty(dst, head, { value: inner, enumerable: true, writable: true, configurable: true });
  }
  copyPath(value as Record<string, unknown>, dst[head] as Record<string, unknown>, rest, made);
}

/** WordPress filters PHP arrays: one that no listed field is left in is an empty array, `[]` in JSON. */
function emptyAsPhpArray(o: Record<string, unknown>, made: WeakSet<object>): unknown {
  for (const [k, v] of Object.entries(o)) if (typeof v === 'object' && v !== null && made.has(v)) o[k] = emptyAsPhpArray(v as Record<string, unknown>, made);
  return Object.keys(o).length === 0 ? [] : o;
}

/**
 * A successful answer's body as sent: filtered by `_fields` (when given), then its links added as
 * `_links`, as WordPress's response_to_data adds them after rest_post_dispatch has filtered the data.
 */
export function filteredBody(body: unknown, fields: unknown, links?: Record<string, unknown>): unknown {
  const filtered = fields === undefined ? body : filterFields(body, fields);
  if (!links) return filtered;
  // A body that lost every field is PHP's empty array, to which the links are added as a key.
  const data = Array.isArray(filtered) && filtered.length === 0 ? {} : parsed(filtered);
  return { ...(data as Record<string, unknown>), _links: links };
}

/** Headers every REST response carries on the legacy site. */
export function restHeaders(apiRoot: string): Record<string, string> {
  return {
    'Content-Type': 'application/json; charset=UTF-8',
    'X-Robots-Tag': 'noindex',
    Link: `<${apiRoot}>; rel="https://api.w.org/"`,
    'X-Content-Type-Options': 'nosniff',
    'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, Link',
    'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
  };
}

export const NO_CACHE = {
  Expires: 'Wed, 11 Jan 1984 05:00:00 GMT',
  'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private',
};

export interface Shaped {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer | Readable | null;
}

/** A shaped answer and the pattern of the route that gave it (`(no route)`: none matched). */
export type RestAnswer = Shaped & { route: string };

export interface ShapeInput {
  status: number;
  body: unknown;
  headers: ResultHeaders;
  raw?: RawBody;
  links?: Record<string, unknown>;
  query: Params;
  /** `_fields` as `$request['_fields']` reads it: the body's before the query's (default: the query's). */
  fields?: unknown;
  method: string;
  apiRoot: string;
  loggedIn: boolean;
  origin: string | undefined;
  overriddenByHeader: boolean;
}

/** Headers as HTTP sends them: every value text. */
const sent = (h: ResultHeaders): Record<string, string> => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, String(v)]));

export function shape(o: ShapeInput): Shaped {
  // A streamed body (a proxied event stream) bypasses the REST envelope, as the legacy handler
  // echoes and exits: only its own headers are sent.
  if (o.body instanceof Readable) return { status: o.status, headers: { ...sent(o.headers), ...(o.raw ? { 'Content-Type': o.raw.contentType } : {}) }, body: o.body };
  if (o.raw?.printed) {
    // Printed during dispatch: only the headers sent before it (the REST ones and the handler's own),
    // not those sent after it (Allow, no-cache, CORS); never filtered or enveloped.
    const { Allow: _sentAfter, ...own } = o.headers;
    return { status: o.status, headers: { ...restHeaders(o.apiRoot), ...sent(own), 'Content-Type': o.raw.contentType }, body: o.method === 'HEAD' ? null : String(o.body) };
  }
  const isError = o.status >= 400;
  let body = o.body;
  if (!isError) body = filteredBody(body, 'fields' in o ? o.fields : o.query._fields, o.links);
  let status = o.status;
  let headers: Record<string, string> = { ...restHeaders(o.apiRoot), ...sent(o.headers) };
  if (o.raw) headers['Content-Type'] = o.raw.contentType;
  if (o.query._envelope !== undefined) {
    body = { body: parsed(body), status, headers: Object.keys(o.headers).length ? o.headers : [] };
    status = 200;
    headers = restHeaders(o.apiRoot);
  }
  if (o.loggedIn || (o.overriddenByHeader && isError)) Object.assign(headers, NO_CACHE);
  if (o.origin !== undefined) {
    Object.assign(headers, {
      'Access-Control-Allow-Origin': o.origin,
      'Access-Control-Allow-Methods': 'OPTIONS, GET, POST, PUT, PATCH, DELETE',
      'Access-Control-Allow-Credentials': 'true',
      Vary: 'Origin',
    });
  } else if (!o.loggedIn && o.method === 'GET') headers.Vary = 'Origin';
  if (o.method === 'HEAD' || status === 204 || body === null || body === undefined) return { status, headers, body: null };
  if (o.raw && o.query._envelope === undefined) return { status, headers, body: typeof body === 'string' || Buffer.isBuffer(body) ? body : String(body) };
  return { status, headers, body: serialize(body) };
}
