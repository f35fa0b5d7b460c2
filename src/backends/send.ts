/** A backend's answer written to the client: status, headers, and the body (a stream is piped as it arrives). */
import type { FastifyReply } from 'fastify';
import type { BackendAnswer } from './backend.ts';

export function sendAnswer(reply: FastifyReply, a: BackendAnswer): FastifyReply {
  reply.code(a.status);
  for (const [k, v] of Object.entries(a.headers)) reply.header(k, v);
  return reply.send(a.body ?? undefined);
}
