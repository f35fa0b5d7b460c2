import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { runCli } from '../src/cli.ts';
import { openStore } from '../src/store/store.ts';
import { listening, sandbox, type Sandbox } from './support/process.ts';
import { storeConfig, storeLane } from './support/store.ts';
import { scaled } from './support/time.ts';

let box: Sandbox;
beforeAll(async () => {
  box = await sandbox({ LINTEL_DEMO_DATA: 'false', PORT: '0', LINTEL_LOG_LEVEL: 'info' });
});
afterAll(() => box.remove());

/**
 * Runs a command as `lintel` does, in this process, with the sandbox's settings: what a command does is
 * the subject, and a child per command cost a Node start and the app's modules each. The servers, and the
 * commands whose subject is the process itself (the bin file, its exit code), run as children.
 */
async function lintel(args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const collect = () => {
    const chunks: string[] = [];
    const stream = new Writable({ write: (chunk: Buffer | string, _encoding, done) => (chunks.push(String(chunk)), done()) });
    return { stream, text: () => chunks.join('') };
  };
  const [out, err] = [collect(), collect()];
  const code = await runCli(args, { env: { ...box.env, ...extraEnv }, stdout: out.stream, stderr: err.stream });
  return { code, stdout: out.text(), stderr: err.text() };
}

