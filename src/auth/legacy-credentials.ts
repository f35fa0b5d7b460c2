/**
 * Legacy credentials keep working after the cut-over (lazy migration). Application passwords
 * cannot be imported (the legacy API never shows them), so a Basic credential Lintel does not know
 * is asked of the legacy origin once (`GET /wp-json/wp/v2/users/me?context=edit` with the same
 * credential, to `LINTEL_LEGACY_ORIGIN` only, through the SSRF-guarded fetcher with its time limit;
 * a redirect to another origin loses the credential). When the origin accepts it, a keyed hash of it
 * (the scheme of Lintel's own application passwords) is kept for the matching Lintel user, and from
 * then on it is checked locally. While the origin is configured, an adopted password the origin last
 * accepted more than `reverifyMs` ago is asked again, so a revocation on the legacy side is honoured
 * within that time.
 */
import { randomUUID } from 'node:crypto';
import { userOfLegacy, type LegacyUser } from '../lib/roles.ts';
import { hashSecret } from './app-passwords.ts';
import type { Fetcher } from '../upstream/fetch.ts';
import { guardedFetcher } from '../upstream/fetch.ts';
import type { Store } from '../store/store.ts';
import type { AppPasswordRecord, UserRecord } from '../store/users.ts';

/** accepted: the origin knows the credential; refused: it says no (401/403); unreachable: it said neither. */
export type LegacyVerdict = { kind: 'accepted'; user: LegacyUser } | { kind: 'refused' } | { kind: 'unreachable' };

export interface LegacyCredentials {
  verify(login: string, password: string): Promise<LegacyVerdict>;
  /** How long an adopted password is trusted before the origin is asked again. */
  reverifyMs: number;
}

export function legacyCredentials(origin: string, opts: { timeoutMs: number; reverifyMs: number; fetcher?: Fetcher }): LegacyCredentials {
  const host = new URL(origin).hostname.replace(/^\[|\]$/g, '');
  // The origin is the operator's, often on a private network: allowed past the SSRF guard, like `lintel import --from`.
  const fetcher = opts.fetcher ?? guardedFetcher({ allow: [host], timeoutMs: opts.timeoutMs, maxBytes: 256 * 1024 });
  const url = `${origin.replace(/\/+$/, '')}/wp-json/wp/v2/users/me?context=edit`;
  return {
    reverifyMs: opts.reverifyMs,
    async verify(login, password) {
      const authorization = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
      let res: Awaited<ReturnType<Fetcher>>;
      try {
        res = await fetcher(url, { headers: { Authorization: authorization, Accept: 'application/json' } });
      } catch {
        return { kind: 'unreachable' };
      }
      // A 5xx is the origin failing, not refusing; any other answer than 200 is a refusal.
      if (res.status >= 500) return { kind: 'unreachable' };
      if (res.status !== 200) return { kind: 'refused' };
      const user = legacyUserOf(res.body.toString('utf8'));
      return user ? { kind: 'accepted', user } : { kind: 'unreachable' };
    },
  };
}

function legacyUserOf(text: string): LegacyUser | null {
  try {
    const u = JSON.parse(text) as Partial<Record<keyof LegacyUser, unknown>>;
    if (typeof u.id !== 'number' || typeof u.username !== 'string' || u.username === '') return null;
    return {
      id: u.id,
      username: u.username,
      email: typeof u.email === 'string' ? u.email : '',
      name: typeof u.name === 'string' ? u.name : u.username,
      roles: Array.isArray(u.roles) ? u.roles.filter((r): r is string => typeof r === 'string') : [],
    };
  } catch {
    return null;
  }
}

/**
 * The Lintel user a legacy user is: the one with the same ID when its login or e-mail agrees (an
 * imported user), else the one with the same login, else the same e-mail; else a new user with the
 * legacy ID (when free), login, e-mail and role, as the import of users would have made them.
 */
export async function lintelUserOf(store: Store, legacy: LegacyUser): Promise<UserRecord> {
  const sameEmail = (u: UserRecord) => legacy.email !== '' && u.email.toLowerCase() === legacy.email.toLowerCase();
  const byId = await store.users.byId(legacy.id);
  if (byId && (byId.login === legacy.username || sameEmail(byId))) return byId;
  const found = (await store.users.byLogin(legacy.username)) ?? (legacy.email ? await store.users.byEmail(legacy.email) : null);
  if (found) return found;
  const { id, ...fields } = { ...userOfLegacy(legacy), passwordHash: null };
  try {
    return await store.users.create(byId ? fields : { ...fields, id });
  } catch (e) {
    // Another request adopted the same user a moment ago.
    const now = await store.users.byLogin(legacy.username);
    if (now) return now;
    throw e;
  }
}

/** Keeps the accepted credential's hash for `user`; later requests are checked locally. */
export async function adopt(store: Store, user: UserRecord, password: string, now: Date): Promise<AppPasswordRecord> {
  const uuid = randomUUID();
  return store.users.addAppPassword({ uuid, userId: user.id, appId: 'legacy', name: `Legacy application password ${uuid.slice(0, 8)}`, hash: hashSecret(uuid, password), legacyCheckedAt: now });
}
