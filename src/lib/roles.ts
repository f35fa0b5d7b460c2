/** The legacy site's roles and the capabilities the contract's routes ask for. */
export const roles = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof roles)[number];

export type Capability =
  | 'read'
  | 'edit_posts' // create and edit one's own records
  | 'publish_posts'
  | 'edit_others_posts' // edit, delete and read others' and non-public records
  | 'read_private_posts'
  | 'delete_posts'
  | 'delete_others_posts'
  | 'manage_categories'
  | 'unfiltered_html' // post titles, content and excerpts stored without kses_init's filters (of which Lintel runs wp_kses_no_null: calendar-kses-markup)
  | 'manage_options'; // site administration (redirection, history, users)

const granted: Record<Role, readonly Capability[]> = {
  subscriber: ['read'],
  contributor: ['read', 'edit_posts', 'delete_posts'],
  author: ['read', 'edit_posts', 'delete_posts', 'publish_posts'],
  editor: ['read', 'edit_posts', 'delete_posts', 'publish_posts', 'edit_others_posts', 'read_private_posts', 'delete_others_posts', 'manage_categories', 'unfiltered_html'],
  administrator: ['read', 'edit_posts', 'delete_posts', 'publish_posts', 'edit_others_posts', 'read_private_posts', 'delete_others_posts', 'manage_categories', 'unfiltered_html', 'manage_options'],
};

export interface User {
  id: number;
  login: string;
  email: string;
  displayName: string;
  role: Role;
}

/** A legacy user as the legacy site shows it to an administrator (`wp/v2/users`, edit context). */
export interface LegacyUser {
  id: number;
  username: string;
  email: string;
  name: string;
  roles: string[];
}

/** The legacy user's first role Lintel has; a role only a plugin defined reads as subscriber. */
export function lintelRole(legacy: readonly string[]): Role {
  return legacy.find((r): r is Role => (roles as readonly string[]).includes(r)) ?? 'subscriber';
}

/** The Lintel user a legacy user is, with its legacy ID (the import of users and adopted legacy credentials). */
export const userOfLegacy = (u: LegacyUser): User => ({ id: u.id, login: u.username, email: u.email, displayName: u.name, role: lintelRole(u.roles) });

export function can(user: User | null, capability: Capability): boolean {
  return user !== null && granted[user.role].includes(capability);
}

/** Role slug to display name, as the legacy site lists its roles. */
export const roleDisplayNames: Record<Role, string> = Object.fromEntries(roles.map((r) => [r, r[0].toUpperCase() + r.slice(1)])) as Record<Role, string>;
