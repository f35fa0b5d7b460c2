/**
 * A Lintel for HTTP tests: the real app on a test store, driven with Fastify's `inject`, with
 * helpers to make users and their Basic credentials.
 */
import { buildApp, type App } from '../../src/app.ts';
import { createAppPassword } from '../../src/auth/app-passwords.ts';
import type { Role } from '../../src/lib/roles.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Mappings } from '../../src/mappings.ts';
import { loadMappings } from '../../src/mappings.ts';
import type { OpenStore } from '../../src/store/store.ts';
import { testStore } from './store.ts';

export interface TestApp extends App {
  store: OpenStore;
  config: Config;
  /** `Authorization` header value for a new user with the role (created on first use, per role). */
  auth(role?: Role): Promise<string>;
  close(): Promise<void>;
}

export const TEST_BASE = 'http://lintel.test';

export async function testApp(opts: { env?: Record<string, string>; mappings?: (m: Mappings) => Mappings; store?: OpenStore; logger?: object } = {}): Promise<TestApp> {
  const config = loadConfig({ LINTEL_BASE_URL: TEST_BASE, LINTEL_LOG_LEVEL: 'silent', LINTEL_DEMO_DATA: 'false', ...opts.env });
  const store = opts.store ?? (await testStore());
  const base = loadMappings(config.mappingsDir);
  const app = await buildApp({ config, store, mappings: opts.mappings ? opts.mappings(base) : base, logger: opts.logger ?? false }).catch(async (e: unknown) => {
    // A start refused (a configuration error) leaves no store open behind it.
    if (!opts.store) await store.close();
    throw e;
  });
  const creds = new Map<Role, string>();
  return {
    ...app,
    store,
    config,
    async auth(role: Role = 'administrator') {
      const known = creds.get(role);
      if (known) return known;
      const login = role === 'administrator' ? 'admin' : role;
      const user =
        (await store.users.byLogin(login)) ??
        (await store.users.create({ login, email: `${login}@example.test`, displayName: login, role, passwordHash: null }));
      const { password } = await createAppPassword(store, user.id, `test ${role}`);
      const header = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
      creds.set(role, header);
      return header;
    },
    async close() {
      await app.server.close();
      await store.close();
    },
  };
}
