/**
 * HTTP Basic authentication with application passwords, as the legacy site answers it: ignored
 * until the first application password exists, then every failure is a 401 before routing.
 */
import { errors } from '../contract/error-codes.ts';
import type { Store } from '../store/store.ts';
import type { Clock } from '../clock.ts';
import type { User } from './roles.ts';
import { matches } from './app-passwords.ts';
import type { LoginThrottle } from './rate-limit.ts';
import type { VerifiedCredentials } from './verified-credentials.ts';
import { logLogin } from '../namespaces/history/log.ts';

export function parseBasic(header: string | undefined): { login: string; password: string } | null {
  if (!header || !/^basic\s+/i.test(header)) return null;
  const decoded = Buffer.from(header.replace(/^basic\s+/i, ''), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const login = decoded.slice(0, colon);
  // No login holds a NUL byte (the store cannot keep one): such a login is unknown, read as the
  // empty one, which no user has, so it never reaches the store's query.
  return { login: login.includes('\0') ? '' : login, password: decoded.slice(colon + 1) };
}

export interface BasicAuthDeps {
  store: Store;
  clock: Clock;
  throttle: LoginThrottle;
  /** Credentials verified a moment ago (absent: every request checks the store). */
  verified?: VerifiedCredentials;
}

/** The authenticated user, null for an anonymous request; throws the legacy 401 on bad credentials. */
export async function authenticate(deps: BasicAuthDeps, header: string | undefined, ip: string): Promise<User | null> {
  const creds = parseBasic(header);
  if (!creds) return null;
  // Credentials verified a moment ago skip the store; a refusal this replica knows of still applies.
  const known = deps.verified?.get(creds.login, creds.password);
  if (known) {
    const wait = deps.throttle.refusedNow(ip, known.login);
    if (wait) throw errors.auth.throttled(wait);
    return known;
  }
  const version = deps.verified?.versionNow() ?? null;
  const match = await deps.store.users.withAppPasswords(creds.login);
  // Basic credentials are ignored until the site has an application password, as on the legacy site.
  if ((!match || match.passwords.length === 0) && !(await deps.store.users.hasAnyAppPassword())) return null;
  // Counted against the user's own login, so that login and e-mail share one count.
  const attempt = await deps.throttle.attempt(ip, match?.user.login ?? creds.login);
  if (attempt.wait) throw errors.auth.throttled(attempt.wait);
  if (!match) {
    await attempt.fail();
    await logLogin(deps.store, { user: null, ip, clock: deps.clock }, creds.login, 'unknown_user');
    throw creds.login.includes('@') ? errors.auth.invalidEmail() : errors.auth.invalidUsername();
  }
  const { user, passwords } = match;
  // Check every stored password, so the time taken does not depend on which one matched.
  let found: (typeof passwords)[number] | undefined;
  for (const p of passwords) if (matches(p, creds.password) && !found) found = p;
  if (!found) {
    await attempt.fail();
    await logLogin(deps.store, { user: null, ip, clock: deps.clock }, creds.login, 'wrong_password');
    throw errors.auth.incorrectPassword();
  }
  await attempt.succeed();
  // Usage is recorded at most once a day, so most requests write nothing.
  const now = deps.clock.now();
  if (!found.lastUsed || now.getTime() - found.lastUsed.getTime() > 86_400_000) await deps.store.users.recordUse(found.uuid, ip, now);
  const { passwordHash: _, ...plain } = user;
  deps.verified?.put(creds.login, creds.password, plain, version);
  return plain;
}
