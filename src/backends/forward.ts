/**
 * The forward backend: the call goes to the legacy origin (`LINTEL_LEGACY_ORIGIN`) with its method,
 * path, query, body and the headers that matter (Authorization included: authentication on a
 * forwarded route is the origin's business), and the origin's answer is streamed back. JSON
 * answers of a renamed namespace are read whole to rewrite addresses and names (`rename.ts`).
 *
 * The body was already read by the server (the REST pipeline needs it whole), so undici sends the
 * buffer over a keep-alive pool (a proxy library would pipe the incoming stream).
 * The origin is operator-configured, so it may be on loopback or a private network; the SSRF guard
 * of `src/upstream/` is for URLs clients send, not for this.
 */
import { Agent, errors as undiciErrors, request, type Dispatcher } from 'undici';
import { errors } from '../contract/error-codes.ts';
import { RestError } from '../contract/errors.ts';
import { parseQueryString } from '../lib/php-params.ts';
import { locateRest, type RestPrefixes } from '../http/rest-request.ts';
import { headerOf, type Backend, type BackendAnswer, type BackendCall } from './backend.ts';
import { confinedBody, withoutRestRoute } from './confine.ts';
import { mentionsOrigin, rewriteJson, rewriteLinkHeader, toLintelUrl, toUpstreamPath, toUpstreamQuery, type Renaming, type Rewriter, climbsOut } from './rename.ts';

/** The connection pool to the legacy origin, shared by every forwarded request. */
export interface Origin {
  base: string;
  dispatcher: Dispatcher;
  timeoutMs: number;
  /** The largest JSON answer read whole (to be rewritten); a larger one is answered 502. */
  jsonLimit: number;
  close(): Promise<void>;
}

export function openOrigin(base: string, timeoutMs: number, jsonLimit: number, dispatcher?: Dispatcher): Origin {
  const d = dispatcher ?? new Agent({ keepAliveTimeout: 30_000, connections: 128, connect: { timeout: timeoutMs } });
  return { base: base.replace(/\/+$/, ''), dispatcher: d, timeoutMs, jsonLimit, close: () => d.close() };
}

export interface ForwardOptions {
  /** null: no origin configured; every call is answered with `rest_upstream_unavailable`. */
  origin: Origin | null;
  lintelBase: string;
  renamings: Renaming[];
  /** Where REST routes are (REST namespaces); a `?rest_route=` Lintel routed by is kept, renamed. Site requests: none. */
  rest?: RestPrefixes;
  /** `LINTEL_TRUST_PROXY`: the client's `X-Forwarded-For` and `Forwarded` come from a proxy Lintel trusts, and are extended. */
  trustProxy?: boolean;
  /** REST answers: JSON bodies are rewritten (so they are asked for uncompressed). Site pages pass as they are. */
  rewriteBodies: boolean;
  /** How a failure is answered: the REST error body, or the site's error page. */
  failure: (e: RestError) => BackendAnswer;
}

// RFC 9110 §7.6.1: meaningful for one connection only, never forwarded.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function hopByHop(headers: Record<string, string | string[] | undefined>): Set<string> {
  const named = headers.connection ?? headers.Connection;
  const extra = (Array.isArray(named) ? named.join(',') : (named ?? '')).split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  return new Set([...HOP_BY_HOP, ...extra]);
}

/** Headers that say who the client is: the origin trusts them, so only Lintel sets them (or a trusted proxy before it). */
const IDENTITY = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-real-ip', 'forwarded'];

function outgoingHeaders(call: BackendCall, opts: ForwardOptions): Record<string, string | string[]> {
  const drop = hopByHop(call.headers);
  // Host is the origin's (undici sets it); the length is the buffer's.
  for (const h of ['host', 'content-length', ...IDENTITY]) drop.add(h);
  if (opts.rewriteBodies) drop.add('accept-encoding');
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(call.headers)) if (v !== undefined && !drop.has(k.toLowerCase())) out[k] = v;
  // Behind a trusted proxy the chain it built is extended (and its Forwarded kept); otherwise the client's claims are dropped.
  const prior = opts.trustProxy ? headerOf(call.headers, 'x-forwarded-for') : undefined;
  const forwarded = opts.trustProxy ? headerOf(call.headers, 'forwarded') : undefined;
  if (forwarded) out.forwarded = forwarded;
  out['x-forwarded-for'] = prior ? `${prior}, ${call.client.ip}` : call.client.ip;
  out['x-forwarded-proto'] = call.client.protocol;
  out['x-forwarded-host'] = call.client.host;
  out['x-real-ip'] = call.client.ip;
  out['x-request-id'] = call.requestId;
  return out;
}

