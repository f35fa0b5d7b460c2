/**
 * The management commands of the command line (users, application passwords), as functions of a
 * store that return what to print. The CLI runs them on the store itself, or, when a server is
 * running on the same PGlite data directory, sends them to that server's admin socket, which runs
 * these same functions on its store (`src/admin-socket.ts`).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { createAppPassword } from './auth/app-passwords.ts';
import { hashLoginPassword } from './auth/login-passwords.ts';
import { roles } from './lib/roles.ts';
import { systemClock } from './clock.ts';
import { logAppPassword, logUserCreated, type Actor } from './audit/log.ts';
import type { Store } from './store/store.ts';
import type { Mode } from './store/namespace-modes.ts';
import { translators } from './namespaces/index.ts';

/** A refusal the user should read (printed without a stack, exit code 1). */
export class ManageError extends Error {}

export function fail(message: string): never {
  throw new ManageError(message);
}

/** Writes made from the command line are logged with the WP-CLI initiator, as the legacy loggers record them. */
const CLI_ACTOR: Actor = { user: null, ip: '', clock: systemClock, rest: false, initiator: 'wp_cli' };

const userCreate = z.object({
  login: z.string().min(1),
  email: z.string().min(1),
  role: z.enum(roles),
  displayName: z.string().optional(),
  password: z.string().optional(),
});
const ofUser = z.object({ login: z.string() });

async function userOf(store: Store, login: string) {
  return (await store.users.byLogin(login)) ?? fail(`no user ${login}`);
}

/** Each command: its arguments' schema and what it does; the result is the text to print. */
const commands = {
  'user create': {
    args: userCreate,
    async run(store: Store, o: z.infer<typeof userCreate>) {
      if (await store.users.byLogin(o.login)) fail(`user ${o.login} already exists`);
      if (await store.users.byEmail(o.email)) fail(`a user with the email ${o.email} already exists`);
      const password = o.password ?? randomBytes(12).toString('base64url');
      const passwordHash = await hashLoginPassword(password);
      const u = await store.transaction(async (tx) => {
        const created = await tx.users.create({ login: o.login, email: o.email, displayName: o.displayName ?? o.login, role: o.role, passwordHash });
        await logUserCreated(tx, CLI_ACTOR, created);
        return created;
      });
      return `created user ${u.login} (id ${u.id}, ${u.role})\n` + (o.password ? '' : `login password (shown once): ${password}\n`);
    },
  },
  'user list': {
    args: z.object({}),
    async run(store: Store) {
      return (await store.users.list()).map((u) => `${u.id}\t${u.login}\t${u.role}\t${u.email}\n`).join('');
    },
  },
  'app-password create': {
    args: ofUser.extend({ name: z.string().min(1) }),
    async run(store: Store, o: { login: string; name: string }) {
      const u = await userOf(store, o.login);
      const existing = await store.users.appPasswords(u.id);
      if (existing.some((p) => p.name.toLowerCase() === o.name.toLowerCase())) fail(`${o.login} already has an application password named "${o.name}"`);
      const { record, password } = await store.transaction((tx) => createAppPassword(tx, u.id, o.name, '', CLI_ACTOR));
      return `application password for ${o.login} ("${record.name}", uuid ${record.uuid}), shown once:\n${password}\n`;
    },
  },
  'app-password list': {
    args: ofUser,
    async run(store: Store, o: { login: string }) {
      const u = await userOf(store, o.login);
      return (await store.users.appPasswords(u.id))
        .map((p) => `${p.uuid}\t${p.name}\tcreated ${p.createdAt.toISOString()}\tlast used ${p.lastUsed?.toISOString() ?? 'never'}\n`)
        .join('');
    },
  },
  'app-password revoke': {
    args: ofUser.extend({ uuid: z.guid() }),
    async run(store: Store, o: { login: string; uuid: string }) {
      const u = await userOf(store, o.login);
      const name = (await store.users.appPasswords(u.id)).find((p) => p.uuid === o.uuid)?.name ?? o.uuid;
      const revoked = await store.transaction(async (tx) => {
        if (!(await tx.users.revokeAppPassword(u.id, o.uuid))) return false;
        await logAppPassword(tx, CLI_ACTOR, 'user_application_password_deleted', u, name);
        return true;
      });
      if (!revoked) fail(`no application password ${o.uuid} for ${o.login}`);
      return `revoked ${o.uuid}\n`;
    },
  },
  mode: {
    args: z.object({ namespace: z.string(), mode: z.enum(['translate', 'forward', 'shadow']), primary: z.enum(['legacy', 'lintel']).optional() }),
    async run(store: Store, o: { namespace: string; mode: Mode; primary?: 'legacy' | 'lintel' }) {
      if (!Object.hasOwn(translators, o.namespace)) fail(`no namespace ${o.namespace} (one of: ${Object.keys(translators).join(', ')})`);
      if (o.primary && o.mode !== 'shadow') fail('--primary is only read in shadow mode');
      // Every server on this store switches when the change feed announces the write.
      await store.modes.set({ namespace: o.namespace, mode: o.mode, primary: o.primary ?? null });
      return `${o.namespace}: ${o.mode}${o.mode === 'shadow' ? ` (primary ${o.primary ?? 'as mappings say'})` : ''}\n`;
    },
  },
  'mode list': {
    args: z.object({}),
    async run(store: Store) {
      return (await store.modes.list()).map((m) => `${m.namespace}\t${m.mode}${m.primary ? `\tprimary ${m.primary}` : ''}\n`).join('');
    },
  },
} as const;

export type ManageCommand = keyof typeof commands;

export const isManageCommand = (name: string): name is ManageCommand => Object.hasOwn(commands, name);

/** Runs a command on the store; its arguments are checked first, as they may come over the admin socket. */
export async function runManage(store: Store, command: ManageCommand, args: unknown): Promise<string> {
  const { args: schema, run } = commands[command] as { args: z.ZodType; run: (store: Store, o: unknown) => Promise<string> };
  const parsed = schema.safeParse(args);
  if (!parsed.success) fail(`bad arguments for ${command}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ')}`);
  return run(store, parsed.data);
}
