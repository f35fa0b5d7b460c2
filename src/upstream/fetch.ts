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

export type Fetcher = (url: string, init?: { headers?: Record<string, string> }) => Promise<UpstreamResponse>;

export const upstreamErrors = {
  scheme: () => new RestError('upstream_invalid_url', 'Only http and https URLs can be fetched.', 400),
  unresolved: (host: string) => new RestError('upstream_unresolved', `The host ${host} could not be resolved.`, 400),
  forbidden: (host: string) => new RestError('upstream_forbidden_address', `The host ${host} resolves to an address that may not be fetched.`, 403),
  redirects: (max: number) => new RestError('upstream_too_many_redirects', `The remote site redirected more than ${max} times.`, 400),
  tooLarge: (max: number) => new RestError('upstream_too_large', `The remote response is larger than ${max} bytes.`, 400),
  timeout: (ms: number) => new RestError('upstream_timeout', `The remote site did not answer within ${ms} ms.`, 408),
  unreachable: (host: string) => new RestError('upstream_unreachable', `The host ${host} could not be reached.`, 400),
} as const;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

async function systemResolve(host: string): Promise<ResolvedAddress[]> {
  return dnsLookup(host, { all: true, verbatim: true });
}

/** The configured fetcher: `LINTEL_UPSTREAM_ALLOW`, `LINTEL_UPSTREAM_TIMEOUT_MS`. */
export function upstreamFetcher(config: Pick<Config, 'upstreamAllow' | 'upstreamTimeoutMs'>, over: Partial<UpstreamOptions> = {}): Fetcher {
  return guardedFetcher({ allow: config.upstreamAllow, timeoutMs: config.upstreamTimeoutMs, ...over });
}

export function guardedFetcher(opts: UpstreamOptions): Fetcher {
  const maxBytes = opts.maxBytes ?? 512 * 1024;
  const maxRedirects = opts.maxRedirects ?? 3;
  const resolve = opts.resolve ?? systemResolve;
  const allow = new Set(opts.allow.map((h) => h.toLowerCase()));

  /** Resolves the host and returns the address to connect to, or refuses. */
  async function check(url: URL): Promise<ResolvedAddress> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw upstreamErrors.scheme();
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: ResolvedAddress[];
    if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
    else {
      try {
        addresses = await resolve(host);
      } catch {
        throw upstreamErrors.unresolved(host);
      }
      if (addresses.length === 0) throw upstreamErrors.unresolved(host);
    }
    // Every address must pass: a name with one private answer could be steered to it.
    if (!allow.has(host.toLowerCase()) && !addresses.every((a) => isPublicAddress(a.address))) throw upstreamErrors.forbidden(host);
    return addresses[0];
  }

  return async (target, init = {}) => {
    const signal = AbortSignal.timeout(opts.timeoutMs);
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw upstreamErrors.scheme();
    }
    for (let hop = 0; ; hop++) {
      const pinned = await withDeadline(check(url), signal, opts.timeoutMs);
      const dispatcher = opts.dispatcher ? opts.dispatcher(pinned) : pinnedAgent(pinned, opts.timeoutMs);
      try {
        const res = await request(url, { method: 'GET', headers: init.headers, dispatcher, signal }).catch((e: unknown) => {
          throw signal.aborted ? upstreamErrors.timeout(opts.timeoutMs) : e instanceof RestError ? e : upstreamErrors.unreachable(url.hostname);
        });
        const location = res.headers.location;
        if (REDIRECTS.has(res.statusCode) && typeof location === 'string') {
          await res.body.dump().catch(() => undefined);
          if (hop >= maxRedirects) throw upstreamErrors.redirects(maxRedirects);
          url = new URL(location, url);
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
      if (size > max) throw upstreamErrors.tooLarge(max);
      chunks.push(chunk as Buffer);
    }
  } catch (e) {
    if (e instanceof RestError) throw e;
    throw signal.aborted ? upstreamErrors.timeout(timeoutMs) : e;
  }
  return Buffer.concat(chunks);
}

/** A slow DNS answer counts against the same time limit. */
function withDeadline<T>(p: Promise<T>, signal: AbortSignal, timeoutMs: number): Promise<T> {
  if (signal.aborted) return Promise.reject(upstreamErrors.timeout(timeoutMs));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(upstreamErrors.timeout(timeoutMs));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
