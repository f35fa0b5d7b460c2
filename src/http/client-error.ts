/**
 * Requests Node's HTTP parser refuses before any route sees them (headers over `maxHeaderSize`,
 * a timeout, a malformed request line) are answered in the WordPress error shape too, then the
 * connection is closed cleanly: the answer is flushed before the FIN, never cut by a reset.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
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
  const e = refusal(err.code);
  const body = JSON.stringify(e.toBody());
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(
    `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status]}\r\nContent-Type: application/json; charset=UTF-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
