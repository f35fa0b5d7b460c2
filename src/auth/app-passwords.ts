/**
 * Application passwords: 24 letters and digits, shown in six groups of four. Only a keyed hash is
 * stored (HMAC-SHA-256 keyed with the password's own UUID): the secret has ~143 bits of entropy, so
 * a slow hash would add cost to every request and no safety. Checks compare in constant time.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { randomAlnum } from '../random.ts';
import type { Store } from '../store/store.ts';
import { logAppPassword, type Actor } from '../audit/log.ts';
import type { AppPasswordRecord } from '../store/users.ts';

export function generateSecret(): string {
  return randomAlnum(24);
}

/** "abcdEFGH1234..." → "abcd EFGH 1234 ...": the form users see and may paste back. */
export function chunk(secret: string): string {
  return normalize(secret).replace(/(.{4})(?=.)/g, '$1 ');
}

/** What the legacy site compares: everything but letters and digits is dropped. */
export function normalize(password: string): string {
  return password.replace(/[^a-z\d]/gi, '');
}

export function hashSecret(uuid: string, secret: string): string {
  return `$hmac-sha256$${createHmac('sha256', uuid).update(normalize(secret)).digest('base64url')}`;
}

export function matches(record: Pick<AppPasswordRecord, 'uuid' | 'hash'>, password: string): boolean {
  const expected = Buffer.from(record.hash);
  const actual = Buffer.from(hashSecret(record.uuid, password));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** With `actor`, the creation is written to the history log in the same transaction. */
export async function createAppPassword(store: Store, userId: number, name: string, appId = '', actor?: Actor): Promise<{ record: AppPasswordRecord; password: string }> {
  const uuid = randomUUID();
  const secret = generateSecret();
  const record = await store.users.addAppPassword({ uuid, userId, appId, name, hash: hashSecret(uuid, secret) });
  const user = actor && (await store.users.byId(userId));
  if (actor && user) await logAppPassword(store, actor, 'user_application_password_created', user, name);
  return { record, password: chunk(secret) };
}
