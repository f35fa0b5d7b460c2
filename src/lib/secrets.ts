/** Comparing secrets a client sends (passwords of records, download passwords, CSRF tokens) without leaking where they differ. */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Whether `given` equals `secret`, in time that does not depend on where they differ (nor on their lengths). */
export function sameSecret(secret: string, given: string): boolean {
  return timingSafeEqual(digest(secret), digest(given));
}
