/**
 * Outbound HTTP for URLs that clients send (oEmbed proxy), guarded against server-side request
 * forgery: http(s) only; the host is resolved and every address must be public (unless the host is
 * on the configured allow-list); the connection is pinned to the address that was checked, so a
 * second DNS answer cannot swap it; each redirect is checked again; redirects, size and time are
 * capped. Every refusal is a RestError with a 4xx status, never a hang.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import { errors } from '../contract/error-codes.ts';
import { RestError } from '../contract/errors.ts';
import type { Config } from '../config.ts';
import { isPublicAddress } from './address.ts';

export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface UpstreamOptions {
  /** Hosts that may resolve to non-public addresses (a local test or intranet provider). */
  allow: readonly string[];
  timeoutMs: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** DNS resolution (tests replace it). */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
  /** Tests replace the pinned connection with undici's MockAgent. */
  dispatcher?: (pinned: ResolvedAddress) => Dispatcher;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

export interface FetchInit {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A request body (POST); such requests do not follow redirects. */
  body?: string;
}

export type Fetcher = (url: string, init?: FetchInit) => Promise<UpstreamResponse>;

/** A response whose body is read as it arrives (streaming proxies). */
export interface UpstreamStream {
  status: number;
  headers: Record<string, string>;
  body: Dispatcher.ResponseData['body'];
}

/** Opens a request and answers once the headers are in; `signal` (the client going away) cancels it. */
export type StreamOpener = (url: string, init: FetchInit & { signal: AbortSignal }) => Promise<UpstreamStream>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

async function systemResolve(host: string): Promise<ResolvedAddress[]> {
  return dnsLookup(host, { all: true, verbatim: true });
}

/** The configured fetcher: `LINTEL_UPSTREAM_ALLOW`, `LINTEL_UPSTREAM_TIMEOUT_MS`. */
export function upstreamFetcher(config: Pick<Config, 'upstreamAllow' | 'upstreamTimeoutMs'>, over: Partial<UpstreamOptions> = {}): Fetcher {
  return guardedFetcher({ allow: config.upstreamAllow, timeoutMs: config.upstreamTimeoutMs, ...over });
}

/** Resolves the host and returns the address to connect to, or refuses. */
function addressChecker(opts: UpstreamOptions): (url: URL) => Promise<ResolvedAddress> {
  const resolve = opts.resolve ?? systemResolve;
  const allow = new Set(opts.allow.map((h) => h.toLowerCase()));
  return async function check(url: URL): Promise<ResolvedAddress> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw errors.upstream.scheme();
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: ResolvedAddress[];
    if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
    else {
      try {
        addresses = await resolve(host);
      } catch {
        throw errors.upstream.unresolved(host);
      }
      if (addresses.length === 0) throw errors.upstream.unresolved(host);
    }
    // Every address must pass: a name with one private answer could be steered to it.
    if (!allow.has(host.toLowerCase()) && !addresses.every((a) => isPublicAddress(a.address))) throw errors.upstream.forbidden(host);
    return addresses[0];
  };
}

function parseTarget(target: string): URL {
  try {
    return new URL(target);
  } catch {
    throw errors.upstream.scheme();
  }
}