// Each command opens the store (PGlite on disk: a few seconds on a busy machine).
describe('lintel command line', { timeout: scaled(120_000) }, () => {
  it('--help lists the commands', async () => {
    const { code, stdout } = await lintel(['--help']);
    expect(code).toBe(0);
    for (const command of ['serve', 'user', 'app-password', 'migrate']) expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    // The settings are read only by a command that needs them.
    expect((await lintel(['--help'], { PORT: 'eighty' })).code).toBe(0);
  });

  it('--version prints the package version (bin/lintel.js as a user runs it)', async () => {
    const { code, stdout } = await box.run(['--version']);
    expect(code).toBe(0);
    const { version } = JSON.parse(readFileSync(path.join(import.meta.dirname, '../package.json'), 'utf8')) as { version: string };
    expect(stdout).toBe(`${version}\n`);
  });

  it('creates a user and an application password, shown once, that authenticates against the server', async () => {
    const created = await lintel(['user', 'create', '--login', 'x', '--email', 'x@e.test', '--role', 'editor']);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^created user x \(id \d+, editor\)$/m);
    expect(created.stdout).toMatch(/^login password \(shown once\): \S{16}$/m);

    const pw = await lintel(['app-password', 'create', 'x']);
    expect(pw.code).toBe(0);
    const lines = pw.stdout.trim().split('\n');
    const password = lines.at(-1)!;
    expect(password).toHaveLength(29);
    expect(password).toMatch(/^([a-zA-Z0-9]{4} ){5}[a-zA-Z0-9]{4}$/);
    const listed = await lintel(['app-password', 'list', 'x']);
    expect(listed.stdout).toContain('lintel cli');
    expect(listed.stdout).not.toContain(password);
    expect(listed.stdout).not.toContain(password.replace(/ /g, ''));

    const server = box.start(['serve']);
    try {
      const address = await listening(server);
      const basic = (p: string) => ({ authorization: `Basic ${Buffer.from(`x:${p}`).toString('base64')}` });
      const ok = await fetch(`${address}/wp-json/`, { headers: basic(password) });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('cache-control')).toContain('no-store'); // answered as a logged-in user
      const bad = await fetch(`${address}/wp-json/`, { headers: basic('aaaa bbbb cccc dddd eeee ffff') });
      expect(bad.status).toBe(401);
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });

  it('refuses to create a user whose login exists, with exit code 1 and a one-line reason', async () => {
    const again = await lintel(['user', 'create', '--login', 'x', '--email', 'other@e.test']);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('lintel: user x already exists\n');
    const email = await lintel(['user', 'create', '--login', 'y', '--email', 'x@e.test']);
    expect(email.code).toBe(1);
    expect(email.stderr).toBe('lintel: a user with the email x@e.test already exists\n');
    expect((await lintel(['app-password', 'create', 'nobody'])).code).toBe(1);
  });

  // Two server starts and a dozen commands: longer than the others on a busy machine.
  it('manages users and application passwords while the server runs: effective at once, and kept after a restart', { timeout: scaled(300_000) }, async () => {
    const server = box.start(['serve']);
    const basic = (login: string, p: string) => ({ authorization: `Basic ${Buffer.from(`${login}:${p}`).toString('base64')}` });
    let address = await listening(server);
    let password: string;
    let revoked: string;
    try {
      const created = await lintel(['user', 'create', '--login', 'live', '--email', 'live@e.test', '--role', 'author', '--password', 'pw-live-1']);
      expect(created).toMatchObject({ code: 0, stderr: '' });
      expect(created.stdout).toMatch(/^created user live \(id \d+, author\)\n$/);
      const pw = await lintel(['app-password', 'create', 'live', '--name', 'phone']);
      expect(pw.code).toBe(0);
      password = pw.stdout.trim().split('\n').at(-1)!;
      const authed = await fetch(`${address}/wp-json/`, { headers: basic('live', password) });
      expect(authed.status).toBe(200);
      expect(authed.headers.get('cache-control')).toContain('no-store'); // the server knows the user at once
      expect((await lintel(['user', 'list'])).stdout).toMatch(/^\d+\tlive\tauthor\tlive@e\.test$/m);

      // Revoking is effective at once too; refusals come back as the command line's own.
      revoked = (await lintel(['app-password', 'create', 'live', '--name', 'laptop'])).stdout.trim().split('\n').at(-1)!;
      const uuid = (await lintel(['app-password', 'list', 'live'])).stdout.match(/^(\S+)\tlaptop\t/m)![1];
      expect(await lintel(['app-password', 'revoke', 'live', uuid])).toMatchObject({ code: 0, stdout: `revoked ${uuid}\n` });
      expect((await fetch(`${address}/wp-json/`, { headers: basic('live', revoked) })).status).toBe(401);
      expect(await lintel(['user', 'create', '--login', 'live', '--email', 'other@e.test'])).toMatchObject({ code: 1, stderr: 'lintel: user live already exists\n' });
      expect(await lintel(['app-password', 'revoke', 'live', 'not-a-uuid'])).toMatchObject({ code: 1 });

      if (storeLane === 'pglite') {
        // Anything else that would open the embedded database beside the server is refused.
        const migrate = await lintel(['migrate']);
        expect(migrate.code).toBe(1);
        expect(migrate.stderr).toContain(`Lintel is running on this data directory (${box.env.LINTEL_DATA_DIR}, pid ${server.child.pid}): stop it`);
        expect(migrate.stderr.split('\n').filter(Boolean)).toHaveLength(1); // no stack trace
      }
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
    expect(existsSync(path.join(box.env.LINTEL_DATA_DIR, 'lintel.pid'))).toBe(false);
    expect(existsSync(path.join(box.env.LINTEL_DATA_DIR, 'lintel.sock'))).toBe(false);

    const again = box.start(['serve']);
    try {
      address = await listening(again);
      expect((await fetch(`${address}/wp-json/`, { headers: basic('live', password) })).status).toBe(200);
      expect((await fetch(`${address}/wp-json/`, { headers: basic('live', revoked) })).status).toBe(401);
    } finally {
      again.child.kill('SIGTERM');
      expect(await again.exited).toBe(0);
    }
  });

  it('prints the shadow report: match rates per route and the top differences', async () => {
    expect((await lintel(['migrate'])).code).toBe(0);
    const store = await openStore(storeConfig({ databaseUrl: box.env.DATABASE_URL, dataDir: box.env.LINTEL_DATA_DIR, poolSize: 1 }));
    try {
      const answer = { status: 200, headers: {}, body: '{}' };
      const compared = { namespace: 'history/v1', route: 'GET /history/v1/events/{n}', method: 'GET', url: '/wp-json/history/v1/events/22', primarySide: 'legacy' as const, primary: answer, shadow: answer };
      await store.shadow.record({ ...compared, differences: [] }, new Date());
      await store.shadow.record({ ...compared, differences: [{ path: '$.message', expected: 'a', actual: 'b' }] }, new Date());
    } finally {
      await store.close();
    }
    const { code, stdout } = await lintel(['shadow', 'report']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\s+50\.0%\s+1\/2\s+history\/v1\s+GET \/history\/v1\/events\/\{n\}$/m);
    expect(stdout).toMatch(/^\s+1\s+GET \/history\/v1\/events\/\{n\}\s+\$\.message$/m);
  });

  it('stops with exit code 2 and names the bad setting (the process\'s exit code)', async () => {
    const { code, stderr } = await box.run(['migrate'], { PORT: 'eighty' });
    expect(code).toBe(2);
    expect(stderr).toContain('PORT="eighty"');
  });

  // Each failure is one line on stderr (no stack trace) and a non-zero exit, as a bad setting is.
  describe('start-up failures', () => {
    const oneLine = (stderr: string) => {
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      return stderr.trimEnd();
    };

    it('a database that does not answer', async () => {
      // Port 1 on loopback: nothing listens, the connection is refused at once.
      const { code, stderr } = await lintel(['serve'], { DATABASE_URL: 'postgres://lintel:secret@127.0.0.1:1/lintel' });
      expect(code).toBe(1);
      expect(oneLine(stderr)).toBe('Cannot start: cannot reach the database at postgres://lintel:***@127.0.0.1:1/lintel: connect ECONNREFUSED 127.0.0.1:1');
    });

    it.skipIf(storeLane !== 'postgres')('a database server that refuses the database named (PostgreSQL lane only: it needs a server)', async () => {
      const url = new URL(box.env.DATABASE_URL!);
      url.pathname = '/lintel_no_such_database';
      const { code, stderr } = await lintel(['serve'], { DATABASE_URL: url.href });
      expect(code).toBe(1);
      expect(oneLine(stderr)).toMatch(/^Cannot start: the database at .* refused Lintel: database "lintel_no_such_database" does not exist \(SQLSTATE 3D000\)$/);
    });

    it('a missing LINTEL_SHOP_PRODUCTS file: a configuration error, naming the setting', async () => {
      const { code, stderr } = await lintel(['serve'], { LINTEL_SHOP_PRODUCTS: '/nonexistent/products.json' });
      expect(code).toBe(2);
      expect(stderr.trimEnd().split('\n')).toEqual(['Invalid configuration:', "  LINTEL_SHOP_PRODUCTS=/nonexistent/products.json: cannot read it as JSON: ENOENT: no such file or directory, open '/nonexistent/products.json'"]);
    });

    it('a mappings folder without its files', async () => {
      const { code, stderr } = await lintel(['serve'], { LINTEL_MAPPINGS_DIR: '/nonexistent' });
      expect(code).toBe(1);
      expect(oneLine(stderr)).toBe('Cannot start: cannot read /nonexistent/namespaces.json: no such file or directory');
    });
  });
});
