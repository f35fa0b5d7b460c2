/**
 * The fuzz run shared by `npm test` (short, seeded) and `npm run fuzz` (long): an in-process app
 * with the demo content and an administrator, the generated requests sent through Fastify's
 * `inject`, and every answer judged by the oracle.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { seedDemoOnce } from '../../src/bootstrap.ts';
import { readFileSync } from 'node:fs';
import { safeDecode } from '../../src/lib/url-encoding.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { startLegacyOrigin, type LegacyOrigin, type ReceivedRequest } from '../support/legacy-origin.ts';
import { mappingsDir } from '../support/mappings.ts';
import { testSmtp } from '../support/smtp.ts';
import { problem, prototypeIntact, stillServing } from './oracle.ts';
import { fuzzRequests, type FuzzRequest } from './requests.ts';

export interface Failure {
  request: FuzzRequest;
  status: number;
  problem: string;
  body: string;
  /** What the server logged for a 5xx. */
  logged: string;
}

export interface FuzzReport {
  requests: number;
  serverErrors: number;
  /** Answers by status class (`2xx`, `4xx`, ...): how deep the requests got. */
  statuses: Record<string, number>;
  failures: Failure[];
}

/** The last error the app logged (an unexpected failure's message), to show beside a 5xx. */
let lastLoggedError = '';

/**
 * The app under fuzz, with every optional backend configured (a mail server and an AI endpoint on
 * loopback), so that its routes answer for what they were sent, not 503 for a missing setting.
 */
export async function fuzzApp(): Promise<{ app: TestApp; admin: string; origin: LegacyOrigin; close(): Promise<void> }> {
  const logger = {
    level: 'error',
    stream: {
      write: (line: string) => {
        const entry = JSON.parse(line) as { err?: { message?: string; stack?: string } };
        lastLoggedError = entry.err?.stack?.split('\n').slice(0, 4).join(' | ') ?? entry.err?.message ?? '';
      },
    },
  };
  const smtp = await testSmtp();
  const ai = createServer((req, res) => {
    req.resume().on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify({ choices: [{ delta: { content: 'ok' } }] })}\n\ndata: [DONE]\n\n`);
    });
  });
  await new Promise<void>((r) => ai.listen(0, '127.0.0.1', r));
  // A recorded legacy origin behind a namespace of its own, to fuzz forwarding.
  const origin = await startLegacyOrigin();
  const mappings = mappingsDir({ ...JSON.parse(readFileSync(new URL('../../mappings/namespaces.json', import.meta.url), 'utf8')).namespaces, [FORWARDED.name]: { mode: 'forward', upstream: 'simple-history/v1' } });
  // Outbound fetches (oEmbed proxy, pass-through redirects) give up fast; only the AI stand-in on loopback is reachable.
  const app = await testApp({
    env: {
      LINTEL_LEGACY_ORIGIN: origin.url,
      LINTEL_MAPPINGS_DIR: mappings.dir,
      LINTEL_UPSTREAM_TIMEOUT_MS: '300',
      LINTEL_LOGIN_ATTEMPTS: '1000000',
      LINTEL_SMTP_URL: smtp.url,
      LINTEL_AI_CHAT_URL: `http://127.0.0.1:${(ai.address() as AddressInfo).port}/v1/chat/completions`,
      LINTEL_UPSTREAM_ALLOW: '127.0.0.1',
    },
    logger,
  });
  await seedDemoOnce(app.store, app.services.clock);
  const close = async () => {
    await app.close();
    await origin.close();
    mappings.remove();
    await smtp.close();
    ai.closeAllConnections();
    await new Promise((r) => ai.close(r));
  };
  return { app, admin: await app.auth('administrator'), origin, close };
}

/** The forwarded namespace of the fuzzed app: history/v1's routes, sent to the origin's simple-history/v1. */
export const FORWARDED = { name: 'legacy-history/v1', like: 'history/v1' };

