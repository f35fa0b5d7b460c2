/** The `lintel` command line: serve, and manage users and application passwords. */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Command, CommanderError, Option } from 'commander';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from './app.ts';
import { callAdminSocket, listenAdminSocket } from './admin-socket.ts';
import { roles } from './lib/roles.ts';
import { ensureAdmin, seedDemoOnce, type FirstStart } from './bootstrap.ts';
import { pinnedClock, systemClock } from './clock.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { fail, ManageError, runManage, type ManageCommand } from './manage.ts';
import { DataDirLocked, lockHolder } from './store/data-dir-lock.ts';
import { ImportError, LegacyClient } from './import/client.ts';
import { FAMILIES, barProgress, importResources, jsonProgress, type Family } from './import/index.ts';
import { runImport, verifyImport } from './import/resource.ts';
import { formatShadowReport } from './namespaces/lintel/shadow.ts';
import { openStore, type OpenStore } from './store/store.ts';
import { startupFailure } from './startup-errors.ts';
import packageJson from '../package.json' with { type: 'json' };

/**
 * Where a run of the command line reads its settings and writes its output: the process's own
 * (bin/lintel.js), or a test's, which runs the commands in its own process.
 */
export interface CliIo {
  env: Record<string, string | undefined>;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
}

/**
 * What the commands of one run share: the settings, read once, when a command first needs them (help,
 * version and usage errors never depend on them), and the store they open.
 */
class CliRun {
  readonly io: CliIo;
  private cfg: Config | undefined;
  constructor(io: CliIo) {
    this.io = io;
  }

  get config(): Config {
    this.cfg ??= loadConfig(this.io.env);
    return this.cfg;
  }

  /** Runs `fn` on the configured store, closed after. */
  async withStore<T>(fn: (store: OpenStore) => Promise<T>): Promise<T> {
    const store = await openStore(this.config);
    try {
      return await fn(store);
    } finally {
      await store.close();
    }
  }

  /**
   * Runs a management command on the store, or, when a server is running on this PGlite data
   * directory (and so holds it), through that server's admin socket: it works without a stop.
   */
  async manage(command: ManageCommand, args: object): Promise<void> {
    const cfg = this.config;
    const holder = cfg.databaseUrl ? null : lockHolder(cfg.dataDir);
    if (holder === null) {
      this.io.stdout.write(await this.withStore((store) => runManage(store, command, args)));
      return;
    }
    const output = await callAdminSocket(cfg.dataDir, command, args);
    if (output === null) throw new DataDirLocked(cfg.dataDir, holder);
    this.io.stdout.write(output);
  }
}

const CREDENTIALS_FILE = 'first-start-credentials.txt';

/**
 * The administrator's credentials, made on the first start, are shown once: on the terminal, or
 * (stdout is a log collector) in a file only the owner can read, whose path the log names. The
 * log never holds them.
 */
function showFirstCredentials(io: CliIo, first: FirstStart, cfg: Config, log: FastifyBaseLogger): void {
  const text = [
    'Lintel created the administrator for this store. These are shown only now:',
    `  user:                 ${first.login}`,
    `  login password:       ${first.loginPassword}   (the authorize-application page)`,
    `  application password: ${first.appPassword}`,
    `  try: curl -u '${first.login}:${first.appPassword}' ${cfg.baseUrl}/${cfg.restPrefix}/`,
  ].join('\n');
  if (io.stdout.isTTY) {
    io.stdout.write(`\n${text}\n\n`);
    return;
  }
  const file = path.join(cfg.dataDir, CREDENTIALS_FILE);
  mkdirSync(cfg.dataDir, { recursive: true });
  writeFileSync(file, `${text}\n`, { mode: 0o600 });
  // An existing file keeps its mode on write.
  chmodSync(file, 0o600);
  log.warn({ file }, 'first start: the administrator\'s credentials are in this file (readable by this user only); read it, then delete it');
}

