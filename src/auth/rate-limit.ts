/**
 * Failed-login throttle: per client address and login, a fixed number of failures per window.
 * In memory, per replica (an LRU bounds it); that is enough to make guessing impractical.
 */
import { LRUCache } from 'lru-cache';

export class LoginThrottle {
  private readonly failures: LRUCache<string, { count: number }>;

  constructor(private readonly attempts: number, windowS: number) {
    this.failures = new LRUCache({ max: 50_000, ttl: windowS * 1000, ttlAutopurge: false });
  }

  private key(ip: string, login: string) {
    return `${ip}\u0000${login.toLowerCase()}`;
  }

  /** Seconds to wait before trying again, or 0. */
  blockedFor(ip: string, login: string): number {
    const k = this.key(ip, login);
    const f = this.failures.get(k);
    if (!f || f.count < this.attempts) return 0;
    return Math.max(1, Math.ceil(this.failures.getRemainingTTL(k) / 1000));
  }

  fail(ip: string, login: string): void {
    const k = this.key(ip, login);
    const f = this.failures.get(k, { updateAgeOnGet: false });
    if (f) f.count++;
    else this.failures.set(k, { count: 1 });
  }

  succeed(ip: string, login: string): void {
    this.failures.delete(this.key(ip, login));
  }
}
