import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listening, sandbox, type Sandbox } from './support/process.ts';

let box: Sandbox;
beforeAll(async () => {
  box = await sandbox({ LINTEL_DEMO_DATA: 'false', PORT: '0', LINTEL_LOG_LEVEL: 'info' });
});
afterAll(() => box.remove());

// Each command opens the store (PGlite on disk: a few seconds on a busy machine).
describe('lintel command line', { timeout: 120_000 }, () => {
  it('--help lists the commands', async () => {
    const { code, stdout } = await box.run(['--help']);
    expect(code).toBe(0);
    for (const command of ['serve', 'user', 'app-password', 'migrate']) expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
  });

  it('creates a user and an application password, shown once, that authenticates against the server', async () => {
    const created = await box.run(['user', 'create', '--login', 'x', '--email', 'x@e.test', '--role', 'editor']);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^created user x \(id \d+, editor\)$/m);
    expect(created.stdout).toMatch(/^login password \(shown once\): \S{16}$/m);

    const pw = await box.run(['app-password', 'create', 'x']);
    expect(pw.code).toBe(0);
    const lines = pw.stdout.trim().split('\n');
    const password = lines.at(-1)!;
    expect(password).toHaveLength(29);
    expect(password).toMatch(/^([a-zA-Z0-9]{4} ){5}[a-zA-Z0-9]{4}$/);
    const listed = await box.run(['app-password', 'list', 'x']);
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
    const again = await box.run(['user', 'create', '--login', 'x', '--email', 'other@e.test']);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('lintel: user x already exists\n');
    const email = await box.run(['user', 'create', '--login', 'y', '--email', 'x@e.test']);
    expect(email.code).toBe(1);
    expect(email.stderr).toBe('lintel: a user with the email x@e.test already exists\n');
    expect((await box.run(['app-password', 'create', 'nobody'])).code).toBe(1);
  });

  it('stops with exit code 2 and names the bad setting', async () => {
    const { code, stderr } = await box.run(['migrate'], { PORT: 'eighty' });
    expect(code).toBe(2);
    expect(stderr).toContain('PORT="eighty"');
  });
});
