/**
 * The tokens that carry a user from login to approval. The session token travels in a hidden field
 * and only its hash is stored, so any replica can finish the flow; it is bound to a CSRF token that
 * is also in an HttpOnly, SameSite=Strict cookie, so another site can neither post the forms nor
 * replay them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { parseCookie } from 'cookie';
import type { AuthSession } from '../../store/auth-sessions.ts';
import { sameSecret } from '../../lib/secrets.ts';
import { type AppRequest, sameRequest } from './app-request.ts';

const SESSION_TTL_MS = 10 * 60 * 1000;
const CSRF_COOKIE = 'lintel_csrf';
const TOKEN = /^[A-Za-z0-9_-]{43}$/; // 32 random bytes, base64url

/** What is stored for a token: never the token itself. */
export const tokenHash = (s: string) => createHash('sha256').update(s).digest('base64url');
const newToken = () => randomBytes(32).toString('base64url');

/** Whether a posted value has a token's shape (anything else is not looked up). */
export const isToken = (s: string) => TOKEN.test(s);

/** The CSRF token of the request's cookie, if any. */
export function csrfOfCookie(cookieHeader: string | undefined): string | undefined {
  return parseCookie(cookieHeader ?? '')[CSRF_COOKIE];
}

/** One CSRF token per browser, kept while valid so that two open tabs both work. */
export function browserCsrf(existing: string | undefined): string {
  return existing && TOKEN.test(existing) ? existing : newToken();
}

/** The Set-Cookie value carrying the CSRF token to the admin path only. */
export function csrfCookie(csrf: string, adminPath: string, secure: boolean): string {
  return `${CSRF_COOKIE}=${csrf}; Path=/${adminPath}/; Max-Age=3600; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** Whether a posted CSRF token is the one in the browser's cookie. */
export function csrfAccepted(cookie: string | undefined, posted: string): boolean {
  return !!cookie && TOKEN.test(posted) && sameSecret(cookie, posted);
}

/** A new session after a login: the token for the form, and the record to store. */
export function newSession(userId: number, csrf: string, request: AppRequest, now: Date): { token: string; record: AuthSession & { tokenHash: string } } {
  const token = newToken();
  return { token, record: { tokenHash: tokenHash(token), userId, csrfHash: tokenHash(csrf), request: { ...request }, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) } };
}

/** Whether a stored session belongs to this browser and this app request. */
export function sessionBoundTo(session: AuthSession, csrf: string, request: AppRequest): boolean {
  return sameSecret(session.csrfHash, tokenHash(csrf)) && sameRequest(session.request, request);
}
