/**
 * Request generators for the fuzz suite, derived from the route table the app builds: for every
 * declared route and endpoint, valid and hostile arguments from its argument schemas, sent every
 * way the pipeline reads them (query, form, JSON, multipart, batch item), with method overrides,
 * anonymous or as an administrator; plus the site's own pages and the redirect edge.
 */
import fc from 'fast-check';
import type { JsonSchema } from '../../src/contract/describe.ts';
import type { CompiledRoute, RouteTable } from '../../src/contract/router.ts';
import { safeDecode } from '../../src/lib/url-encoding.ts';

export type Caller = 'anonymous' | 'admin' | 'bad-auth';

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  caller: Caller;
}

export type Value = string | number | boolean | null | Value[] | { [k: string]: Value };

/** Values that have broken parsers and stores before: numbers beyond every column, NUL, broken escapes, odd unicode. */
const HOSTILE_STRINGS = [
  '', ' ', '0', '-1', '-0', '1.5', '1e3', '1e400', '-1e400', 'NaN', 'Infinity', '0x1f', '+1', '00012',
  '2147483647', '2147483648', '4294967296', '9007199254740993', '99999999999999999999', '9223372036854775807',
  '9223372036854775808', '-9223372036854775809', 'true', 'false', 'null', 'undefined', '[]', '{}', '[object Object]',
  '\u0000', 'a\u0000b', '%', '%zz', '%00', '%25', '%C0%AF', '\uFFFD', '\uD800', '\u202Ex', '😀', 'ﬃ', 'İ', 'e\u0301',
  '../../etc/passwd', '<script>alert(1)</script>', "' OR '1'='1", '"', '\\', '/', '//', '//evil.test/x', '*', '(', '[', '$',
  '^(a+)+$', '(?P<x>', 'http://127.0.0.1/', 'http://lintel.test/event/x/', 'javascript:alert(1)', 'a,b,,c', ' , ',
  '2024-02-30 25:61:61', '0000-00-00 00:00:00', '2030-01-01 10:00:00', '2030-01-01T10:00:00+14:00', '9999-12-31 23:59:59',
  'x'.repeat(3000), '\r\nX-Injected: 1', '\t',
] as const;

const hostileString = fc.constantFrom(...HOSTILE_STRINGS);
const text = fc.oneof(fc.string({ maxLength: 24 }), fc.string({ unit: 'grapheme', maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 12 }));
const hostileNumber = fc.constantFrom(0, -1, 1.5, 2 ** 31, 2 ** 53, 1e20, -1e20, Number.MAX_VALUE, 5e-324);
const scalar: fc.Arbitrary<Value> = fc.oneof(hostileString, text, hostileNumber, fc.boolean(), fc.constant(null));
const hostileValue: fc.Arbitrary<Value> = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.oneof(hostileKeyPart(), text), scalar, { maxKeys: 3 }) },
);

function hostileKeyPart(): fc.Arbitrary<string> {
  return fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'length', '0', '', 'x');
}

const typesOf = (s: JsonSchema): string[] => (Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : []);

/** A value the argument's schema describes (the valid side), bounded so it stays cheap. */
function validValue(s: JsonSchema, depth = 0): fc.Arbitrary<Value> {
  if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...(s.enum as Value[]));
  const options: fc.Arbitrary<Value>[] = [];
  for (const t of typesOf(s)) {
    if (t === 'integer' || t === 'number') {
      const min = typeof s.minimum === 'number' ? s.minimum : -5;
      const max = typeof s.maximum === 'number' ? s.maximum : Math.max(min + 50, 50);
      options.push(fc.integer({ min, max }), fc.integer({ min, max }).map(String));
    } else if (t === 'boolean') options.push(fc.constantFrom(true, false, '1', '0', 'true', 'false'));
    else if (t === 'string') {
      if (s.format === 'date-time') options.push(fc.constantFrom('2030-01-01 10:00:00', '2030-01-01T10:00:00Z', '2024-02-29 00:00:00'));
      else if (s.format === 'uuid') options.push(fc.uuid());
      else if (s.format === 'email') options.push(fc.emailAddress());
      else if (s.format === 'uri') options.push(fc.webUrl());
      else options.push(text);
    } else if (t === 'array' && depth < 2) {
      options.push(fc.array(validValue((s.items as JsonSchema) ?? {}, depth + 1), { maxLength: 4 }));
    } else if (t === 'object' && depth < 2) {
      const props = s.properties && !Array.isArray(s.properties) ? (s.properties as Record<string, JsonSchema>) : {};
      const shape = Object.fromEntries(Object.entries(props).map(([k, p]) => [k, validValue(p, depth + 1)]));
      options.push(fc.record(shape, { requiredKeys: [] }) as fc.Arbitrary<Value>);
    } else if (t === 'null') options.push(fc.constant(null));
  }
  return options.length ? fc.oneof(...options) : scalar;
}

