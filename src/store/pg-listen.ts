/**
 * LISTEN on a PostgreSQL server through a dedicated connection (a pooled one would be handed to
 * other queries), reconnecting after an outage: `onLive(false)` when the connection is lost,
 * `onLive(true)` once it listens again.
 */
import pg from 'pg';

const RETRY_MS = 1000;

export async function pgListen(
  url: string,
  channel: string,
  onPayload: (payload: string) => void,
  onLive: (live: boolean) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (!closed) retry = setTimeout(connect, RETRY_MS).unref();
  };
  const connect = async () => {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, keepAlive: true });
    c.on('error', () => {}); // a lost server ends the client: handled on 'end'
    c.on('notification', (m) => {
      if (m.channel === channel) onPayload(m.payload ?? '');
    });
    c.on('end', () => {
      if (client !== c) return;
      client = null;
      onLive(false);
      schedule();
    });
    try {
      await c.connect();
      await c.query(`listen ${channel}`);
      if (closed) return void (await c.end());
      client = c;
      onLive(true);
    } catch {
      c.end().catch(() => {});
      onLive(false);
      schedule();
    }
  };
  await connect();
  return async () => {
    closed = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}
