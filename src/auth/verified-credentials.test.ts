/**
 * Verified Basic credentials are reused without reading the store, and dropped as soon as a
 * committed change to users or application passwords is announced: a revoked password or a
 * demoted user is refused on the next request, not after the cache's time runs out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppPassword } from './app-passwords.ts';
import { testApp, type TestApp } from '../../test/support/app.ts';
import { eventually, feedCaughtUp } from '../../test/support/eventually.ts';

let app: TestApp;
beforeAll(async () => {
  app = await testApp({ env: { LINTEL_AUTH_CACHE_S: '600' } });
});
afterAll(() => app.close());

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
const drafts = (authorization: string) =>
  app.server.inject({ url: '/wp-json/calendar/events/v1/events?status=draft', headers: { authorization } }).then((r) => r.statusCode);


describe('verified credentials', () => {
  it('answers repeated requests without reading the user and passwords again', async () => {
    const user = await app.store.users.create({ login: 'cached', email: 'cached@example.test', displayName: 'c', role: 'editor', passwordHash: null });
    const { password } = await createAppPassword(app.store, user.id, 'cache test');
    // The first use is recorded (a write to the passwords, announced on the feed): let it settle.
    expect(await drafts(basic('cached', password))).toBe(200);
    await feedCaughtUp(app.store);
    const users = app.store.users as unknown as { withAppPasswords: (...a: unknown[]) => Promise<unknown> };
    const original = users.withAppPasswords.bind(users);
    let reads = 0;
    users.withAppPasswords = (...a) => (reads++, original(...a));
    try {
      for (let i = 0; i < 5; i++) expect(await drafts(basic('cached', password))).toBe(200);
      // Recording the first use changed the passwords: verified once more, then taken from the cache.
      expect(reads).toBe(1);
      expect(await drafts(basic('cached', `${password}x`))).toBe(401); // a wrong password is never taken from the cache
    } finally {
      users.withAppPasswords = original;
    }
  });

  it('refuses a revoked application password on the next requests', async () => {
    const user = await app.store.users.create({ login: 'revoked', email: 'revoked@example.test', displayName: 'r', role: 'editor', passwordHash: null });
    const { record, password } = await createAppPassword(app.store, user.id, 'to revoke');
    expect(await drafts(basic('revoked', password))).toBe(200);
    expect(await app.store.users.revokeAppPassword(user.id, record.uuid)).toBe(true);
    await eventually(async () => (await drafts(basic('revoked', password))) === 401);
  });

  it('sees a role change on the next requests', async () => {
    const user = await app.store.users.create({ login: 'demoted', email: 'demoted@example.test', displayName: 'd', role: 'editor', passwordHash: null });
    const { password } = await createAppPassword(app.store, user.id, 'to demote');
    expect(await drafts(basic('demoted', password))).toBe(200);
    await app.store.sql.query(`update users set role = 'subscriber' where id = $1`, [user.id]);
    await eventually(async () => (await drafts(basic('demoted', password))) === 400); // a subscriber may not list drafts
  });
});
