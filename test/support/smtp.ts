/** A real SMTP server on loopback that keeps what it receives (mail tests). */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface TestSmtp {
  url: string;
  /** Raw messages received, in order. */
  messages: { from: string; to: string[]; data: string }[];
  /** Resolves with the next message received. */
  next(): Promise<{ from: string; to: string[]; data: string }>;
  close(): Promise<void>;
}

export async function testSmtp(): Promise<TestSmtp> {
  const messages: TestSmtp['messages'] = [];
  const waiting: ((m: TestSmtp['messages'][number]) => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const m = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
        };
        messages.push(m);
        waiting.shift()?.(m);
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
