/**
 * What every answer must be, whatever was sent: never a 5xx, never a stack trace or a server path,
 * a WordPress error body (`{code, message, data: {status}}`) for every REST error, and the app
 * unharmed afterwards (Object.prototype untouched, well-formed requests still answered).
 */
import { routeVars } from '../../src/http/rest-request.ts';
import type { TestApp } from '../support/app.ts';
import type { FuzzRequest } from './requests.ts';

export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

// A stack frame or a path of the server's own files.
const LEAK = /\n\s+at \S|\bat [^\s]+ \((?:file:|node:|\/)[^)]*:\d+:\d+\)|node:internal|\/node_modules\/|\/src\/[\w/-]+\.ts\b/;

const UNDER_PREFIX = /^\/(?:[a-z]{2}\/)?wp-json(?:\/|\?|$)/i;
const isRest = (url: string) => /^\/(?:[a-z]{2}\/)?wp-json(?:\/|\?|$)/i.test(url) || /^\/(?:[a-z]{2}\/)?(?:index\.php)?\?rest_route=/i.test(url);

/**
 * What is wrong with one answer, or null. `relayed`: the answer is the legacy origin's own, forwarded as
 * it came (a recorded 500 of the legacy site is its answer, not a failure of Lintel's).
 */
export async function problem(req: FuzzRequest, res: Answer, relayed = false): Promise<string | null> {
  if (res.statusCode >= 500 && !relayed) return `status ${res.statusCode}`;
  if (LEAK.test(res.body)) return 'stack trace or server path in the body';
  const json = String(res.headers['content-type'] ?? '').includes('json');
  if (!isRest(req.url) || res.body === '') return null;
  // A REST error under the prefix is JSON (or oEmbed's XML when asked for); a successful answer may
  // be a file (an export). `?rest_route=` URLs are REST only as the query finally reads.
  if (!json) {
    if (res.statusCode < 400 || !UNDER_PREFIX.test(req.url) || /xml/.test(String(res.headers['content-type']))) return null;
    // A rest_route differing between the query and a form body is refused by wp_die before the request is a REST one:
    // the HTML page, unless the client asked for JSON.
    const early = (await routeVars({ ...req, body: Buffer.from(req.payload ?? '') })) === 'mismatch' && !/json/i.test(req.headers.accept ?? '');
    return early ? null : 'REST error is not JSON';
  }
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return 'REST answer is not JSON';
  }
  if (res.statusCode >= 400) return errorShape(body, res.statusCode);
  if (res.statusCode === 207 && req.url.startsWith('/wp-json/batch/v1')) {
    const responses = (body as { responses?: unknown }).responses;
    if (!Array.isArray(responses)) return null;
    for (const item of responses as ({ status: number; body: unknown } | null)[]) {
      if (!item) continue;
      if (item.status >= 500) return `batch item status ${item.status}`;
      if (item.status >= 400) {
        const p = errorShape(item.body, item.status);
        if (p) return `batch item: ${p}`;
      }
    }
  }
  return null;
}

function errorShape(body: unknown, status: number): string | null {
  const b = body as { code?: unknown; message?: unknown; data?: { status?: unknown } | null };
  if (typeof b !== 'object' || b === null || typeof b.code !== 'string' || typeof b.message !== 'string') return 'error body is not {code, message, data}';
  if (b.data?.status !== status) return `error body data.status ${String(b.data?.status)} is not ${status}`;
  return null;
}

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort().join(',');

/** Object.prototype has exactly the keys it started with (a polluted one breaks every later request). */
export function prototypeIntact(): string | null {
  const now = Object.getOwnPropertyNames(Object.prototype).sort().join(',');
  return now === PROTOTYPE_KEYS ? null : `Object.prototype changed: ${now}`;
}

/** Well-formed requests still succeed: the index and a calendar events list. */
export async function stillServing(app: TestApp): Promise<string | null> {
  for (const url of ['/wp-json/', '/wp-json/calendar/events/v1/events']) {
    const r = await app.server.inject({ method: 'GET', url });
    if (r.statusCode !== 200) return `GET ${url} answers ${r.statusCode} after the fuzzed requests`;
  }
  return null;
}