// Mostly valid values, so requests get past validation into the handlers and the store.
const argValue = (s: JsonSchema) => fc.oneof({ weight: 5, arbitrary: validValue(s) }, { weight: 1, arbitrary: hostileValue });

/** Keys PHP-style parsing has to survive, besides the declared ones. */
const EXTRA_KEYS = [
  '__proto__[status]', '__proto__[x]', 'constructor[prototype][status]', 'constructor[prototype][x]', 'prototype',
  '__proto__', 'toString', 'a[__proto__][x]', 'a[][x]', 'a[0][1][2]', '_fields', '_envelope', '_embed', 'rest_route',
  'context', 'page', 'per_page', 'a.b', 'a b', '[x]', 'x]', 'a[b',
  // Gapped and nested bracket lists (`_fields[]=id&_fields[2]=title` was a 500 on every route).
  '_fields[]', '_fields[2]', '_fields[a][b]', '_fields[][]', '_fields[0][]', 'a[5]', 'a[]', 'a[2][]',
  // Every spelling PHP reads as rest_route (a forwarded request must not name another route with it).
  'rest.route', 'rest[route', ' rest_route', 'rest_route[]',
] as const;

/** A declared argument sent as a gapped or nested bracket list, besides its plain name. */
const BRACKETS = ['', '', '', '', '[]', '[2]', '[a][b]', '[][]', '[0][]', '[5]'] as const;

export type Pair = [string, Value];

/** The parameters of one request: declared arguments (required ones nearly always) and some hostile extra keys. */
export function params(args: Record<string, JsonSchema & { required?: boolean }>): fc.Arbitrary<Pair[]> {
  const declared = Object.entries(args).map(([name, s]) =>
    fc.oneof(
      { weight: s.required ? 9 : 3, arbitrary: fc.tuple(fc.constantFrom(...BRACKETS), argValue(s)).map(([b, v]): Pair | null => [name + b, v]) },
      { weight: s.required ? 1 : 7, arbitrary: fc.constant(null) },
    ),
  );
  return fc
    .tuple(fc.tuple(...declared), fc.array(fc.tuple(fc.constantFrom(...EXTRA_KEYS), hostileValue), { maxLength: 2 }))
    .map(([values, extra]) => [...values.filter((p): p is Pair => p !== null), ...(extra as Pair[])]);
}

/** Percent-encoding that survives lone surrogates (made well-formed, as a browser would send them). */
export function enc(s: string): string {
  return encodeURIComponent(s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
}

/** PHP-style `key=value` pairs: lists as `key[]=`, maps as `key[k]=`. */
function flatten(key: string, v: Value, out: [string, string][]): void {
  if (Array.isArray(v)) for (const item of v) flatten(`${key}[]`, item, out);
  else if (v !== null && typeof v === 'object') for (const [k, item] of Object.entries(v)) flatten(`${key}[${k}]`, item, out);
  else out.push([key, v === null ? '' : String(v)]);
}

export function formEncode(pairs: Pair[]): string {
  const flat: [string, string][] = [];
  for (const [k, v] of pairs) flatten(k, v, flat);
  return flat.map(([k, v]) => `${enc(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${enc(v)}`).join('&');
}

export function multipart(pairs: Pair[]): { payload: string; type: string } {
  const boundary = '----lintel-fuzz';
  const flat: [string, string][] = [];
  for (const [k, v] of pairs) flatten(k, v, flat);
  const parts = flat.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, '')}"\r\n\r\n${v}\r\n`);
  const file = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.csv"\r\nContent-Type: text/csv\r\n\r\n/a,/b\r\n--${boundary}--\r\n`;
  return { payload: parts.join('') + file, type: `multipart/form-data; boundary=${boundary}` };
}

const MALFORMED_JSON = ['{', '{"a":', '[1,2', 'nul', '{"a":1}}', '"\\u00"', '{"__proto__":{"status":"x"}}', `${'['.repeat(5000)}`, '1e999', '\u0000'];
const MALFORMED_FORM = ['%', '%%%&&==', 'a[=1', 'a]=1', '&&&', '=x', 'a[][][]=1', '__proto__[status]=x', 'a=%zz'];

