import * as crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testStore } from '../../test/support/store.ts';
import type { OpenStore } from '../store/store.ts';

// Spy on the comparison, to see that checks go through the constant-time one.
vi.mock('node:crypto', async (original) => {
  const actual = await original<typeof crypto>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});
// The test workers share modules between files (vitest.config.ts, isolate): an earlier file may have loaded
// app-passwords.ts with the real node:crypto, so it is loaded afresh, with the spy.
vi.resetModules();
const { chunk, createAppPassword, generateSecret, hashSecret, matches, normalize } = await import('./app-passwords.ts');

let store: OpenStore;
beforeAll(async () => {
  store = await testStore();
});
afterAll(() => store.close());

describe('application passwords', () => {
  it('are 24 letters and digits, different every time', () => {
    const secrets = Array.from({ length: 50 }, generateSecret);
    for (const s of secrets) expect(s).toMatch(/^[a-zA-Z0-9]{24}$/);
    expect(new Set(secrets).size).toBe(50);
  });

  it('are shown in six groups of four, and the groups and any punctuation are ignored when checked', () => {
    expect(chunk('abcdEFGH1234ijklMNOP5678')).toBe('abcd EFGH 1234 ijkl MNOP 5678');
    expect(normalize('abcd-EFGH 1234_ijkl MNOP 5678')).toBe('abcdEFGH1234ijklMNOP5678');
  });

  it('are created for a user, returned once in the chunked form, and stored only as a hash', async () => {
    const user = await store.users.create({ login: 'ap', email: 'ap@example.test', displayName: 'ap', role: 'author', passwordHash: null });
    const { record, password } = await createAppPassword(store, user.id, 'Phone', 'b3b0c2a4-1d2e-4f5a-9b8c-7d6e5f4a3b2c');
    expect(password).toHaveLength(29);
    expect(password).toMatch(/^([a-zA-Z0-9]{4} ){5}[a-zA-Z0-9]{4}$/);
    const [stored] = await store.users.appPasswords(user.id);
    expect(stored).toMatchObject({ uuid: record.uuid, name: 'Phone', appId: 'b3b0c2a4-1d2e-4f5a-9b8c-7d6e5f4a3b2c', lastUsed: null });
    expect(stored.hash).not.toContain(normalize(password));
    expect(stored.hash).not.toBe(password);
    expect(stored.hash).toBe(hashSecret(stored.uuid, password));
    // The same secret under another password's UUID hashes differently.
    expect(hashSecret(crypto.randomUUID(), password)).not.toBe(stored.hash);
  });

  it('are checked in constant time, also when the stored hash has another length', async () => {
    const uuid = crypto.randomUUID();
    const secret = generateSecret();
    const record = { uuid, userId: 1, appId: '', name: 'x', hash: hashSecret(uuid, secret), createdAt: new Date(), lastUsed: null, lastIp: null };
    const compare = vi.mocked(crypto.timingSafeEqual);
    compare.mockClear();
    expect(matches(record, chunk(secret))).toBe(true);
    expect(matches(record, secret.toLowerCase() === secret ? secret.toUpperCase() : secret.toLowerCase())).toBe(false);
    expect(compare).toHaveBeenCalledTimes(2);
    expect(matches({ ...record, hash: '$legacy$short' }, secret)).toBe(false);
  });
});
