/** A backend call as the server would build it, for the backends' unit tests. */
import pino from 'pino';
import type { BackendCall } from '../../src/backends/backend.ts';

export const backendCall = (path: string, query = '', over: Partial<BackendCall> = {}): BackendCall => ({
  method: 'GET',
  path,
  query,
  headers: {},
  body: undefined,
  client: { ip: '127.0.0.1', protocol: 'https', host: 'lintel.example' },
  requestId: 'req-1',
  log: pino({ level: 'silent' }),
  ...over,
});
