/**
 * Failed-login throttle (HTTP Basic and the authorize-application page; download passwords too).
 *
 * Two counters per failure, each a fixed window of `windowS` seconds:
 * - per (client, login): `attempts` failures, then that login is refused *from that client* until
 *   the window ends, even with the right password. The login is the user's canonical login when the
 *   user exists (typed as login or e-mail, in any case), else what was typed, case-folded: so login
 *   and e-mail share one counter, and an attacker elsewhere cannot lock the real user out.
 * - per client: `clientAttempts` failures over all logins, then the client is refused. This stops
 *   one client spraying many logins (each would get `attempts` guesses) and bounds how many keys one
 *   client can add to the memory below. A success does not clear it (else an attacker with one
 *   account could reset it between sprays). IPv6 clients count per /64, which one host usually holds.
 * - optionally (`subjectAttempts`) per login over all clients: a guess spread over many addresses. It
 *   lets an attacker close the login to everyone for a window, so it is for what a lock-out costs
 *   little and a guess much: download passwords (the same machinery, scoped `download`, with the
 *   package as the login), not accounts.
 *
 * Memory is bounded: two LRUs, one counting failures below the limit and one holding the refused
 * keys until their window ends. A flood of failures with distinct names (from any number of
 * addresses) only churns the first, where losing a count gives back at most the `attempts` guesses
 * a fresh address would have; a refused key is only evicted from the second by MAX_KEYS newer
 * refusals, each of which costs the flooder `attempts` failures on one (client, login), and one
 * client gets at most `clientAttempts / attempts` of them per window. Evicting a refusal thus takes
 * thousands of addresses, each of which already gets its own guesses at every login: eviction gives
 * an attacker nothing their addresses do not.
 *
 * With replicas on one PostgreSQL database (`shared`), the counts live in the store (one point read
 * per attempt, one upsert per failure); the LRU then only caches refusals, so a client hammering a
 * refused key costs no query. On PGlite the process is alone on its data (the data directory is
 * locked), so memory is the whole truth.
 */
import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { LRUCache } from 'lru-cache';
import { boundedLru } from '../lib/lru.ts';
import type { LoginThrottleRepo, ThrottleCount } from '../store/login-throttle.ts';

export interface ThrottleLimits {
  /** Failures per client and login per window. */
  attempts: number;
  /** Failures per client (over all logins) per window. */
  clientAttempts: number;
  /** Failures per login over all clients per window (a guess spread over many addresses); unset: no such limit. */
  subjectAttempts?: number;
  windowS: number;
  /** Keys each of the two memories holds at most (MAX_KEYS unless given: tests prove eviction with a smaller bound). */
  maxKeys?: number;
}

/** One login attempt, started once the login is known and before the password is checked. */
export interface LoginAttempt {
  /** Seconds before the client may try this login again; 0 when the attempt may go on. */
  readonly wait: number;
  /** A wrong password (or an unknown login): counts against the login and the client. */
  fail(): Promise<void>;
  /** The right password: the login's failures from this client are forgotten. */
  succeed(): Promise<void>;
}

const MAX_KEYS = 100_000;

export class LoginThrottle {
  /** Failures of keys below their limit (memory mode only). */
  private readonly failing: LRUCache<string, { failures: number }>;
  /** Refused keys, each until its window ends (in both modes; a cache of the store's refusals when shared). */
  private readonly refused: LRUCache<string, true>;
  private purgedAt = 0;

  private readonly limits: ThrottleLimits;
  private readonly shared: LoginThrottleRepo | null;
  /** Keeps the counts of throttles sharing the store apart (logins: '', download passwords: 'download'). */
  private readonly scope: string;
  constructor(limits: ThrottleLimits, shared: LoginThrottleRepo | null = null, scope = '') {
    this.limits = limits;
    this.shared = shared;
    this.scope = scope;
    const max = limits.maxKeys ?? MAX_KEYS;
    this.failing = boundedLru({ max, ttlAutopurge: false });
    this.refused = boundedLru({ max, ttlAutopurge: false });
  }

  private key(...parts: string[]): string {
    return hashKey(this.scope ? [this.scope, ...parts] : parts);
  }

