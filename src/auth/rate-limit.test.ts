import { describe, expect, it } from 'vitest';
import { clientOf, LoginThrottle } from './rate-limit.ts';

const limits = { attempts: 3, clientAttempts: 10, windowS: 600 };

async function failTimes(throttle: LoginThrottle, ip: string, login: string, n: number) {
  for (let i = 0; i < n; i++) await (await throttle.attempt(ip, login)).fail();
}

describe('LoginThrottle in memory', () => {
  it('refuses a login from one client after the allowed failures, for the window, and not from another client', async () => {
    const throttle = new LoginThrottle(limits);
    await failTimes(throttle, '10.0.0.1', 'ann', 3);
    const wait = (await throttle.attempt('10.0.0.1', 'ann')).wait;
    expect(wait).toBeGreaterThan(590);
    expect(wait).toBeLessThanOrEqual(600);
    expect((await throttle.attempt('10.0.0.1', 'ANN')).wait).toBe(wait); // case-folded
    expect((await throttle.attempt('10.0.0.2', 'ann')).wait).toBe(0);
    expect((await throttle.attempt('10.0.0.1', 'bob')).wait).toBe(0);
  });

  it('forgets a login\'s failures after a success, but not the client\'s', async () => {
    const throttle = new LoginThrottle({ attempts: 3, clientAttempts: 5, windowS: 600 });
    await failTimes(throttle, '10.0.0.1', 'ann', 2);
    await (await throttle.attempt('10.0.0.1', 'ann')).succeed();
    await failTimes(throttle, '10.0.0.1', 'ann', 2);
    expect((await throttle.attempt('10.0.0.1', 'ann')).wait).toBe(0); // 2 since the success
    // The client's fifth failure in all: it is refused for every login, the success notwithstanding.
    await failTimes(throttle, '10.0.0.1', 'carol', 1);
    expect((await throttle.attempt('10.0.0.1', 'dave')).wait).toBeGreaterThan(0);
    expect((await throttle.attempt('10.0.0.2', 'dave')).wait).toBe(0);
  });

  it('refuses a client spraying many logins once it has used its budget, so the spray adds no keys', async () => {
    const throttle = new LoginThrottle(limits);
    for (let i = 0; i < 10; i++) await failTimes(throttle, '10.0.0.1', `user${i}`, 1);
    expect((await throttle.attempt('10.0.0.1', 'someone-else')).wait).toBeGreaterThan(0);
    expect((await throttle.attempt('10.0.0.2', 'someone-else')).wait).toBe(0);
  });

  it('keeps a locked login locked through a flood of failures with more distinct names than it can hold', async () => {
    // The memory bound made small (100,000 in production): the flood only has to exceed it.
    const maxKeys = 1_000;
    const throttle = new LoginThrottle({ attempts: 3, clientAttempts: 1_000_000, windowS: 600, maxKeys });
    await failTimes(throttle, '10.0.0.1', 'ann', 3);
    // maxKeys + 1 distinct names from distinct clients: more than the memory holds.
    for (let i = 0; i <= maxKeys; i++) {
      const attempt = await throttle.attempt(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, `name${i}`);
      if (!attempt.wait) await attempt.fail();
    }
    expect((await throttle.attempt('10.0.0.1', 'ann')).wait).toBeGreaterThan(0);
  });
});

describe('clientOf', () => {
  it('groups IPv6 addresses by /64 and unwraps IPv4-mapped ones', () => {
    expect(clientOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientOf('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(clientOf('2001:db8::1:2:3:4:5')).toBe('2001:db8:0:1::/64');
    expect(clientOf('2001:0db8:0001:0002::')).toBe('2001:db8:1:2::/64');
    expect(clientOf('::1')).toBe('0:0:0:0::/64');
    expect(clientOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
