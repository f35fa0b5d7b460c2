/**
 * One signature for every way a namespace is served, in luraproject/lura's shape: a backend takes a
 * call and the signal that aborts it (lura's context) and answers; a middleware takes the backends
 * it wraps and is a backend itself. `translate` runs Lintel's own pipeline, `forward` sends the call
 * to the legacy origin; `metered` counts answers and `shadowing` runs a second backend beside the
 * first. `mappings/` chooses the composition per namespace (select.ts).
 */
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../contract/error-codes.ts';

export interface BackendCall {
  /** The HTTP method as received (overrides such as `_method` travel in the query and headers). */
  method: string;
  /** The path as received, locale segment and REST prefix included. */
  path: string;
  /** The raw query string, without `?`. */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer | undefined;
  client: { ip: string; protocol: string; host: string };
  requestId: string;
  log: FastifyBaseLogger;
  /** A shadow comparison's own request (not the client's): no login is counted or logged for it. */
  comparison?: boolean;
}

export interface BackendAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  /** A buffered body, a stream (a forwarded answer is streamed back), or none. */
  body: Buffer | Readable | null;
}

/** `signal` aborts when no one waits for the answer any more (the client left): a backend stops its work then. */
export type Backend = (call: BackendCall, signal: AbortSignal) => Promise<BackendAnswer>;

/** What wraps backends (lura's proxy middleware): given the backends it wraps, a backend. */
export type Middleware = (...next: Backend[]) => Backend;

/** For calls no client waits on (shadow comparisons) or that must run to their end once begun (batch writes). */
export const UNCANCELLED: AbortSignal = new AbortController().signal;

/** Aborts when the client leaves before its answer is fully sent. */
export function clientSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const res = reply.raw;
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the client left'));
  });
  return controller.signal;
}

export function callOf(req: FastifyRequest): BackendCall {
  const q = req.url.indexOf('?');
  return {
    method: req.method,
    path: q < 0 ? req.url : req.url.slice(0, q),
    query: q < 0 ? '' : req.url.slice(q + 1),
    headers: req.headers,
    body: Buffer.isBuffer(req.body) ? req.body : undefined,
    client: { ip: req.ip, protocol: req.protocol, host: req.host },
    requestId: String(req.id),
    log: req.log,
  };
}

/** A header's value as one string (repeated headers joined), case-insensitively. */
export function headerOf(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : headers[key];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** An answer's whole body (a stream is read to its end). */
export async function answerBody(body: BackendAnswer['body']): Promise<Buffer> {
  if (body === null) return Buffer.alloc(0);
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  try {
    for await (const c of body) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  } catch {
    // A streamed answer (the legacy origin's) that breaks off is the origin's failure, not Lintel's.
    throw errors.legacy.brokeOff();
  }
  return Buffer.concat(chunks);
}
