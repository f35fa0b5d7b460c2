/**
 * The README's commands on the machines users have: `npm start` runs on the Node 24 that
 * `npm install` put in node_modules, SIGTERM to npm stops the server too, and `bin/lintel.js`
 * run directly on an old Node says what to do instead of failing deep inside a dependency.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listening, sandbox, type Sandbox } from './support/process.ts';
import { scaled } from './support/time.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

let box: Sandbox;
beforeAll(async () => {
  box = await sandbox({ PORT: '0', LINTEL_LOG_LEVEL: 'info', LINTEL_DEMO_DATA: 'false' });
});
afterAll(() => box.remove());

describe('the README commands', { timeout: scaled(120_000) }, () => {
  it('npm start serves on Node 24 from node_modules, and SIGTERM to npm stops the server', async () => {
    // PATH without the test runner's own Node first: npm must pick node_modules/.bin/node itself.
    const env = { ...box.env, PATH: process.env.PATH ?? '' };
    const npm = spawn('npm', ['start', '--silent'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    npm.stdout.on('data', (d) => (out += d));
    npm.stderr.on('data', () => {});
    const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
    const address = await listening({ child: npm, stdout: () => out, stderr: () => '', exited });
    const node = spawnSync(path.join(ROOT, 'node_modules/.bin/node'), ['--version'], { encoding: 'utf8' }).stdout.trim();
    expect(node).toMatch(/^v24\./);
    const pid = JSON.parse(out.split('\n').find((l) => l.includes('"Lintel ready"'))!).pid as number;
    expect(spawnSync('readlink', [`/proc/${pid}/exe`], { encoding: 'utf8' }).stdout).toContain('node_modules/node');

    // The log is written in batches: a request's line is still written when SIGTERM stops the server.
    expect((await fetch(`${address}/healthz`, { headers: { 'X-Request-Id': 'before-sigterm' } })).status).toBe(200);
    // A response-cache hit's line is written apart from pino (access-log.ts), through the same batches.
    const events = `${address}/wp-json/calendar/events/v1/events`;
    expect((await fetch(events)).status).toBe(200);
    expect((await fetch(events, { headers: { 'X-Request-Id': 'hit-before-sigterm' } })).status).toBe(200);
    npm.kill('SIGTERM');
    await exited;
    // The server itself has stopped: nothing answers, and its process is gone.
    await expect(fetch(`${address}/healthz`)).rejects.toThrow();
    expect(existsSync(`/proc/${pid}`)).toBe(false);
    const lines = out.trim().split('\n').map((l) => JSON.parse(l) as { msg: string; reqId?: string; cache?: string });
    const completed = lines.findIndex((l) => l.reqId === 'before-sigterm' && l.msg === 'request completed');
    expect(completed).toBeGreaterThan(0);
    expect(lines.find((l) => l.reqId === 'hit-before-sigterm')).toMatchObject({ msg: 'request completed', cache: 'hit', res: { statusCode: 200 } });
    expect(lines.findIndex((l) => l.msg === 'shut down')).toBeGreaterThan(completed);
  });

  const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find((p) => {
    if (!existsSync(p)) return false;
    const [major, minor] = spawnSync(p, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim().split('.').map(Number);
    return major! < 22 || (major === 22 && minor! < 18);
  });
  it.skipIf(!oldNode)('bin/lintel.js on an older Node exits 1 and says how to run it', () => {
    const r = spawnSync(oldNode!, [path.join(ROOT, 'bin/lintel.js'), 'serve'], { cwd: ROOT, env: box.env, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('lintel needs Node 22.18 or newer');
    expect(r.stderr).toContain('npm start');
    expect(r.stdout).toBe('');
  });
});
