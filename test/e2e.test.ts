/**
 * Lintel started as users start it (`node bin/lintel.js serve`), on a fresh store with demo data:
 * first-start credentials, the API, health checks, and a graceful SIGTERM.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listening, sandbox, type Sandbox } from './support/process.ts';
import { eventually } from './support/eventually.ts';
import { scaled } from './support/time.ts';

let box: Sandbox;
beforeAll(async () => {
  box = await sandbox({ PORT: '0', LINTEL_LOG_LEVEL: 'info' }, { fresh: true });
});
afterAll(() => box.remove());

const basic = (login: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` });

/** A POST whose body arrives in two parts: the request is in flight until `finish()`. */
function slowPost(address: string, path: string) {
  const body = JSON.stringify({ padding: 'x'.repeat(2000) });
  const req = request(`${address}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 1000));
  return { response, finish: () => req.end(body.slice(1000)) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface LogLine {
  msg?: string;
  cache?: string;
}
/** The JSON log lines a started server has finished printing. */
const logLines = (proc: { stdout(): string }): LogLine[] => proc.stdout().split('\n').slice(0, -1).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as LogLine);

describe('lintel serve, end to end', { timeout: scaled(180_000) }, () => {
  it('writes the admin credentials once to a 0600 file it names in the log, serves the API and health checks, and drains on SIGTERM', async () => {
    const server = box.start(['serve']);
    const address = await listening(server);
    // Without a terminal, stdout is the JSON log: the credentials go to a file the log names.
    const named = server.stdout().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { file?: string }).find((l) => l.file);
    const file = named?.file;
    expect(file).toBe(path.join(box.env.LINTEL_DATA_DIR!, 'first-start-credentials.txt'));
    expect(statSync(file!).mode & 0o777).toBe(0o600);
    const out = readFileSync(file!, 'utf8');
    const loginPassword = out.match(/^ {2}login password: +(\S+)/m)?.[1];
    const appPassword = out.match(/^ {2}application password: (([a-zA-Z0-9]{4} ){5}[a-zA-Z0-9]{4})$/m)?.[1];
    expect(out).toMatch(/^ {2}user: +admin$/m);
    expect(loginPassword).toBeDefined();
    expect(appPassword).toBeDefined();
    expect(out).toContain(`curl -u 'admin:${appPassword}' ${address.replace('127.0.0.1', 'localhost')}/wp-json/`);

    const index = await fetch(`${address}/wp-json/`);
    expect(index.status).toBe(200);
    const body = (await index.json()) as { url: string; routes: Record<string, unknown> };
    expect(body.url).toBe(address.replace('127.0.0.1', 'localhost'));
    expect(body.routes['/']).toBeDefined();
    expect((await fetch(`${address}/healthz`)).status).toBe(200);
    const ready = await fetch(`${address}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready' });

    const authed = await fetch(`${address}/wp-json/`, { headers: basic('admin', appPassword!) });
    expect(authed.status).toBe(200);
    expect(authed.headers.get('cache-control')).toContain('no-store'); // answered as the administrator
    expect((await fetch(`${address}/wp-json/`, { headers: basic('admin', loginPassword!) })).status).toBe(401);

    // SIGTERM with requests in flight: they are answered, then the process exits 0. The signal goes once the
    // server has received all 21 (its log says so), and the slow body ends once it is draining: on a busy
    // machine, a fixed wait could send the signal before a request had even connected.
    const seen = logLines(server).length;
    const slow = slowPost(address, '/wp-json/');
    // A request that fails shows its cause in the statuses compared below.
    const many = Array.from({ length: 20 }, () => fetch(`${address}/wp-json/`).then((r) => r.status, (e: Error) => String(e.cause ?? e)));
    const received = (e: LogLine) => e.msg === 'incoming request' || (e.msg === 'request completed' && e.cache === 'hit');
    const settled = Promise.all(many);
    let failed = false;
    void settled.then((statuses) => (failed = statuses.some((s) => s !== 200)));
    await eventually(() => failed || logLines(server).slice(seen).filter(received).length >= 21, 60_000);
    server.child.kill('SIGTERM');
    await eventually(() => logLines(server).some((e) => e.msg === 'shutting down: finishing in-flight requests'), 60_000);
    slow.finish();
    const answered = await slow.response;
    expect(answered.status).toBe(404); // the index takes GET only: a complete JSON answer, not a reset
    expect(JSON.parse(answered.body)).toMatchObject({ code: 'rest_no_route' });
    expect(await settled).toEqual(Array(20).fill(200));
    expect(await server.exited).toBe(0);
    await expect(fetch(`${address}/healthz`)).rejects.toThrow();

    // The log is JSON lines, and no secret is in it.
    const log = server.stdout().split('\n').filter((l) => l.startsWith('{'));
    expect(log.length).toBeGreaterThan(5);
    const secrets = [loginPassword!, appPassword!, appPassword!.replace(/ /g, '')];
    for (const line of [...log, server.stderr()]) for (const s of secrets) expect(line).not.toContain(s);
    expect(log.map((l) => JSON.parse(l).msg)).toContain('shut down');

    // A second start on the same store creates nothing and prints no credentials.
    const again = box.start(['serve']);
    const second = await listening(again);
    expect(again.stdout()).not.toContain('credentials');
    expect((await fetch(`${second}/wp-json/`, { headers: basic('admin', appPassword!) })).status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });

  it('prints the credentials on the terminal when there is one, and writes no file', async () => {
    const tty = await sandbox({ PORT: '0', LINTEL_LOG_LEVEL: 'info' });
    try {
      // `script` runs Lintel on a pseudo-terminal, as a user's shell does.
      const child = spawn('script', ['-qfec', `${process.execPath} bin/lintel.js serve`, '/dev/null'], { cwd: path.resolve(import.meta.dirname, '..'), env: tty.env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      const exited = new Promise((r) => child.on('exit', r));
      const deadline = Date.now() + scaled(60_000);
      while (!out.includes('Lintel ready') && Date.now() < deadline && child.exitCode === null) await sleep(100);
      expect(out).toMatch(/^ {2}application password: ([a-zA-Z0-9]{4} ){5}[a-zA-Z0-9]{4}\r?$/m);
      expect(existsSync(path.join(tty.env.LINTEL_DATA_DIR!, 'first-start-credentials.txt'))).toBe(false);
      child.kill('SIGTERM');
      await exited;
    } finally {
      await tty.remove();
    }
  });
});
