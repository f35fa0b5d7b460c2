/**
 * Step 0 of the pipeline: a response-cache hit answered on the bare `node:http` request, before
 * Fastify routes it and builds its request and reply. A hit needs only the method, the URL and a
 * few headers (cached-rest.ts keeps entries only for URLs whose requests may use them), so it
 * costs about what a bare server's answer costs; everything else goes on to Fastify, which answers
 * a hit the same way (tested side by side). What a hit sends is built once per entry (the three
 * answers an entry gives: GET, HEAD, 304); a request adds only its id.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HitLog } from './access-log.ts';
import { cacheKey, fromCache, mayUseCache } from './cached-rest.ts';
import type { Metrics } from './metrics.ts';
import { matchesEtag, type CachedAnswer, type ResponseCache } from './response-cache.ts';

export interface CacheFrontOptions {
  cache: ResponseCache;
  metrics: Metrics;
  log: HitLog;
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

/** One of an entry's answers: its headers (a flat name, value list) around the request's id. */
interface Sent {
  status: number;
  before: string[];
  after: string[];
  body: Buffer | null;
}

interface Prepared {
  get: Sent;
  head: Sent;
  notModified: Sent;
}

export function cacheFront(o: CacheFrontOptions): CacheFront {
  let open = true;
  const prepared = new WeakMap<CachedAnswer, Prepared>();
  const sent = (entry: CachedAnswer, method: string, ifNoneMatch?: string): Sent => {
    const a = fromCache(entry, 'hit', method, ifNoneMatch === undefined ? {} : { 'if-none-match': ifNoneMatch });
    const flat = (h: Record<string, string | number>) => Object.entries(h).flatMap(([k, v]) => [k, String(v)]);
    const after: Record<string, string | number> = {};
    if (!Object.keys(a.headers).some((k) => k.toLowerCase() === 'link')) after.Link = o.discovery;
    if (a.body) after['Content-Length'] = entry.body.length;
    return { status: a.status, before: flat(a.headers), after: flat(after), body: a.body === null ? null : entry.body };
  };
  const prepare = (entry: CachedAnswer): Prepared => {
    let p = prepared.get(entry);
    if (!p) prepared.set(entry, (p = { get: sent(entry, 'GET'), head: sent(entry, 'HEAD'), notModified: sent(entry, 'GET', entry.etag) }));
    return p;
  };
  const answer = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!open || !mayUseCache(req.method, req.headers)) return false;
    const started = performance.now();
    const entry = o.cache.get(cacheKey(req.url ?? '/', req.headers));
    if (!entry) return false;
    const method = req.method!;
    const p = prepare(entry);
    const ifNoneMatch = req.headers['if-none-match'];
    const s = matchesEtag(typeof ifNoneMatch === 'string' ? ifNoneMatch : undefined, entry.etag) ? p.notModified : method === 'HEAD' ? p.head : p.get;
    const id = o.requestId(req);
    res.writeHead(s.status, s.before.concat('X-Request-Id', id, s.after));
    res.end(s.body ?? undefined);
    const seconds = (performance.now() - started) / 1000;
    o.metrics.cacheLookup(true);
    o.metrics.observe(entry.route, method, s.status, seconds);
    o.log(id, method, req.url!, s.status, seconds * 1000);
    return true;
  };
  return { answer, close: () => void (open = false) };
}
