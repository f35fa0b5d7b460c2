import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStore } from '../test/support/store.ts';
import { callAdminSocket, listenAdminSocket, SOCKET_FILE, type AdminSocket } from './admin-socket.ts';
import { ManageError } from './manage.ts';
import type { OpenStore } from './store/store.ts';

let dir: string;
let store: OpenStore;
let socket: AdminSocket;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'lintel-admin-'));
  store = await testStore();
  socket = await listenAdminSocket(dir, store, pino({ level: 'silent' }));
});
afterAll(async () => {
  await socket?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A raw request on the socket: status and parsed body. */
function raw(pathname: string, body: string): Promise<{ status: number; body: { output?: string; error?: string } }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: socket.path, path: pathname, method: 'POST', agent: false }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('admin socket', () => {
  it('is a socket only its owner can use, in the data directory', () => {
    expect(socket.path).toBe(path.join(dir, SOCKET_FILE));
    const st = statSync(socket.path);
    expect(st.isSocket()).toBe(true);
    expect(st.mode & 0o777).toBe(0o600);
  });

  it('runs the management commands on the server\'s store', async () => {
    const out = await callAdminSocket(dir, 'user create', { login: 'sock', email: 'sock@e.test', role: 'editor', password: 'pw' });
    expect(out).toMatch(/^created user sock \(id \d+, editor\)\n$/);
    expect(await store.users.byLogin('sock')).toMatchObject({ email: 'sock@e.test', role: 'editor' });
    expect(await callAdminSocket(dir, 'user list', {})).toMatch(/\tsock\teditor\tsock@e\.test\n/);
  });

  it('answers refusals and bad arguments as errors the command line prints, never running the command', async () => {
    await expect(callAdminSocket(dir, 'app-password list', { login: 'nobody' })).rejects.toEqual(new ManageError('no user nobody'));
    await expect(callAdminSocket(dir, 'user create', { login: 'king', email: 'k@e.test', role: 'king' })).rejects.toThrow(/^bad arguments for user create: role: /);
    await expect(callAdminSocket(dir, 'app-password revoke', { login: 'sock', uuid: "x' or 1=1" })).rejects.toThrow(/^bad arguments for app-password revoke: uuid: /);
    expect(await store.users.byLogin('king')).toBeNull();
    expect(await raw('/user/create', '{not json')).toEqual({ status: 400, body: { error: 'the arguments are not JSON' } });
    expect(await raw('/user/delete', '{}')).toEqual({ status: 404, body: { error: 'unknown command: user delete' } });
    expect((await raw('/user/create', 'null')).status).toBe(400);
  });

  it('is answered by nobody once closed, and leaves no socket file', async () => {
    const other = mkdtempSync(path.join(tmpdir(), 'lintel-admin-'));
    try {
      const s = await listenAdminSocket(other, store, pino({ level: 'silent' }));
      await s.close();
      expect(existsSync(s.path)).toBe(false);
      expect(await callAdminSocket(other, 'user list', {})).toBeNull();
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
