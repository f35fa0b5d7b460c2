/**
 * First start of an empty store: the demo content (when enabled) and an `admin` user whose
 * credentials are returned once, for the caller to print; they are never logged.
 */
import { randomBytes } from 'node:crypto';
import { createAppPassword } from './auth/app-passwords.ts';
import { hashLoginPassword } from './auth/login-passwords.ts';
import type { Clock } from './clock.ts';
import { demoSeeders } from './fixtures/demo.ts';
import type { Store } from './store/store.ts';

export interface FirstStart {
  login: string;
  loginPassword: string;
  appPassword: string;
}

export async function ensureAdmin(store: Store): Promise<FirstStart | null> {
  return store.transaction(async (tx) => {
    if ((await tx.users.count()) > 0) return null;
    const loginPassword = randomBytes(12).toString('base64url');
    const admin = await tx.users.create({
      id: 1,
      login: 'admin',
      email: 'admin@localhost.localdomain',
      displayName: 'admin',
      role: 'administrator',
      passwordHash: await hashLoginPassword(loginPassword),
    });
    const { password } = await createAppPassword(tx, admin.id, 'lintel first start');
    return { login: admin.login, loginPassword, appPassword: password };
  });
}

/** Loads the demo content once: a store that has ever been seeded (or has content) is left alone. */
export async function seedDemoOnce(store: Store, clock: Clock): Promise<boolean> {
  return store.transaction(async (tx) => {
    if (await tx.options.get('demo_seeded_at')) return false;
    for (const seed of demoSeeders) await seed(tx, clock);
    await tx.options.set('demo_seeded_at', clock.now().toISOString());
    return true;
  });
}