  /** Starts an attempt by `ip` for `login`: the user's own login when the user exists, else what was typed. */
  async attempt(ip: string, login: string): Promise<LoginAttempt> {
    const client = clientOf(ip);
    const loginKey = this.key(client, login.toLowerCase());
    const clientKey = this.key(client);
    // Over all clients: `*` is no address.
    const subjectKey = this.limits.subjectAttempts ? this.key('*', login.toLowerCase()) : null;
    const keys = subjectKey ? [loginKey, clientKey, subjectKey] : [loginKey, clientKey];
    const limit = (key: string) => (key === clientKey ? this.limits.clientAttempts : key === subjectKey ? (this.limits.subjectAttempts ?? 0) : this.limits.attempts);

    let wait = Math.max(...keys.map((k) => this.refusedFor(k)));
    let loginFailed = this.failing.has(loginKey);
    if (!wait && this.shared) {
      const counts = await this.shared.counts(keys);
      wait = this.refuse(counts, limit);
      loginFailed = counts.some((c) => c.key === loginKey);
    }
    return {
      wait,
      fail: async () => {
        if (!this.shared) {
          for (const k of keys) this.count(k, limit(k));
          return;
        }
        this.refuse(await this.shared.fail(keys, this.limits.windowS), limit);
        // Each replica sweeps ended windows at most once a window, so the table holds live ones only.
        if (Date.now() - this.purgedAt > this.limits.windowS * 1000) {
          this.purgedAt = Date.now();
          await this.shared.purge();
        }
      },
      succeed: async () => {
        if (!loginFailed) return;
        this.failing.delete(loginKey);
        await this.shared?.clear(loginKey);
      },
    };
  }

  /**
   * Seconds before `ip` may use `login` again, from the refusals this replica holds (no store
   * read): for credentials already verified, which are no guess.
   */
  refusedNow(ip: string, login: string): number {
    const client = clientOf(ip);
    return Math.max(this.refusedFor(this.key(client, login.toLowerCase())), this.refusedFor(this.key(client)));
  }

  private refusedFor(key: string): number {
    return this.refused.has(key) ? Math.max(1, Math.ceil(this.refused.getRemainingTTL(key) / 1000)) : 0;
  }

  /** Memory mode: one more failure; at the limit the key moves to `refused` for the rest of its window. */
  private count(key: string, limit: number): void {
    const entry = this.failing.get(key) ?? { failures: 0 };
    // The window starts at the first failure; later ones do not extend it.
    const ttl = entry.failures ? this.failing.getRemainingTTL(key) : this.limits.windowS * 1000;
    entry.failures++;
    if (entry.failures >= limit) {
      this.failing.delete(key);
      this.refused.set(key, true, { ttl: Math.max(1, ttl) });
    } else if (entry.failures === 1) this.failing.set(key, entry, { ttl });
  }

  /** Caches the store's refusals (until their window ends); returns the longest wait among them. */
  private refuse(counts: ThrottleCount[], limit: (key: string) => number): number {
    let wait = 0;
    for (const c of counts) {
      if (c.failures < limit(c.key) || c.waitS <= 0) continue;
      this.refused.set(c.key, true, { ttl: c.waitS * 1000 });
      wait = Math.max(wait, c.waitS);
    }
    return wait;
  }
}

/** The client a failure counts against: the address, or its /64 for IPv6 (IPv4-mapped addresses are IPv4). */
export function clientOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head, tail] = ip.replace(/%.*$/, '').split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  // `::` stands for the zero groups missing from eight (a dotted IPv4 tail is two groups).
  const missing = 8 - front.length - back.length - (back.at(-1)?.includes('.') ? 1 : 0);
  const groups = tail === undefined ? front : [...front, ...Array<string>(missing).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

// Hashed: bounded size in memory and in the store whatever the login's length, and no logins at rest.
const hashKey = (parts: string[]) => createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
/** Requests allowed per key in a fixed window (per replica, like the login throttle). */
export class RequestLimiter {
  private readonly counts: LRUCache<string, { count: number }>;

  private readonly limit: number;
  constructor(limit: number, windowS: number) {
    this.limit = limit;
    this.counts = boundedLru({ max: 50_000, ttl: windowS * 1000, ttlAutopurge: false });
  }

  /** Counts one request; false when the key is over its limit in the current window. */
  hit(key: string): boolean {
    const c = this.counts.get(key, { updateAgeOnGet: false });
    if (!c) {
      this.counts.set(key, { count: 1 });
      return true;
    }
    c.count++;
    return c.count <= this.limit;
  }
}
