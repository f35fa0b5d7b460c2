/**
 * `Idempotency-Key` on writes: a user's retry of a write that was saved gets the first answer again
 * and writes nothing, even when that first answer never arrived (a lost connection, or a 503 from an
 * outage after the commit). The key is claimed and the answer saved in the write's own transaction,
 * so a key is saved exactly when its write is. Answers of 400 or more, and streamed ones, are not
 * saved: a retry runs again. Only authenticated writes use keys (an anonymous key would let anyone
 * who guessed it read another client's answer).
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { errors } from '../contract/error-codes.ts';
import type { RestError } from '../contract/errors.ts';
import type { Store } from '../store/store.ts';
import type { RestAnswer } from './shape.ts';

export const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What a key may be used for once: the method, route, query and body. */
export function requestFingerprint(method: string, route: string, query: string, body: Buffer | undefined): string {
  return createHash('sha256').update(JSON.stringify([method, route, query])).update(body ?? Buffer.alloc(0)).digest('base64url');
}

export async function onceForKey(
  store: Store,
  userId: number,
  key: string,
  request: string,
  run: (store: Store) => Promise<RestAnswer>,
): Promise<RestAnswer | RestError> {
  if (key.length === 0 || key.length > 255) return errors.core.badIdempotencyKey();
  return store.transaction(async (tx) => {
    const saved = await tx.idempotency.claim(userId, key, request);
    if (saved && saved.request !== request) return errors.core.idempotencyKeyReused();
    if (saved && saved.status > 0) return { route: '(replayed)', status: saved.status, headers: { ...saved.headers, 'Idempotent-Replayed': 'true' }, body: saved.body };
    const answer = await run(tx);
    if (answer.status < 400 && !(answer.body instanceof Readable)) {
      const body = answer.body === null ? null : Buffer.isBuffer(answer.body) ? answer.body.toString('utf8') : answer.body;
      await tx.idempotency.save(userId, key, { status: answer.status, headers: answer.headers, body });
    }
    return answer;
  });
}