/** The command line, its output and settings from `io`: a fresh one per run (Commander keeps what it parsed). */
function cliProgram(io: CliIo, outcome: { exitCode: number }): Command {
  const run = new CliRun(io);
  const program = new Command('lintel')
    .description('A gateway that serves a legacy content site\'s JSON API from PostgreSQL.')
    .version(packageJson.version, '-V, --version')
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    // Help, version and usage errors end the run with their exit code instead of exiting the process.
    .exitOverride();

  program
    .command('serve', { isDefault: true })
    .description('Start the HTTP server (migrates the store; seeds demo data and an admin on first start).')
    .action(async () => {
      const cfg = run.config;
      const store = await openStore(cfg);
      const clock = cfg.clock ? pinnedClock(cfg.clock) : systemClock;
      // A start that fails (a file the namespaces read) closes the store, so the process can exit.
      const { server } = await buildApp({ config: cfg, store }).catch(async (e: unknown) => {
        await store.close();
        throw e;
      });
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
      if (cfg.port === 0 && !io.env.LINTEL_BASE_URL) cfg.baseUrl = `http://localhost:${new URL(address).port}`;
      // Only once listening: credentials made before a failed start (port taken) would never be shown.
      const first = await ensureAdmin(store);
      if (first) showFirstCredentials(io, first, cfg, server.log);
      // Only the embedded store needs it: on PostgreSQL the command line opens the database itself.
      const admin =
        store.kind === 'pglite'
          ? await listenAdminSocket(cfg.dataDir, store, server.log).catch((err: unknown) => {
              server.log.warn({ err }, 'no admin socket: user and app-password commands need this server stopped');
              return null;
            })
          : null;
      server.log.info({ baseUrl: cfg.baseUrl, store: store.kind }, 'Lintel ready');
      let closing = false;
      const shutdown = async (signal: string) => {
        // A second signal while draining means "now".
        if (closing) process.exit(1);
        closing = true;
        server.log.info({ signal }, 'shutting down: finishing in-flight requests');
        try {
          await server.close();
          await admin?.close();
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
    .action((o: { login: string; email: string; role: (typeof roles)[number]; displayName?: string; password?: string }) => run.manage('user create', o));
  user
    .command('list')
    .description('List users.')
    .action(() => run.manage('user list', {}));

  const appPassword = program.command('app-password').description('Manage application passwords (HTTP Basic credentials).');
  appPassword
    .command('create <user>')
    .description('Create an application password for a user; prints it once.')
    .option('--name <name>', 'application name', 'lintel cli')
    .action((login: string, o: { name: string }) => run.manage('app-password create', { login, name: o.name }));
  appPassword
    .command('list <user>')
    .description('List a user\'s application passwords (never the secrets).')
    .action((login: string) => run.manage('app-password list', { login }));
  appPassword
    .command('revoke <user> <uuid>')
    .description('Revoke an application password.')
    .action((login: string, uuid: string) => run.manage('app-password revoke', { login, uuid }));

  program
    .command('mode [namespace] [mode]')
    .description('Switch a namespace to forward, shadow or translate on every running server (overrides mappings/); without arguments, list the switched ones.')
    .addOption(new Option('--primary <side>', 'shadow: which side answers clients').choices(['legacy', 'lintel']))
    .action((namespace: string | undefined, mode: string | undefined, o: { primary?: string }) =>
      namespace === undefined ? run.manage('mode list', {}) : run.manage('mode', { namespace, mode, primary: o.primary }),
    );

  const shadow = program.command('shadow').description('Shadow mode (mappings/ "mode": "shadow").');
  shadow
    .command('report')
    .description('Print per-route match rates of shadowed reads and the most frequent differences.')
    .option('--limit <n>', 'how many differences to list', '20')
    .action(async (o: { limit: string }) => {
      const limit = Number(o.limit);
      if (!Number.isInteger(limit) || limit < 1) fail('--limit expects a whole number from 1');
      await run.withStore(async (store) => io.stdout.write(formatShadowReport(await store.shadow.report(limit))));
    });

  program
    .command('migrate')
    .description('Apply pending store migrations and exit.')
    .action(async () => {
      await run.withStore(async (store) => io.stdout.write(`store (${store.kind}) is up to date\n`));
    });

  program
    .command('import')
    .description('Sync the legacy site\'s data into the store through its REST API (as an administrator): IDs are kept, a run after a complete one writes only what changed and carries deletions, an interrupted run resumes.')
    .requiredOption('--from <url>', 'the legacy site\'s base URL (its REST API is under {url}/wp-json/)')
    .requiredOption('--user <login>', 'an administrator of the legacy site')
    .requiredOption('--app-password <password>', 'that user\'s application password')
    .option('--only <families>', `comma-separated: ${Object.keys(FAMILIES).join(', ')}`)
    .option('--restart', 'ignore the checkpoints of an interrupted import and start from the first page')
    .option('--full', 'read and write every record, as the first run does, instead of only what changed')
    .option('--verify', 'instead of importing, compare every record of both sides and print the differences as JSON lines (exit 1 when there are any)')
    .option('--batch-size <n>', 'records per transaction', '500')
    .option('--concurrency <n>', 'requests to the legacy site in flight at most (pages fetched ahead of the one being written)', '4')
    .action(async (o: { from: string; user: string; appPassword: string; only?: string; restart?: boolean; full?: boolean; verify?: boolean; batchSize: string; concurrency: string }) => {
      const only = o.only ? o.only.split(',').map((f) => f.trim()).filter(Boolean) : (Object.keys(FAMILIES) as Family[]);
      const unknown = only.filter((f) => !(f in FAMILIES));
      if (unknown.length) fail(`--only: unknown ${unknown.join(', ')} (known: ${Object.keys(FAMILIES).join(', ')})`);
      const batchSize = Number(o.batchSize);
      if (!Number.isInteger(batchSize) || batchSize < 1) fail('--batch-size must be a positive integer');
      const concurrency = Number(o.concurrency);
      if (!Number.isInteger(concurrency) || concurrency < 1) fail('--concurrency must be a positive integer');
      let client: LegacyClient;
      try {
        client = new LegacyClient(o.from, o.user, o.appPassword, { maxInFlight: concurrency });
      } catch (e) {
        fail((e as Error).message);
      }
      const resources = importResources(client, only as Family[]);
      // The import's memory stays flat whatever the site's size (measured from outside on a 2-core
      // machine, bench/import.ts). Lazy: V8 compiles only the functions of PGlite's WebAssembly that run,
      // when they first run, instead of all of them at once on every core (that alone peaked at 560 MB
      // before any record was read; 140 MB lazily). Optimize-for-size: V8 collects before growing its
      // heap (the live heap is about 50 MB, but its default policy let it reach 190 MB on 20k events).
      for (const flag of ['--wasm-lazy-compilation', '--optimize-for-size']) setFlagsFromString(flag);
      await run.withStore(async (store) => {
        try {
          if (o.verify) {
            const diffs = await verifyImport(store, resources, concurrency);
            for (const d of diffs) io.stdout.write(`${JSON.stringify(d)}\n`);
            io.stdout.write(diffs.length ? `${diffs.length} difference(s)\n` : 'no differences\n');
            if (diffs.length) outcome.exitCode = 1;
            return;
          }
          // Ctrl-C stops after the batch being written; the checkpoint is kept for the next run.
          const abort = new AbortController();
          const stop = () => abort.abort();
          process.once('SIGINT', stop);
          process.once('SIGTERM', stop);
          // A stream on a terminal is the process's own (a tty.WriteStream).
          const progress = io.stdout.isTTY ? barProgress(io.stdout as NodeJS.WriteStream) : jsonProgress(io.stdout);
          try {
            const summary = await runImport({ store, source: client.base, resources, restart: o.restart, full: o.full, batchSize, concurrency, signal: abort.signal, onProgress: progress.onProgress });
            progress.stop();
            const rate = summary.seconds > 0 ? Math.round(summary.records / summary.seconds) : summary.records;
            for (const r of summary.resources) io.stdout.write(`${r.name}: ${r.fetched} read, ${r.written} written, ${r.removed} removed${r.incremental ? ' (incremental)' : ''}\n`);
            io.stdout.write(`read ${summary.records} records in ${summary.seconds.toFixed(1)} s (${rate} records/s)\n`);
          } catch (e) {
            progress.stop();
            if (abort.signal.aborted) fail('import interrupted; run the same command again to resume');
            throw e;
          } finally {
            process.off('SIGINT', stop);
            process.off('SIGTERM', stop);
          }
        } catch (e) {
          if (e instanceof ImportError) fail(e.message);
          throw e;
        }
      });
    });

  return program;
}

/** Runs the command line on `args` (the words after `lintel`); resolves to the exit code. */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  const outcome = { exitCode: 0 };
  try {
    await cliProgram(io, outcome).parseAsync(args, { from: 'user' });
    return outcome.exitCode;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode;
    if (e instanceof ManageError || e instanceof DataDirLocked) {
      io.stderr.write(`lintel: ${e.message}\n`);
      return 1;
    }
    const failure = startupFailure(e, io.env.DATABASE_URL);
    if (failure === null) throw e;
    io.stderr.write(`${failure}\n`);
    return e instanceof ConfigError ? 2 : 1;
  }
}
