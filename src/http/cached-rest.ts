/**
 * Which REST requests the response cache answers, and how: anonymous GET and HEAD requests (no
 * credentials, no method override) to a namespace whose public answers read known change-feed
 * topics. A hit skips the whole pipeline; every cacheable 200 carries a strong ETag, and a request
 * whose If-None-Match names it gets 304 without a body.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Params } from '../lib/php-params.ts';
import type { RestLocation } from './rest-request.ts';
import { matchesEtag, type CachedAnswer, type ResponseCache } from './response-cache.ts';
import type { RestAnswer } from './shape.ts';

export interface CachePlan {
  key: string;
  topics: readonly string[];
}

/** The topics a route's public answers read, by namespace name (aliases included); undefined: not cached. */
export type TopicsOf = (route: string) => readonly string[] | undefined;

export function topicsByNamespace(topics: Record<string, readonly string[]>, aliases: Record<string, readonly string[]>): TopicsOf {
  const names = Object.entries(topics)
    .flatMap(([ns, t]) => [ns, ...(aliases[ns] ?? [])].map((name) => ({ prefix: name ? `/${name.toLowerCase()}` : '', topics: t })))
    .sort((a, b) => b.prefix.length - a.prefix.length);
  return (route) => {
    const r = route.toLowerCase().replace(/\/+$/, '');
    return names.find((n) => (n.prefix === '' ? r === '' : r === n.prefix || r.startsWith(`${n.prefix}/`)))?.topics;
  };
}

/**
 * Whether a request may be answered from the cache, by its method and headers: the rest of the
 * conditions are in its URL (the key), so an entry is only ever kept for URLs that meet them.
 */
export function mayUseCache(method: string | undefined, headers: IncomingHttpHeaders): boolean {
  // A body's parameters (JSON ones, `_fields` too) change the answer, and the key is the URL alone.
  const body = (headers['content-length'] !== undefined && headers['content-length'] !== '0') || headers['transfer-encoding'] !== undefined;
  return (method === 'GET' || method === 'HEAD') && headers.authorization === undefined && headers['x-http-method-override'] === undefined && !body;
}

/** The answer's CORS headers echo the Origin: it is part of the key. */
export function cacheKey(url: string, headers: IncomingHttpHeaders): string {
  const origin = headers.origin;
  return `${url}\n${typeof origin === 'string' ? origin : ''}`;
}

export function cachePlan(req: FastifyRequest, loc: RestLocation, query: Params, topicsOf: TopicsOf): CachePlan | null {
  if (!mayUseCache(req.method, req.headers) || query._method !== undefined) return null;
  const topics = topicsOf(loc.route);
  return topics ? { key: cacheKey(req.url, req.headers), topics } : null;
}

export async function cachedAnswer(cache: ResponseCache, plan: CachePlan, req: FastifyRequest, compute: () => Promise<RestAnswer>): Promise<RestAnswer> {
  const kept = cache.get(plan.key);
  if (kept) return fromCache(kept, 'hit', req.method, req.headers);
  const version = cache.versionNow(plan.topics);
  const answer = await compute();
  // Only whole JSON answers: errors, HEAD (no body) and streamed bodies are not kept.
  if (answer.status !== 200 || version === null || req.method === 'HEAD' || !(typeof answer.body === 'string' || Buffer.isBuffer(answer.body))) {
    return { ...answer, headers: { ...answer.headers, 'X-Lintel-Cache': 'miss' } };
  }
  const entry = cache.put(plan.key, version, plan.topics, { status: answer.status, headers: answer.headers, body: typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body, route: answer.route });
  return fromCache(entry, 'miss', req.method, req.headers);
}

/** A kept answer as sent: with its ETag; 304 without a body when If-None-Match names it; no body to HEAD. */
export function fromCache(entry: CachedAnswer, state: 'hit' | 'miss', method: string, headers: IncomingHttpHeaders): RestAnswer {
  const sent = { ...entry.headers, ETag: entry.etag, 'X-Lintel-Cache': state };
  const ifNoneMatch = headers['if-none-match'];
  if (matchesEtag(typeof ifNoneMatch === 'string' ? ifNoneMatch : undefined, entry.etag)) return { status: 304, headers: sent, body: null, route: entry.route };
  return { status: entry.status, headers: sent, body: method === 'HEAD' ? null : entry.body, route: entry.route };
}