/** A route path from its legacy pattern, each `(?P<name>regex)` group filled with a generated value. */
export function routePath(pattern: string): fc.Arbitrary<string> {
  const pieces: fc.Arbitrary<string>[] = [];
  let i = 0;
  let literal = '';
  while (i < pattern.length) {
    if (pattern.startsWith('(?P<', i)) {
      let depth = 0;
      let j = i;
      for (; j < pattern.length; j++) {
        if (pattern[j] === '\\') j++;
        else if (pattern[j] === '(') depth++;
        else if (pattern[j] === ')' && --depth === 0) break;
      }
      const group = pattern.slice(i, j + 1);
      const body = group.replace(/^\(\?P<\w+>/, '').slice(0, -1);
      pieces.push(fc.constant(literal));
      literal = '';
      pieces.push(groupValue(body));
      i = j + 1;
    } else {
      literal += pattern[i] === '\\' ? pattern[++i] : pattern[i];
      i++;
    }
  }
  pieces.push(fc.constant(literal));
  return fc.tuple(...pieces).map((parts) => parts.join(''));
}

function groupValue(body: string): fc.Arbitrary<string> {
  // IDs mostly in the range the demo content uses, so lookups find records.
  const valid = /^(?:\\d|\[\\d\]|\[0-9\])\+$/.test(body)
    ? fc.integer({ min: 1, max: 80 }).map(String)
    : fc.stringMatching(new RegExp(`^(?:${body})$`), { maxLength: 12 }).filter((s) => s !== '' && !s.includes('/'));
  const raw = fc.constantFrom('%', '%25', '%00', '%zz', '..', '99999999999999999999', '9223372036854775808', '0', '%F0%9F%98%80', '%C0%AF');
  return fc.oneof({ weight: 4, arbitrary: valid.map(enc) }, { weight: 1, arbitrary: hostileString.filter((s) => s !== '').map(enc) }, { weight: 1, arbitrary: raw });
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const OVERRIDES = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'FOO', '', 'get'] as const;

const caller = fc.constantFrom<Caller>('anonymous', 'anonymous', 'admin', 'admin', 'admin', 'bad-auth');
/** Keys used again and again across different requests: a replayed answer, a key reused for another write (422), bad keys. */
const IDEMPOTENCY_KEYS = ['retry-1', 'retry-1', 'retry-2', '', 'k'.repeat(256), '\u00e9t\u00e9'];
const BAD_AUTH = ['Basic ADoA', 'Basic %%%', 'Basic ', 'Basic YWRtaW4=', 'Basic YWRtaW46eA==', `Basic ${Buffer.from('admin:\u0000').toString('base64')}`, 'Bearer x', 'Basic ' + 'A'.repeat(3000)];

/** One REST request to a declared endpoint (or its route with another method). */
function restRequest(route: CompiledRoute): fc.Arbitrary<FuzzRequest> {
  const endpoints = route.endpoints.length ? route.endpoints : [];
  return fc
    .record({
      e: fc.integer({ min: 0, max: Math.max(0, endpoints.length - 1) }),
      path: routePath(route.pattern),
      form: fc.constantFrom('query', 'query', 'form', 'json', 'json', 'multipart', 'malformed-json', 'malformed-form', 'text'),
      method: fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
      override: fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.tuple(fc.constantFrom('query', 'header'), fc.constantFrom(...OVERRIDES)) }),
      entry: fc.constantFrom('/wp-json', '/wp-json', '/wp-json', '/fr/wp-json', '/?rest_route=', '/index.php?rest_route='),
      slash: fc.boolean(),
      caller,
      badAuth: fc.constantFrom(...BAD_AUTH),
      malformed: fc.constantFrom(...MALFORMED_JSON, ...MALFORMED_FORM),
      idempotencyKey: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...IDEMPOTENCY_KEYS) }),
      seed: fc.integer(),
    })
    .chain((r) => {
      const endpoint = endpoints[r.e];
      const args = Object.fromEntries((endpoint?.args ?? []).map((a) => [a.name, { ...a.json, required: a.required }]));
      return params(args).map((pairs) => build(r, endpoint?.endpoint.methods[0] ?? 'GET', pairs));
    });
}

interface Shape {
  path: string;
  form: string;
  method: string;
  override: [string, string] | null;
  entry: string;
  slash: boolean;
  caller: Caller;
  badAuth: string;
  malformed: string;
  idempotencyKey: string | null;
}