function isTimeout(e: unknown): boolean {
  return e instanceof undiciErrors.HeadersTimeoutError || e instanceof undiciErrors.ConnectTimeoutError || e instanceof undiciErrors.BodyTimeoutError;
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/i;

export function forwardBackend(opts: ForwardOptions): Backend {
  const { origin } = opts;
  const rw: Rewriter | null = origin ? { originBase: origin.base, lintelBase: opts.lintelBase, renamings: opts.renamings } : null;
  return async (call, signal) => {
    if (!origin || !rw) return opts.failure(errors.legacy.notConfigured());
    if (climbsOut(call.path)) return opts.failure(errors.core.noRoute());
    const body = confinedBody(call);
    if (body instanceof RestError) return opts.failure(body);
    const query = upstreamQuery(call, opts, rw);
    const url = origin.base + toUpstreamPath(call.path, opts.renamings) + (query ? `?${query}` : '');
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: call.method as Dispatcher.HttpMethod,
        headers: outgoingHeaders(call, opts),
        body: body && body.length > 0 ? body : undefined,
        dispatcher: origin.dispatcher,
        headersTimeout: origin.timeoutMs,
        bodyTimeout: origin.timeoutMs,
        // The client left: the origin's connection is closed, its answer no longer read.
        signal,
      });
    } catch (e) {
      if (signal.aborted) return opts.failure(errors.legacy.unavailable());
      const timedOut = isTimeout(e);
      call.log.error({ err: e, origin: origin.base, requestId: call.requestId }, timedOut ? 'legacy origin timed out' : 'legacy origin unreachable');
      return opts.failure(timedOut ? errors.legacy.timeout(origin.timeoutMs) : errors.legacy.unavailable());
    }
    const headers = incomingHeaders(res.headers, rw);
    const type = String(res.headers['content-type'] ?? '');
    if (call.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304) {
      await res.body.dump().catch(() => undefined);
      return { status: res.statusCode, headers, body: null };
    }
    if (!opts.rewriteBodies || !JSON_TYPE.test(type)) return { status: res.statusCode, headers, body: res.body };
    let raw: Buffer;
    try {
      raw = await readCapped(res, origin.jsonLimit);
    } catch (e) {
      if (e instanceof RestError) {
        call.log.error({ origin: origin.base, requestId: call.requestId, limit: origin.jsonLimit }, 'legacy origin answer too large');
        return opts.failure(e);
      }
      if (!signal.aborted) call.log.error({ err: e, origin: origin.base, requestId: call.requestId }, 'legacy origin answer broke off');
      return opts.failure(isTimeout(e) ? errors.legacy.timeout(origin.timeoutMs) : errors.legacy.unavailable());
    }
    delete headers['content-length'];
    return { status: res.statusCode, headers, body: rewriteBody(raw, rw) };
  };
}

/** A JSON answer read whole, up to `limit` bytes: past it (announced or counted), the origin's answer is dropped and 502 given. */
async function readCapped(res: Dispatcher.ResponseData, limit: number): Promise<Buffer> {
  if (Number(res.headers['content-length'] ?? 0) > limit) {
    res.body.destroy();
    throw errors.legacy.tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.length;
    if (size > limit) {
      res.body.destroy();
      throw errors.legacy.tooLarge(limit);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * The origin's query string: no parameter that names a route (see confine.ts), except the
 * `?rest_route=` Lintel itself routed by, renamed and alone. A `rest_route` naming a route outside
 * the forwarded namespace is dropped even so: a batch item routes by its path, and its query's
 * `rest_route` would otherwise send the origin to another route.
 */
function upstreamQuery(call: BackendCall, opts: ForwardOptions, rw: Rewriter): string {
  // Lintel's own addresses in the query (oEmbed's `url=`) name the origin's records on the origin.
  const rest = toUpstreamQuery(withoutRestRoute(call.query), opts.renamings, rw);
  const loc = opts.rest ? locateRest(call.path, parseQueryString(call.query), opts.rest) : null;
  if (!loc?.byQuery || !inForwardedNamespace(loc.route, opts.renamings)) return rest;
  const routed = `rest_route=${encodeURIComponent(toUpstreamPath(loc.route, opts.renamings)).replace(/%2F/gi, '/')}`;
  return rest ? `${routed}&${rest}` : routed;
}

/** Whether a route lies in a namespace the backend forwards (a backend of no namespace forwards any). */
function inForwardedNamespace(route: string, renamings: Renaming[]): boolean {
  const r = route.toLowerCase();
  return renamings.length === 0 || renamings.some(({ requested }) => r === `/${requested.toLowerCase()}` || r.startsWith(`/${requested.toLowerCase()}/`));
}

/** The JSON body with Lintel's addresses and names; a body that names neither (or is not JSON) is passed as it is. */
function rewriteBody(raw: Buffer, rw: Rewriter): Buffer {
  const text = raw.toString('utf8');
  if (!mentionsOrigin(text, rw)) return raw;
  try {
    return Buffer.from(JSON.stringify(rewriteJson(JSON.parse(text), rw)));
  } catch {
    return raw;
  }
}

function incomingHeaders(h: Record<string, string | string[] | undefined>, rw: Rewriter): Record<string, string | string[]> {
  const drop = hopByHop(h);
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined || drop.has(k)) continue;
    if (k === 'link') out[k] = Array.isArray(v) ? v.map((x) => rewriteLinkHeader(x, rw)) : rewriteLinkHeader(v, rw);
    else if (k === 'location' || k === 'content-location') out[k] = toLintelUrl(Array.isArray(v) ? v[0] : v, rw);
    else out[k] = v;
  }
  return out;
}