export function guardedFetcher(opts: UpstreamOptions): Fetcher {
  const maxBytes = opts.maxBytes ?? 512 * 1024;
  const maxRedirects = opts.maxRedirects ?? 3;
  const check = addressChecker(opts);

  return async (target, init = {}) => {
    const signal = AbortSignal.timeout(opts.timeoutMs);
    let url = parseTarget(target);
    for (let hop = 0; ; hop++) {
      const pinned = await withDeadline(check(url), signal, opts.timeoutMs);
      const dispatcher = opts.dispatcher ? opts.dispatcher(pinned) : pinnedAgent(pinned, opts.timeoutMs);
      try {
        const res = await request(url, { method: init.method ?? 'GET', headers: init.headers, body: init.body, dispatcher, signal }).catch((e: unknown) => {
          throw signal.aborted ? errors.upstream.timeout(opts.timeoutMs) : e instanceof RestError ? e : errors.upstream.unreachable(url.hostname);
        });
        const location = res.headers.location;
        if (REDIRECTS.has(res.statusCode) && typeof location === 'string' && init.body === undefined) {
          await res.body.dump().catch(() => undefined);
          if (hop >= maxRedirects) throw errors.upstream.redirects(maxRedirects);
          const next = new URL(location, url);
          // Credentials are for the host they were given for: never sent on to another origin.
          if (next.origin !== url.origin && init.headers) init = { ...init, headers: withoutCredentials(init.headers) };
          url = next;
          continue;
        }
        const body = await readCapped(res.body, maxBytes, signal, opts.timeoutMs);
        return { status: res.statusCode, headers: flatHeaders(res.headers), body, url: url.href };
      } finally {
        if (!opts.dispatcher) void dispatcher.close().catch(() => undefined);
      }
    }
  };
}

/**
 * The guarded streaming request: the same address checks and pinning, no redirects; the time limit
 * applies to the headers and to each pause between body chunks, not to the whole stream.
 */
function guardedStream(opts: UpstreamOptions): StreamOpener {
  const check = addressChecker(opts);
  return async (target, init) => {
    const url = parseTarget(target);
    const headersDeadline = AbortSignal.timeout(opts.timeoutMs);
    const pinned = await withDeadline(check(url), headersDeadline, opts.timeoutMs);
    const dispatcher = opts.dispatcher ? opts.dispatcher(pinned) : pinnedAgent(pinned, opts.timeoutMs);
    const closeAgent = () => {
      if (!opts.dispatcher) void dispatcher.close().catch(() => undefined);
    };
    try {
      const res = await request(url, { method: init.method ?? 'GET', headers: init.headers, body: init.body, dispatcher, signal: init.signal });
      res.body.once('close', closeAgent);
      return { status: res.statusCode, headers: flatHeaders(res.headers), body: res.body };
    } catch (e) {
      closeAgent();
      if (e instanceof RestError) throw e;
      throw e instanceof Error && e.name === 'HeadersTimeoutError' ? errors.upstream.timeout(opts.timeoutMs) : errors.upstream.unreachable(url.hostname);
    }
  };
}

/** The configured streaming request: `LINTEL_UPSTREAM_ALLOW`, `LINTEL_UPSTREAM_TIMEOUT_MS`. */
export function upstreamStream(config: Pick<Config, 'upstreamAllow' | 'upstreamTimeoutMs'>, over: Partial<UpstreamOptions> = {}): StreamOpener {
  return guardedStream({ allow: config.upstreamAllow, timeoutMs: config.upstreamTimeoutMs, ...over });
}

/** A one-request agent whose every connection goes to the checked address, whatever DNS says now. */
function pinnedAgent(pinned: ResolvedAddress, timeoutMs: number): Agent {
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  return new Agent({ connect: { lookup, timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
}

async function readCapped(body: Dispatcher.ResponseData['body'], max: number, signal: AbortSignal, timeoutMs: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      // Leaving the loop by throwing ends the stream.
      if (size > max) throw errors.upstream.tooLarge(max);
      chunks.push(chunk as Buffer);
    }
  } catch (e) {
    if (e instanceof RestError) throw e;
    throw signal.aborted ? errors.upstream.timeout(timeoutMs) : e;
  }
  return Buffer.concat(chunks);
}

/** A slow DNS answer counts against the same time limit. */
function withDeadline<T>(p: Promise<T>, signal: AbortSignal, timeoutMs: number): Promise<T> {
  if (signal.aborted) return Promise.reject(errors.upstream.timeout(timeoutMs));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(errors.upstream.timeout(timeoutMs));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !['authorization', 'cookie', 'proxy-authorization'].includes(k.toLowerCase())));
}
