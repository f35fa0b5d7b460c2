/**
 * HTTP Basic authentication with application passwords, as the legacy site answers it: ignored
 * until the first application password exists, then every failure is a 401 before routing.
 */
import { RestError } from '../contract/errors.ts';
import type { Store } from '../store/store.ts';
import type { Clock } from '../clock.ts';
import type { User } from './roles.ts';
import { matches } from './app-passwords.ts';
import type { LoginThrottle } from './rate-limit.ts';

export function parseBasic(header: string | undefined): { login: string; password: string } | null {
  if (!header || !/^basic\s+/i.test(header)) return null;
  const decoded = Buffer.from(header.replace(/^basic\s+/i, ''), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

const errors = {
  invalidUsername: () =>
    new RestError('invalid_username', '<strong>Error:</strong> Unknown username. Check again or try your email address.', 401),
  invalidEmail: () => new RestError('invalid_email', '<strong>Error:</strong> Unknown email address. Check again or try your username.', 401),
  incorrectPassword: () => new RestError('incorrect_password', 'The provided password is an invalid application password.', 401),
  throttled: (s: number) => new RestError('too_many_login_attempts', `Too many failed login attempts. Try again in ${s} seconds.`, 429),
};

export interface BasicAuthDeps {
  store: Store;
  clock: Clock;
  throttle: LoginThrottle;
}

/** The authenticated user, null for an anonymous request; throws the legacy 401 on bad credentials. */
export async function authenticate(deps: BasicAuthDeps, header: string | undefined, ip: string): Promise<User | null> {
  const creds = parseBasic(header);
  if (!creds) return null;
  const wait = deps.throttle.blockedFor(ip, creds.login);
  if (wait) throw errors.throttled(wait);
  const match = await deps.store.users.withAppPasswords(creds.login);
  if (!match) {
    if (!(await deps.store.users.hasAnyAppPassword())) return null;
    deps.throttle.fail(ip, creds.login);
    throw creds.login.includes('@') ? errors.invalidEmail() : errors.invalidUsername();
  }
  const { user, passwords } = match;
  // Basic credentials are ignored until the site has an application password, as on the legacy site.
  if (passwords.length === 0 && !(await deps.store.users.hasAnyAppPassword())) return null;
  // Check every stored password, so the time taken does not depend on which one matched.
  let found: (typeof passwords)[number] | undefined;
  for (const p of passwords) if (matches(p, creds.password) && !found) found = p;
  if (!found) {
    deps.throttle.fail(ip, creds.login);
    throw errors.incorrectPassword();
  }
  deps.throttle.succeed(ip, creds.login);
  // Usage is recorded at most once a day, so most requests write nothing.
  const now = deps.clock.now();
  if (!found.lastUsed || now.getTime() - found.lastUsed.getTime() > 86_400_000) await deps.store.users.recordUse(found.uuid, ip, now);
  const { passwordHash: _, ...plain } = user;
  return plain;
}
