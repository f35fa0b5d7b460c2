/**
 * A bare node:http server, the baseline of the bench's outside-the-process cases: it answers every
 * request with the status, headers and body given in the JSON file named by argv[2]
 * ({ headers, body }) and prints its port once listening. Run as a child process by bench/outside.ts.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const { headers, body } = JSON.parse(readFileSync(process.argv[2], 'utf8')) as { headers: Record<string, string>; body: string };
const bytes = Buffer.from(body, 'base64');
const server = http.createServer((_req, res) => {
  res.writeHead(200, { ...headers, 'Content-Length': bytes.length });
  res.end(bytes);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