function build(r: Shape, declared: string, pairs: Pair[]): FuzzRequest {
  const method = r.method || declared;
  const route = r.path + (r.slash ? '/' : '');
  const query: Pair[] = [];
  const headers: Record<string, string> = {};
  let payload: string | undefined;
  const bodyPairs = r.form === 'query' || method === 'GET' || method === 'HEAD' ? (query.push(...pairs), []) : pairs;
  if (r.override?.[0] === 'query') query.push(['_method', r.override[1]]);
  if (r.override?.[0] === 'header') headers['x-http-method-override'] = r.override[1];
  if (r.idempotencyKey !== null) headers['idempotency-key'] = r.idempotencyKey;
  if (bodyPairs.length || r.form.startsWith('malformed')) {
    if (r.form === 'form') {
      payload = formEncode(bodyPairs);
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (r.form === 'json') {
      payload = JSON.stringify(Object.fromEntries(bodyPairs));
      headers['content-type'] = 'application/json';
    } else if (r.form === 'multipart') {
      const m = multipart(bodyPairs);
      payload = m.payload;
      headers['content-type'] = m.type;
    } else if (r.form === 'malformed-json') {
      payload = r.malformed;
      headers['content-type'] = 'application/json';
    } else if (r.form === 'malformed-form') {
      payload = r.malformed;
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (r.form === 'text') {
      payload = r.malformed;
      headers['content-type'] = 'text/plain';
    }
  }
  const qs = formEncode(query);
  let url: string;
  if (r.entry.includes('rest_route=')) url = `${r.entry}${enc(safeDecode(route))}${qs ? `&${qs}` : ''}`;
  else url = `${r.entry}${route}${qs ? `?${qs}` : ''}`;
  if (r.caller === 'bad-auth') headers.authorization = r.badAuth;
  return { method, url, headers, payload, caller: r.caller };
}

/** A batch/v1 call whose items are requests to declared write routes. */
function batchRequest(routes: CompiledRoute[]): fc.Arbitrary<FuzzRequest> {
  const item = fc
    .record({
      route: fc.constantFrom(...routes),
      method: fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE', 'GET', 'post'),
      query: fc.constantFrom('', '?__proto__[status]=x', '?_fields=id', '?_method=DELETE', '?a[b]=%00'),
      headers: fc.oneof(fc.constant(undefined), fc.dictionary(fc.oneof(hostileKeyPart(), text), fc.oneof(text, fc.array(text, { maxLength: 2 })), { maxKeys: 2 })),
    })
    .chain((i) =>
      fc.tuple(routePath(i.route.pattern), params(Object.fromEntries((i.route.endpoints[0]?.args ?? []).map((a) => [a.name, { ...a.json, required: a.required }])))).map(([path, pairs]) => ({
        method: i.method,
        path: path + i.query,
        body: Object.fromEntries(pairs),
        ...(i.headers ? { headers: i.headers } : {}),
      })),
    );
  return fc
    .record({
      requests: fc.oneof({ weight: 5, arbitrary: fc.array(item, { maxLength: 4 }) }, { weight: 1, arbitrary: hostileValue }),
      validation: fc.constantFrom(undefined, 'normal', 'require-all-validate', 'x'),
      caller,
    })
    .map(({ requests, validation, caller: c }) => ({
      method: 'POST',
      url: '/wp-json/batch/v1',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(validation === undefined ? { requests } : { requests, validation }),
      caller: c,
    }));
}

/** The site's pages outside the REST prefix, the authorize page, and the redirect edge. */
function siteRequest(): fc.Arbitrary<FuzzRequest> {
  const segment = fc.oneof(fc.string({ maxLength: 16 }).map(enc), hostileString.map(enc), fc.constantFrom('%', '%00', '%zz', 'summer-jazz-night', '..'));
  const page = fc
    .tuple(fc.constantFrom('', '/fr', '/de', '/xx'), fc.constantFrom('event', 'venue', 'organizer'), segment, fc.constantFrom('/', '/embed/', ''))
    .map(([locale, kind, slug, tail]) => `${locale}/${kind}/${slug}${tail}`);
  const authorize = fc
    .array(fc.tuple(fc.constantFrom('app_name', 'app_id', 'success_url', 'reject_url', 'log', 'pwd', '__proto__[status]', 'redirect_to'), fc.oneof(hostileString, text)), { maxLength: 4 })
    .map((pairs) => `/wp-admin/authorize-application.php?${pairs.map(([k, v]) => `${k}=${enc(v)}`).join('&')}`);
  const edge = fc.array(segment, { minLength: 1, maxLength: 3 }).chain((segs) => fc.constantFrom('', '?', `?${segs[0]}=1`, '?a[]=%00').map((q) => `/${segs.join('/')}${q}`));
  return fc
    .record({ url: fc.oneof(page, authorize, edge), method: fc.constantFrom('GET', 'GET', 'HEAD', 'POST'), caller, badAuth: fc.constantFrom(...BAD_AUTH), body: fc.oneof(fc.constant(''), hostileString) })
    .map((r) => ({
      method: r.method,
      url: r.url,
      headers: { ...(r.caller === 'bad-auth' ? { authorization: r.badAuth } : {}), ...(r.method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      payload: r.method === 'POST' ? `log=${enc(r.body)}&pwd=${enc(r.body)}` : undefined,
      caller: r.caller,
    }));
}

/** Routes (and paths) that try to leave a forwarded namespace for another route of the origin. */
const ESCAPES = ['', '', '', '/..%2F..%2Fwp/v2/users', '/%252e%252e/%252e%252e/wp/v2/users', '/../../wp/v2/users', '/%5C..%5Cwp'] as const;
const OTHER_ROUTES = ['/wp/v2/users', '/wp/v2/users/me', '/', '/wp/v2/settings'] as const;

/**
 * Requests to a forwarded namespace (`forwarded.name`, served by the origin under another name):
 * its routes are those of `forwarded.like`, with escapes appended and `rest_route` naming other routes.
 */
function forwardedRequest(routes: CompiledRoute[], forwarded: { name: string; like: string }): fc.Arbitrary<FuzzRequest> {
  const like = routes.filter((r) => r.pattern.startsWith(`/${forwarded.like}`));
  return fc
    .record({ i: fc.integer({ min: 0, max: like.length - 1 }), escape: fc.constantFrom(...ESCAPES), key: fc.constantFrom('rest_route', 'rest.route', 'rest[route', 'rest_route[]', '_method'), other: fc.constantFrom(...OTHER_ROUTES), where: fc.constantFrom('query', 'form', 'json', 'batch') })
    .chain((f) =>
      restRequest(like[f.i]!).map((r): FuzzRequest => {
        const url = r.url.replace(`/${forwarded.like}`, `/${forwarded.name}`).replace(encodeURIComponent(`/${forwarded.like}`), encodeURIComponent(`/${forwarded.name}`));
        const q = url.indexOf('?');
        const path = (q < 0 ? url : url.slice(0, q)) + (url.includes('rest_route=') ? '' : f.escape);
        const named = `${enc(f.key).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${enc(f.other)}`;
        const query = q < 0 ? '' : url.slice(q + 1);
        if (f.where === 'query') return { ...r, url: `${path}?${[query, named].filter(Boolean).join('&')}` };
        if (f.where === 'form') return { ...r, method: 'POST', url: `${path}${query ? `?${query}` : ''}`, headers: { ...r.headers, 'content-type': 'application/x-www-form-urlencoded' }, payload: named };
        if (f.where === 'json') return { ...r, method: 'POST', url: `${path}${query ? `?${query}` : ''}`, headers: { ...r.headers, 'content-type': 'application/json' }, payload: JSON.stringify({ [f.key]: f.other }) };
        const item = { method: 'POST', path: `/${forwarded.name}${f.escape}?${named}`, body: { [f.key]: f.other } };
        return { method: 'POST', url: '/wp-json/batch/v1', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ requests: [item] }), caller: r.caller };
      }),
    );
}

/** Every request the suite sends: most to declared routes (each route equally likely), some to batch, the site and a forwarded namespace. */
export function fuzzRequests(table: RouteTable, forwarded?: { name: string; like: string }): fc.Arbitrary<FuzzRequest> {
  const routes = table.routes;
  const writeRoutes = routes.filter((r) => r.endpoints.some((e) => e.endpoint.allowBatch));
  const rest = fc.integer({ min: 0, max: routes.length - 1 }).chain((i) => restRequest(routes[i]!));
  return fc.oneof(
    { weight: 16, arbitrary: rest },
    { weight: 2, arbitrary: batchRequest(writeRoutes.length ? writeRoutes : routes) },
    { weight: 2, arbitrary: siteRequest() },
    ...(forwarded ? [{ weight: 2, arbitrary: forwardedRequest(routes, forwarded) }] : []),
  );
}
