/**
 * Which REST requests the response cache answers, and how: anonymous GET and HEAD requests (no
 * credentials, no method override) to a namespace whose public answers read known change-feed
 * topics. A hit skips the whole pipeline; every cacheable 200 carries a strong ETag, and a request
 * whose If-None-Match names it gets 304 without a body.
 */
import type { FastifyRequest } from 'fastify';
import type { Params } from '../contract/php-params.ts';
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

export function cachePlan(req: FastifyRequest, loc: RestLocation, query: Params, topicsOf: TopicsOf): CachePlan | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  if (req.headers.authorization !== undefined || req.headers['x-http-method-override'] !== undefined || query._method !== undefined) return null;
  const topics = topicsOf(loc.route);
  if (!topics) return null;
  // The answer's CORS headers echo the Origin: it is part of the key.
  const origin = req.headers.origin;
  return { key: `${req.url}\n${typeof origin === 'string' ? origin : ''}`, topics };
}

export async function cachedAnswer(cache: ResponseCache, plan: CachePlan, req: FastifyRequest, compute: () => Promise<RestAnswer>): Promise<RestAnswer> {
  let entry: CachedAnswer | undefined = cache.get(plan.key, plan.topics);
  const state = entry ? 'hit' : 'miss';
  if (!entry) {
    const version = cache.versionNow(plan.topics);
    const answer = await compute();
    // Only whole JSON answers: errors, HEAD (no body) and streamed bodies are not kept.
    if (answer.status !== 200 || version === null || req.method === 'HEAD' || typeof answer.body !== 'string') {
      return { ...answer, headers: { ...answer.headers, 'X-Lintel-Cache': 'miss' } };
    }
    entry = cache.put(plan.key, version, { status: answer.status, headers: answer.headers, body: Buffer.from(answer.body), route: answer.route });
  }
  const headers = { ...entry.headers, ETag: entry.etag, 'X-Lintel-Cache': state };
  const ifNoneMatch = req.headers['if-none-match'];
  if (matchesEtag(typeof ifNoneMatch === 'string' ? ifNoneMatch : undefined, entry.etag)) return { status: 304, headers, body: null, route: entry.route };
  return { status: entry.status, headers, body: req.method === 'HEAD' ? null : entry.body, route: entry.route };
}
