/**
 * `lintel mode <namespace> forward|shadow|translate` switches a running server without a restart:
 * on PGlite through the server's admin socket, on PostgreSQL through the store and the change feed
 * (written here by another process's store, as a second replica or the command line would). The
 * modes in force show in `/readyz` and `/metrics`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAdminSocket, listenAdminSocket, type AdminSocket } from '../src/admin-socket.ts';
import { runManage } from '../src/manage.ts';
import { openStore, type OpenStore } from '../src/store/store.ts';
import { testApp, type TestApp } from './support/app.ts';
import { eventually } from './support/eventually.ts';
import { startLegacyOrigin, type LegacyOrigin } from './support/legacy-origin.ts';
import { storeConfig, storeLane, throwawayDatabase } from './support/store.ts';

const TOKEN = 'metrics-token-for-mode-tests-0123456789';
let origin: LegacyOrigin;
let app: TestApp;
/** How the command line reaches the running server on this lane. */
let switchMode: (args: { namespace: string; mode: string; primary?: string }) => Promise<string | null>;
let done: () => Promise<void>;

beforeAll(async () => {
  origin = await startLegacyOrigin();
  const env = { LINTEL_LEGACY_ORIGIN: origin.url, LINTEL_METRICS_TOKEN: TOKEN };
  if (storeLane === 'pglite') {
    app = await testApp({ env });
    const dir = mkdtempSync(path.join(tmpdir(), 'lintel-modes-'));
    const socket: AdminSocket = await listenAdminSocket(dir, app.store, app.server.log);
    switchMode = (args) => callAdminSocket(dir, 'mode', args);
    done = async () => {
      await socket.close();
      rmSync(dir, { recursive: true, force: true });
    };
  } else {
    const db = await throwawayDatabase();
    const open = () => openStore(storeConfig({ databaseUrl: db.url, dataDir: '', poolSize: 2 }));
    app = await testApp({ env, store: await open() });
    const other: OpenStore = await open();
    switchMode = (args) => runManage(other, 'mode', args);
    done = async () => {
      await other.close();
      await db.drop();
    };
  }
});
afterAll(async () => {
  await app.close();
  await done();
  await origin.close();
});

const modeMetric = async (namespace: string, mode: string) => {
  const text = (await app.server.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
  return new RegExp(`^lintel_namespace_mode\\{namespace="${namespace.replace(/[/.]/g, '\\$&')}",mode="${mode}"\\} 1$`, 'm').test(text);
};
const readyModes = async () => (await app.server.inject({ url: '/readyz' })).json().modes as Record<string, string>;

describe('lintel mode', () => {
  it('switches history/v1 to forward and back on the running server, shown in /readyz and /metrics', async () => {
    expect((await readyModes())['history/v1']).toBe('translate');
    expect(await modeMetric('history/v1', 'translate')).toBe(true);

    expect(await switchMode({ namespace: 'history/v1', mode: 'forward' })).toBe('history/v1: forward\n');
    await eventually(async () => (await readyModes())['history/v1'] === 'forward');
    expect(await modeMetric('history/v1', 'forward')).toBe(true);
    origin.received.length = 0;
    const forwarded = await app.server.inject({ url: '/wp-json/history/v1' });
    // (The origin's own index may be fetched alongside: the forwarded routes it lists join the site index.)
    expect(origin.received.map((r) => r.url).filter((url) => url !== '/wp-json/')).toEqual(['/wp-json/simple-history/v1']);
    expect(forwarded.json().namespace).toBe('history/v1');
    // The site index lists the origin's routes of a forwarded namespace, once.
    const index = (await app.server.inject({ url: '/wp-json/' })).json();
    expect(index.namespaces.filter((n: string) => n === 'history/v1')).toHaveLength(1);

    await switchMode({ namespace: 'history/v1', mode: 'translate' });
    await eventually(async () => (await readyModes())['history/v1'] === 'translate');
    origin.received.length = 0;
    expect((await app.server.inject({ url: '/wp-json/history/v1' })).statusCode).toBe(200);
    expect(origin.received).toEqual([]);
  });

  it('switches a namespace to shadow with the primary side it is given', async () => {
    await switchMode({ namespace: 'redirection/v1', mode: 'shadow', primary: 'lintel' });
    await eventually(async () => (await readyModes())['redirection/v1'] === 'shadow');
    expect(app.services.backends.forRoute('/redirection/v1/redirect')).toMatchObject({ mode: 'shadow', answeredBy: 'lintel' });
  });

  it('refuses an unknown namespace or a primary outside shadow mode', async () => {
    await expect(switchMode({ namespace: 'nope/v1', mode: 'forward' })).rejects.toThrow(/no namespace nope\/v1/);
    await expect(switchMode({ namespace: 'history/v1', mode: 'forward', primary: 'lintel' })).rejects.toThrow(/only read in shadow mode/);
  });
});
