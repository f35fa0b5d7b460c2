/**
 * The legacy site's users (`wp/v2/users`, edit context: administrators see logins, e-mails and
 * roles) with their IDs and roles, without passwords: the API never shows them. A user keeps the
 * first of its roles that Lintel knows; one without any (no role on the site) reads only, as a subscriber.
 */
import { userOfLegacy, type LegacyUser, type User } from '../lib/roles.ts';
import type { LegacyClient } from './client.ts';
import type { ImportResource } from './resource.ts';

/** The list's largest page. */
const PER_PAGE = 100;

function userResource(client: LegacyClient): ImportResource<User> {
  return {
    name: 'users.users',
    family: 'users',
    async fetchPage(page) {
      const l = await client.list<LegacyUser>('wp/v2/users', { context: 'edit', orderby: 'id', order: 'asc', per_page: PER_PAGE, page, _fields: 'id,username,email,name,roles' });
      return { page, records: l.items.map(userOfLegacy), total: l.total, totalPages: l.totalPages };
    },
    writeBatch: async (store, rows) => void (await store.users.importUsers(rows)),
    async sample(store, ids) {
      const out = new Map<number, User>();
      for (const u of await store.users.list()) if (ids.includes(u.id)) out.set(u.id, { id: u.id, login: u.login, email: u.email, displayName: u.displayName, role: u.role });
      return out;
    },
    storedIds: async (store) => (await store.users.list()).map((u) => u.id),
    remove: (store, ids) => store.users.delete(ids),
  };
}

export function userResources(client: LegacyClient): ImportResource[] {
  return [userResource(client)] as ImportResource[];
}
