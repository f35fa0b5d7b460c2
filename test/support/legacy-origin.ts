/**
 * A recorded legacy origin for tests: a small HTTP server that answers from `fixtures/captures/`
 * under the legacy site's own namespace names (`simple-history/v1`, not the contract's `history/v1`).
 * A request matches a capture by method, path and query (parameter order ignored) and whether it
 * carries credentials; when several captures match (the same list before and after writes), the
 * one with the same body wins, else they are served in recorded order, the last one repeating.
 * The site index `/wp-json/` is the recorded index (042). The recorded site's address in headers
 * and bodies is replaced by this server's, as a live origin would name itself.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { toUpstreamPath, toUpstreamQuery, type Renaming } from '../../src/backends/rename.ts';
import { loadCaptures, ORACLE_BASE, type Capture } from './captures.ts';

/** The legacy site's names for namespaces the contract renamed. */
export const LEGACY_NAMES: Renaming[] = [
  { requested: 'history/v1', upstream: 'simple-history/v1' },
  { requested: 'calendar/events/v1', upstream: 'tribe/events/v1' },
];

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status the origin answered with, once it has. */
  answered?: number;
}

export interface LegacyOrigin {
  url: string;
  /** Every request received, in order. */
  received: ReceivedRequest[];
  /** Answers start after this many milliseconds (a slow origin). */
  delayMs: number;
  /** Starts the recorded order of every route again. */
  reset(): void;
  close(): Promise<void>;
}

// Belong to the recorded exchange, not to the answer.
const SKIPPED = new Set(['host', 'connection', 'date', 'content-length', 'transfer-encoding', 'keep-alive']);

function queryKey(query: string): string {
  return [...new URLSearchParams(query)].map(([k, v]) => `${k}=${v}`).sort().join('&');
}

function requestBody(c: Capture): unknown {
  const r = c.request;
  if (r.body === null || r.body === undefined) return undefined;
  return r.body_encoding === 'form' ? Object.fromEntries(Object.entries(r.body as Record<string, unknown>).map(([k, v]) => [k, String(v)])) : r.body;
}

function sentBody(raw: string, contentType: string | undefined): unknown {
  if (raw === '') return undefined;
  if (/json/i.test(contentType ?? '')) {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  if (/x-www-form-urlencoded/i.test(contentType ?? '')) return Object.fromEntries(new URLSearchParams(raw));
  return raw;
}

export async function startLegacyOrigin(
  opts: { captures?: Capture[]; names?: Renaming[]; delayMs?: number; /** Answer as slowly as the legacy site did (`elapsed_s`). */ recordedTiming?: boolean } = {},
): Promise<LegacyOrigin> {
  const names = opts.names ?? LEGACY_NAMES;
  const byKey = new Map<string, Capture[]>();
  for (const c of opts.captures ?? loadCaptures()) {
    const r = c.request;
    const key = `${r.method} ${toUpstreamPath(r.path, names)}?${queryKey(toUpstreamQuery(r.query_string, names))} ${r.auth}`;
    byKey.set(key, [...(byKey.get(key) ?? []), c]);
  }
  const served = new Map<string, number>();
  let self = '';

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const received: ReceivedRequest = { method: req.method!, url: req.url!, headers: req.headers, body: raw };
      origin.received.push(received);
      const q = req.url!.indexOf('?');
      const path = q < 0 ? req.url! : req.url!.slice(0, q);
      // HEAD is answered as GET without the body, as the legacy web server does.
      const key = `${req.method === 'HEAD' ? 'GET' : req.method} ${path}?${queryKey(q < 0 ? '' : req.url!.slice(q + 1))} ${req.headers.authorization !== undefined}`;
      const candidates = byKey.get(key) ?? [];
      const body = sentBody(raw, req.headers['content-type']);
      const sameBody = candidates.filter((c) => isDeepStrictEqual(requestBody(c), body));
      const pool = sameBody.length > 0 ? sameBody : candidates;
      const cursor = `${key} ${pool.map((c) => c.seq).join(',')}`;
      const n = served.get(cursor) ?? 0;
      served.set(cursor, n + 1);
      const c = pool[Math.min(n, pool.length - 1)];
      const delay = origin.delayMs || (opts.recordedTiming && c?.elapsed_s ? c.elapsed_s * 1000 : 0);
      if (delay > 0) setTimeout(() => answer(c), delay);
      else answer(c);

      function answer(capture: Capture | undefined) {
        if (res.destroyed) return;
        received.answered = capture?.response.status ?? 404;
        if (!capture) {
          res.writeHead(404, { 'content-type': 'application/json; charset=UTF-8' });
          res.end(JSON.stringify({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } }));
          return;
        }
        const own = (s: string) => s.split(ORACLE_BASE).join(self).split(ORACLE_BASE.replace(/\//g, '\\/')).join(self.replace(/\//g, '\\/'));
        const headers: [string, string][] = (capture.response.header_list ?? Object.entries(capture.response.headers))
          .filter(([k]) => !SKIPPED.has(k.toLowerCase()))
          .map(([k, v]) => [k, own(v)]);
        res.writeHead(capture.response.status, headers.flat());
        res.end(req.method === 'HEAD' ? undefined : own(capture.response.body ?? ''));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const origin: LegacyOrigin = {
    url: self,
    received: [],
    delayMs: opts.delayMs ?? 0,
    reset: () => served.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return origin;
}

/**
 * Run on its own (`node test/support/legacy-origin.ts [--recorded-timing]`), for the bench: a process of
 * its own, as a real origin is, so it does not share Lintel's event loop. Prints its address.
 */
if (import.meta.url === `file://${process.argv[1]}`) {
  const origin = await startLegacyOrigin({ recordedTiming: process.argv.includes('--recorded-timing') });
  console.log(origin.url);
  process.on('SIGTERM', () => void origin.close().then(() => process.exit(0)));
}
