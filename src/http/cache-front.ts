/**
 * Step 0 of the pipeline: a response-cache hit answered on the bare `node:http` request, before
 * Fastify routes it and builds its request and reply. A hit needs only the method, the URL and a
 * few headers (cached-rest.ts keeps entries only for URLs whose requests may use them), so it
 * costs about what a bare server's answer costs; everything else goes on to Fastify, which answers
 * a hit the same way (tested side by side).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { cacheKey, fromCache, mayUseCache } from './cached-rest.ts';
import type { Metrics } from './metrics.ts';
import type { ResponseCache } from './response-cache.ts';

export interface CacheFrontOptions {
  cache: ResponseCache;
  metrics: Metrics;
  log: FastifyBaseLogger;
  /** The request's id, as Fastify would give it (X-Request-Id). */
  requestId(req: IncomingMessage): string;
  /** The discovery `Link` header every answer without a Link of its own carries. */
  discovery: string;
}

export interface CacheFront {
  /** Answers a hit and says true, or leaves the request alone and says false. */
  answer(req: IncomingMessage, res: ServerResponse): boolean;
  /** From now on every request goes to Fastify (which answers 503 while it closes). */
  close(): void;
}

export function cacheFront(o: CacheFrontOptions): CacheFront {
  let open = true;
  const answer = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!open || !mayUseCache(req.method, req.headers)) return false;
    const started = performance.now();
    const entry = o.cache.get(cacheKey(req.url ?? '/', req.headers));
    if (!entry) return false;
    const method = req.method!;
    const a = fromCache(entry, 'hit', method, req.headers);
    const id = o.requestId(req);
    const headers: Record<string, string | number> = { ...a.headers, 'X-Request-Id': id };
    if (!Object.keys(a.headers).some((k) => k.toLowerCase() === 'link')) headers.Link = o.discovery;
    if (a.body) headers['Content-Length'] = entry.body.length;
    res.writeHead(a.status, headers);
    res.end(a.body ?? undefined);
    const seconds = (performance.now() - started) / 1000;
    o.metrics.cacheLookup(true);
    o.metrics.observe(entry.route, method, a.status, seconds);
    o.log.info({ reqId: id, req: { method, url: req.url }, res: { statusCode: a.status }, responseTime: seconds * 1000, cache: 'hit' }, 'request completed');
    return true;
  };
  return { answer, close: () => void (open = false) };
}