/** What the origin received that is not a route of the forwarded namespace (a request naming another route of the legacy site). */
export function escaped(received: ReceivedRequest[]): string | null {
  for (const r of received) {
    // Lintel's own read of the origin's index (the forwarded routes in the site index).
    if (r.method === 'GET' && r.url === '/wp-json/') continue;
    // Lintel's own check of a Basic credential it does not know (legacy credentials): not a forwarded
    // call, so it carries none of the X-Forwarded-* headers every forwarded call gets.
    if (r.method === 'GET' && r.url === '/wp-json/wp/v2/users/me?context=edit' && r.headers['x-forwarded-for'] === undefined) continue;
    const q = r.url.indexOf('?');
    const path = q < 0 ? r.url : r.url.slice(0, q);
    const routes = [...new URLSearchParams(q < 0 ? '' : r.url.slice(q + 1)).keys()].filter((k) => /rest.?route/i.test(k.replace(/[^a-z_]/gi, '')));
    const inPath = /^\/(?:[a-z]{2}\/)?wp-json\/simple-history\/v1(?:\/|$)/.test(path) && !/(^|\/)\.\.?(\/|$)/.test(safeDecode(path));
    const byQuery = /^\/(?:index\.php)?$/.test(path) && routes.length === 1 && new URLSearchParams(r.url.slice(q + 1)).get('rest_route')?.startsWith('/simple-history/v1');
    if (!(inPath && routes.length === 0) && !byQuery) return `forwarded outside its namespace: ${r.method} ${r.url}`;
    if (/rest.?route/i.test(r.body)) return `forwarded body names a route: ${r.method} ${r.url} ${r.body.slice(0, 100)}`;
  }
  return null;
}

/** Sends `runs` generated requests (seeded), checking the app's health every `healthEvery` requests. */
export async function fuzz(opts: { app: TestApp; admin: string; origin: LegacyOrigin; runs: number; seed: number; healthEvery?: number; onProgress?: (done: number) => void }): Promise<FuzzReport> {
  const { app, admin, origin } = opts;
  const report: FuzzReport = { requests: 0, serverErrors: 0, statuses: {}, failures: [] };
  const healthEvery = opts.healthEvery ?? 50;
  const fail = (request: FuzzRequest, status: number, p: string, body: string) =>
    report.failures.push({ request, status, problem: p, body: body.slice(0, 500), logged: status >= 500 || p.includes('batch item status') ? lastLoggedError : '' });
  await fc.assert(
    fc.asyncProperty(fuzzRequests(app.services.table, FORWARDED), async (req) => {
      origin.received.length = 0;
      const headers = req.caller === 'admin' ? { ...req.headers, authorization: admin } : req.headers;
      const res = await app.server.inject({ method: req.method as 'GET', url: req.url, headers, payload: req.payload });
      report.requests++;
      if (res.statusCode >= 500) report.serverErrors++;
      const cls = `${String(res.statusCode)[0]}xx`;
      report.statuses[cls] = (report.statuses[cls] ?? 0) + 1;
      const relayed = origin.received.some((r) => r.answered === res.statusCode);
      const p = (await problem(req, res, relayed)) ?? prototypeIntact() ?? escaped(origin.received);
      if (p) fail(req, res.statusCode, p, res.body);
      if (report.requests % healthEvery === 0) {
        const h = await stillServing(app);
        if (h) fail(req, 0, h, '');
      }
      opts.onProgress?.(report.requests);
      return true;
    }),
    { seed: opts.seed, numRuns: opts.runs, endOnFailure: true },
  );
  const h = await stillServing(app);
  if (h) report.failures.push({ request: { method: 'GET', url: '/wp-json/', headers: {}, caller: 'anonymous' }, status: 0, problem: h, body: '', logged: '' });
  return report;
}

/** A failing request as a curl command line, to reproduce it against a running Lintel. */
export function asCurl(f: Failure): string {
  const h = Object.entries(f.request.headers).map(([k, v]) => ` -H ${quote(`${k}: ${v}`)}`).join('');
  const auth = f.request.caller === 'admin' ? " -u 'admin:<application password>'" : '';
  const data = f.request.payload !== undefined ? ` --data-binary ${quote(f.request.payload.slice(0, 2000))}` : '';
  return `curl -g -X ${f.request.method}${auth}${h}${data} ${quote(`http://localhost:8080${f.request.url}`)}`;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
