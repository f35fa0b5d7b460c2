/**
 * Every connection is bounded: its request headers and its whole request (a slow body included)
 * must arrive in time, an idle connection is closed, and one client address holds at most so many
 * connections at once, so one client cannot take every file descriptor of the process.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { errors } from '../contract/error-codes.ts';
import { answerRaw } from './client-error.ts';

export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  idleTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** Per socket address; 0: no cap. */
  clientConnections: number;
}

/** Options for `http.createServer`: Node checks the header and request timeouts on this interval. */
export function serverOptions(l: ConnectionLimits) {
  return { connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(Math.min(l.headersTimeoutMs, l.requestTimeoutMs) / 4))) };
}

export function applyLimits(server: Server, l: ConnectionLimits): void {
  server.headersTimeout = l.headersTimeoutMs;
  // Node requires the headers' limit to be within the request's.
  server.requestTimeout = Math.max(l.requestTimeoutMs, l.headersTimeoutMs);
  server.keepAliveTimeout = l.keepAliveTimeoutMs;
  server.setTimeout(l.idleTimeoutMs, (socket: Socket) => socket.destroy());
  if (l.clientConnections === 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > l.clientConnections) {
      answerRaw(socket, errors.http.tooManyConnections(), { 'Retry-After': '1' });
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
