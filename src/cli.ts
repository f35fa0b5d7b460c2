/** The `lintel` command line: serve, and manage users and application passwords. */
import { Command, Option } from 'commander';
import { buildApp } from './app.ts';
import { createAppPassword } from './auth/app-passwords.ts';
import { hashLoginPassword } from './auth/login-passwords.ts';
import { roles } from './auth/roles.ts';
import { ensureAdmin, seedDemoOnce } from './bootstrap.ts';
import { pinnedClock, systemClock } from './clock.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openStore, type OpenStore } from './store/store.ts';

function config(): Config {
  try {
    return loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}

async function withStore<T>(fn: (store: OpenStore) => Promise<T>): Promise<T> {
  const store = await openStore(config());
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** A refusal the user should read: printed without a stack, exit code 1, after the store is closed. */
class CliError extends Error {}

function fail(message: string): never {
  throw new CliError(message);
}

const program = new Command('lintel').description('A gateway that serves a legacy content site\'s JSON API from PostgreSQL.');

program
  .command('serve', { isDefault: true })
  .description('Start the HTTP server (migrates the store; seeds demo data and an admin on first start).')
  .action(async () => {
    const cfg = config();
    const store = await openStore(cfg);
    const clock = cfg.clock ? pinnedClock(cfg.clock) : systemClock;
    const { server } = await buildApp({ config: cfg, store });
    if (cfg.demoData) await seedDemoOnce(store, clock);
    let address: string;
    try {
      address = await server.listen({ port: cfg.port, host: cfg.host });
    } catch (err) {
      server.log.fatal({ err }, 'cannot listen');
      await store.close();
      process.exit(1);
    }
    // PORT=0 picks a free port: without an explicit LINTEL_BASE_URL, links follow the real one.
    if (cfg.port === 0 && !process.env.LINTEL_BASE_URL) cfg.baseUrl = `http://localhost:${new URL(address).port}`;
    // Only once listening: credentials made before a failed start (port taken) would never be shown.
    const first = await ensureAdmin(store);
    if (first) {
      // Printed once, to the terminal, never to the log.
      process.stdout.write(
        [
          '',
          'Lintel created the administrator for this store. These are shown only now:',
          `  user:                 ${first.login}`,
          `  login password:       ${first.loginPassword}   (the authorize-application page)`,
          `  application password: ${first.appPassword}`,
          `  try: curl -u '${first.login}:${first.appPassword}' ${cfg.baseUrl}/${cfg.restPrefix}/`,
          '',
        ].join('\n') + '\n',
      );
    }
    server.log.info({ baseUrl: cfg.baseUrl, store: store.kind }, 'Lintel ready');
    let closing = false;
    const shutdown = async (signal: string) => {
      // A second signal while draining means "now".
      if (closing) process.exit(1);
      closing = true;
      server.log.info({ signal }, 'shutting down: finishing in-flight requests');
      try {
        await server.close();
        await store.close();
        server.log.info('shut down');
        process.exit(0);
      } catch (err) {
        server.log.error({ err }, 'shutdown failed');
        process.exit(1);
      }
    };
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
    process.on('SIGINT', () => void shutdown('SIGINT'));
  });

const user = program.command('user').description('Manage users.');
user
  .command('create')
  .description('Create a user; prints a generated login password unless --password is given.')
  .requiredOption('--login <login>', 'user name')
  .requiredOption('--email <email>', 'email address')
  .addOption(new Option('--role <role>', 'role').choices(roles).default('subscriber'))
  .option('--display-name <name>', 'display name (default: the login)')
  .option('--password <password>', 'login password for the authorize-application page')
  .action(async (o: { login: string; email: string; role: (typeof roles)[number]; displayName?: string; password?: string }) => {
    await withStore(async (store) => {
      if (await store.users.byLogin(o.login)) fail(`user ${o.login} already exists`);
      if (await store.users.byEmail(o.email)) fail(`a user with the email ${o.email} already exists`);
      const password = o.password ?? (await import('node:crypto')).randomBytes(12).toString('base64url');
      const u = await store.transaction((tx) =>
        hashLoginPassword(password).then((h) => tx.users.create({ login: o.login, email: o.email, displayName: o.displayName ?? o.login, role: o.role, passwordHash: h })),
      );
      process.stdout.write(`created user ${u.login} (id ${u.id}, ${u.role})\n`);
      if (!o.password) process.stdout.write(`login password (shown once): ${password}\n`);
    });
  });
user
  .command('list')
  .description('List users.')
  .action(async () => {
    await withStore(async (store) => {
      for (const u of await store.users.list()) process.stdout.write(`${u.id}\t${u.login}\t${u.role}\t${u.email}\n`);
    });
  });

const appPassword = program.command('app-password').description('Manage application passwords (HTTP Basic credentials).');
appPassword
  .command('create <user>')
  .description('Create an application password for a user; prints it once.')
  .option('--name <name>', 'application name', 'lintel cli')
  .action(async (login: string, o: { name: string }) => {
    await withStore(async (store) => {
      const u = await store.users.byLogin(login);
      if (!u) fail(`no user ${login}`);
      const existing = await store.users.appPasswords(u.id);
      if (existing.some((p) => p.name.toLowerCase() === o.name.toLowerCase())) fail(`${login} already has an application password named "${o.name}"`);
      const { record, password } = await store.transaction((tx) => createAppPassword(tx, u.id, o.name));
      process.stdout.write(`application password for ${login} ("${record.name}", uuid ${record.uuid}), shown once:\n${password}\n`);
    });
  });
appPassword
  .command('list <user>')
  .description('List a user\'s application passwords (never the secrets).')
  .action(async (login: string) => {
    await withStore(async (store) => {
      const u = (await store.users.byLogin(login)) ?? fail(`no user ${login}`);
      for (const p of await store.users.appPasswords(u.id)) {
        process.stdout.write(`${p.uuid}\t${p.name}\tcreated ${p.createdAt.toISOString()}\tlast used ${p.lastUsed?.toISOString() ?? 'never'}\n`);
      }
    });
  });
appPassword
  .command('revoke <user> <uuid>')
  .description('Revoke an application password.')
  .action(async (login: string, uuid: string) => {
    await withStore(async (store) => {
      const u = (await store.users.byLogin(login)) ?? fail(`no user ${login}`);
      if (!(await store.transaction((tx) => tx.users.revokeAppPassword(u.id, uuid)))) fail(`no application password ${uuid} for ${login}`);
      process.stdout.write(`revoked ${uuid}\n`);
    });
  });

program
  .command('migrate')
  .description('Apply pending store migrations and exit.')
  .action(async () => {
    await withStore(async (store) => process.stdout.write(`store (${store.kind}) is up to date\n`));
  });

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (!(e instanceof CliError)) throw e;
  process.stderr.write(`lintel: ${e.message}\n`);
  process.exitCode = 1;
}
