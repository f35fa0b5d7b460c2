/**
 * The admin socket. While `lintel serve` runs on a PGlite data directory it alone may open the
 * database (see `store/data-dir-lock.ts`), so the command line's management commands reach it
 * here: a Unix socket in the data directory, mode 0600 (only the owner of the data can use it).
 * The protocol is minimal: `POST /<command words>` (`/user/create`) with the arguments as JSON;
 * the answer is 200 `{output}` (the text to print) or 4xx/5xx `{error}`. The server runs the same
 * functions as the command line does on the store itself (`manage.ts`).
 */
import { chmodSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { isManageCommand, ManageError, runManage, type ManageCommand } from './manage.ts';
import type { Store } from './store/store.ts';

export const SOCKET_FILE = 'lintel.sock';
const MAX_BODY = 64 * 1024;

export interface AdminSocket {
  readonly path: string;
  close(): Promise<void>;
}

/** Serves the management commands on `<dataDir>/lintel.sock` (call only while holding the data directory's lock). */
export async function listenAdminSocket(dataDir: string, store: Store, log: FastifyBaseLogger): Promise<AdminSocket> {
  const file = path.join(dataDir, SOCKET_FILE);
  // This process holds the data directory's lock: a socket file already there is a crashed server's.
  rmSync(file, { force: true });
  // A client that goes away mid-request must not take the server down with an unhandled rejection.
  const server = createServer((req, res) =>
    answer(req, res).catch((err: unknown) => {
      log.warn({ err }, 'admin socket request failed');
      res.destroy();
    }),
  );

  async function answer(req: IncomingMessage, res: ServerResponse) {
    const send = (status: number, body: object) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const command = (req.url ?? '').slice(1).split('/').join(' ');
    if (req.method !== 'POST' || !isManageCommand(command)) return send(404, { error: `unknown command: ${command}` });
    let body = '';
    for await (const chunk of req) {
      body += chunk;
      if (body.length > MAX_BODY) return send(413, { error: 'the arguments are too large' });
    }
    let args: unknown;
    try {
      args = JSON.parse(body);
    } catch {
      return send(400, { error: 'the arguments are not JSON' });
    }
    try {
      send(200, { output: await runManage(store, command, args) });
    } catch (e) {
      if (e instanceof ManageError) return send(400, { error: e.message });
      log.error({ err: e, command }, 'admin command failed');
      send(500, { error: 'the server could not run the command (see its log)' });
    }
  }

  // The socket is created owner-only (umask), so no one else can connect even for an instant.
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(file, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } finally {
    process.umask(umask);
  }
  chmodSync(file, 0o600);
  log.info({ socket: file }, 'admin socket listening');
  return {
    path: file,
    close: () =>
      new Promise<void>((resolve) => {
        // Commands in flight finish first (each connection carries one request, then closes).
        server.close(() => {
          rmSync(file, { force: true });
          resolve();
        });
      }),
  };
}

/**
 * Runs a command on the server listening in `dataDir`: its output, or null when no server answers
 * there. A refusal (unknown user, ...) is thrown as a `ManageError`.
 */
export function callAdminSocket(dataDir: string, command: ManageCommand, args: object): Promise<string | null> {
  const body = JSON.stringify(args);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath: path.join(dataDir, SOCKET_FILE),
        path: `/${command.split(' ').join('/')}`,
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('error', reject);
        res.on('end', () => {
          try {
            const answer = JSON.parse(text) as { output?: string; error?: string };
            if (res.statusCode === 200 && typeof answer.output === 'string') resolve(answer.output);
            else reject(new ManageError(answer.error ?? `the server answered ${res.statusCode}`));
          } catch {
            reject(new ManageError(`the server answered ${res.statusCode} without a readable body`));
          }
        });
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) =>
      e.code === 'ENOENT' || e.code === 'ECONNREFUSED' ? resolve(null) : reject(new ManageError(`the server on ${dataDir} did not answer: ${e.message}`)),
    );
    req.end(body);
  });
}
