/**
 * Requests Node's HTTP parser refuses before any route sees them (headers over `maxHeaderSize`,
 * a timeout, a malformed request line) are answered in the WordPress error shape too, then the
 * connection is closed cleanly: the answer is flushed before the FIN, never cut by a reset.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { errors } from '../contract/error-codes.ts';
import type { RestError } from '../contract/errors.ts';

function refusal(code: string | undefined): RestError {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return errors.http.headersTooLarge();
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return errors.http.requestTimeout();
  return errors.http.unreadable();
}

export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  // A reset connection has no one left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  answerRaw(socket, refusal(err.code));
}

/** Answers on a bare socket (no request was routed) in the WordPress error shape, then closes it. */
export function answerRaw(socket: Socket, e: RestError, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(e.toBody());
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.end(
    `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status]}\r\nContent-Type: application/json; charset=UTF-8\r\n${extra}` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The body of a request the router did not route (Fastify reads bodies after routing), up to the same limit. */
export async function unroutedBody(req: FastifyRequest, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw errors.core.tooLarge(limit);
    chunks.push(chunk);
  }
  return size ? Buffer.concat(chunks) : undefined;
}
