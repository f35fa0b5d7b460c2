/**
 * HTTP Basic authentication with application passwords, as the legacy site answers it: ignored
 * until the first application password exists, then every failure is a 401 before routing.
 */
import { errors } from '../contract/error-codes.ts';
import type { Store } from '../store/store.ts';
import type { Clock } from '../clock.ts';
import type { User } from '../lib/roles.ts';
import { matches } from './app-passwords.ts';
import type { LoginAttempt, LoginThrottle } from './rate-limit.ts';
import { adopt, lintelUserOf, type LegacyCredentials } from './legacy-credentials.ts';
import type { AppPasswordRecord, UserRecord } from '../store/users.ts';
import type { VerifiedCredentials } from './verified-credentials.ts';
import { logLogin } from '../audit/log.ts';

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
  /** The legacy origin's credentials (LINTEL_LEGACY_ORIGIN set): unknown ones are asked of it once. */
  legacy?: LegacyCredentials;
}

/** `quiet`: a shadow comparison's request, which is no login: nothing counted, logged or recorded. */
export interface AuthenticateOptions {
  quiet?: boolean;
}

/** An attempt that counts nothing (shadow comparisons). */
const UNCOUNTED: LoginAttempt = { wait: 0, fail: async () => undefined, succeed: async () => undefined };

/** The authenticated user, null for an anonymous request; throws the legacy 401 on bad credentials. */
export async function authenticate(deps: BasicAuthDeps, header: string | undefined, ip: string, opts: AuthenticateOptions = {}): Promise<User | null> {
  const creds = parseBasic(header);
  if (!creds) return null;
  // Credentials verified a moment ago skip the store; a refusal this replica knows of still applies.
  const known = deps.verified?.get(creds.login, creds.password);
  if (known) {
    const wait = opts.quiet ? 0 : deps.throttle.refusedNow(ip, known.login);
    if (wait) throw errors.auth.throttled(wait);
    return known;
  }
  const version = deps.verified?.versionNow() ?? null;
  const match = await deps.store.users.withAppPasswords(creds.login);
  // Basic credentials are ignored until the site has an application password, as on the legacy site
  // (with a legacy origin, its passwords count).
  if (!deps.legacy && (!match || match.passwords.length === 0) && !(await deps.store.users.hasAnyAppPassword())) return null;
  // Counted against the user's own login, so that login and e-mail share one count.
  const attempt = opts.quiet ? UNCOUNTED : await deps.throttle.attempt(ip, match?.user.login ?? creds.login);
  if (attempt.wait) throw errors.auth.throttled(attempt.wait);
  const refuse = async (outcome: 'wrong_password' | 'unknown_user') => {
    await attempt.fail();
    if (!opts.quiet) await logLogin(deps.store, { user: null, ip, clock: deps.clock }, creds.login, outcome);
    return outcome === 'wrong_password' ? errors.auth.incorrectPassword() : creds.login.includes('@') ? errors.auth.invalidEmail() : errors.auth.invalidUsername();
  };
  // Check every stored password, so the time taken does not depend on which one matched.
  let found: AppPasswordRecord | undefined;
  for (const p of match?.passwords ?? []) if (matches(p, creds.password) && !found) found = p;
  const checked = await checkWithLegacy(deps, creds, match?.user ?? null, found);
  if (checked === 'unreachable') throw errors.legacy.unavailable();
  if (!checked) throw await refuse(match ? 'wrong_password' : 'unknown_user');
  await attempt.succeed();
  const { user, password } = checked;
  // Usage is recorded at most once a day, so most requests write nothing.
  const now = deps.clock.now();
  if (!opts.quiet && (!password.lastUsed || now.getTime() - password.lastUsed.getTime() > 86_400_000)) await deps.store.users.recordUse(password.uuid, ip, now);
  const { passwordHash: _, ...plain } = user;
  deps.verified?.put(creds.login, creds.password, plain, version);
  return plain;
}

/**
 * The legacy origin's word where Lintel's own is not final: a credential Lintel does not know is
 * asked of the origin (and adopted when it accepts); an adopted one is asked again once its check
 * is older than `reverifyMs` (forgotten when the origin now refuses it; kept when the origin does
 * not answer). A password revoked here is refused without asking. `unreachable`: the origin was
 * needed and said neither yes nor no, which is not the client's failure.
 */
async function checkWithLegacy(
  deps: BasicAuthDeps,
  creds: { login: string; password: string },
  user: UserRecord | null,
  found: AppPasswordRecord | undefined,
): Promise<{ user: UserRecord; password: AppPasswordRecord } | null | 'unreachable'> {
  const now = deps.clock.now();
  if (found?.revokedAt) return null;
  if (found && user) {
    const stale = found.legacyCheckedAt && deps.legacy && now.getTime() - found.legacyCheckedAt.getTime() > deps.legacy.reverifyMs;
    if (!stale || !deps.legacy) return { user, password: found };
    const verdict = await deps.legacy.verify(creds.login, creds.password);
    if (verdict.kind === 'refused') {
      await deps.store.users.forgetLegacy(found.uuid);
      return null;
    }
    if (verdict.kind === 'accepted') await deps.store.users.confirmLegacy(found.uuid, now);
    return { user, password: found };
  }
  if (!deps.legacy) return null;
  const verdict = await deps.legacy.verify(creds.login, creds.password);
  if (verdict.kind !== 'accepted') return verdict.kind === 'unreachable' ? 'unreachable' : null;
  const owner = await lintelUserOf(deps.store, verdict.user);
  return { user: owner, password: await adopt(deps.store, owner, creds.password, now) };
}
