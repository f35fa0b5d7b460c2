/**
 * A throwaway PostgreSQL cluster of a test's own, on a free port and a data folder under the
 * system's temporary folder, that the test may stop, start, freeze and thaw (store outage tests).
 * As root, the server runs as the `postgres` user (initdb refuses root), as `.ci/run` does.
 */
import { execFile as execFileCb } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFile = promisify(execFileCb);

/** The newest PostgreSQL server binaries installed the Debian way, or null. */
export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin/initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], 'bin') : null;
}

export interface Cluster {
  url: string;
  /** An immediate shutdown: the server dies as in a crash. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Suspends the server and its backends: connections stay open and nothing answers. */
  freeze(): void;
  thaw(): void;
  /** Stops the server (whatever its state) and removes its files. */
  remove(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startCluster(bin: string): Promise<Cluster> {
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) =>
    asRoot ? execFile('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args], { timeout: 60_000 }) : execFile(path.join(bin, tool), args, { timeout: 60_000 });
  const dir = mkdtempSync(path.join(tmpdir(), 'lintel-pg-'));
  if (asRoot) await execFile('chown', ['postgres', dir]);
  const port = await freePort();
  const pids = (): number[] => {
    const postmaster = Number(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          // Field 4 of /proc/PID/stat is the parent; the command name (field 2) may hold spaces, so count after its ')'.
          const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
        } catch {
          return false;
        }
      })
      .map(Number);
    return [postmaster, ...children];
  };
  const signal = (sig: NodeJS.Signals) => {
    for (const pid of pids()) {
      try {
        process.kill(pid, sig);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e; // a backend that just ended
      }
    }
  };
  // Should the test runner exit without its cleanup, the server goes with it.
  const onExit = () => {
    try {
      signal('SIGCONT');
      process.kill(pids()[0], 'SIGQUIT');
    } catch {
      // already stopped
    }
  };
  const cluster: Cluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: async () => {
      await run('pg_ctl', ['-D', dir, '-l', path.join(dir, 'server.log'), '-o', `-k ${dir} -p ${port} -h 127.0.0.1 -c fsync=off`, '-w', '-t', '30', 'start']);
    },
    stop: async () => {
      await run('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']);
    },
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    remove: async () => {
      process.off('exit', onExit);
      if (existsSync(path.join(dir, 'postmaster.pid'))) {
        signal('SIGCONT');
        await cluster.stop().catch(() => {});
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await run('initdb', ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    await cluster.start();
    process.on('exit', onExit);
  } catch (e) {
    await cluster.remove();
    throw e;
  }
  return cluster;
}
