/**
 * Edge matching latency: mean µs per `server.inject` of a site URL against 100, 10k and 100k plain
 * rules plus 100 regex rules (a plain hit, a regex hit, a miss), with a bare `/healthz` inject of
 * the same run as the baseline, and the redirect list route over 100k redirects. In-memory store;
 * rules go in through the repository in one transaction per step.
 */
import { performance } from 'node:perf_hooks';
import { edgeFor } from '../src/namespaces/redirection/edge/registry.ts';
import type { NewRedirect } from '../src/store/redirection/rows.ts';
import { testApp, type TestApp } from '../test/support/app.ts';
import { runIfMain } from './lib.ts';

type Row = Record<string, unknown> & { name: string };

const REGEX_RULES = 100;
const STEPS = [100, 10_000, 100_000];
/** Each measurement stops at whichever comes first. */
const MAX_REQUESTS = 2_000;
const MAX_MS = 500;

const plain = (i: number): NewRedirect => ({
  url: `/plain-${i}`, matchUrl: `/plain-${i}`, matchData: null, regex: false, position: i, hits: 0, lastAccess: null, groupId: 1,
  enabled: true, actionType: 'url', actionCode: 301, actionData: { url: `/to-${i}` }, title: null, matchType: 'url',
});
const regex = (i: number): NewRedirect => ({
  ...plain(i), url: `^/re-${i}/(.*)$`, matchUrl: 'regex', regex: true, matchData: { source: { flag_regex: true } }, actionData: { url: `/re-to-${i}/$1` },
});

async function insert(app: TestApp, rows: NewRedirect[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 5_000) {
    const chunk = rows.slice(i, i + 5_000);
    await app.store.transaction((s) => s.redirection.redirects.insertMany(chunk));
  }
}

/** Mean µs per request of a bounded loop (after a short warm-up that also loads the rule index). */
async function measure(app: TestApp, url: string, expectStatus: number, headers: Record<string, string> = {}): Promise<{ mean_us: number; requests: number }> {
  for (let i = 0; i < 20; i++) await app.server.inject({ method: 'GET', url, headers });
  const first = await app.server.inject({ method: 'GET', url, headers });
  if (first.statusCode !== expectStatus) throw new Error(`${url}: ${first.statusCode}, expected ${expectStatus}`);
  let n = 0;
  const start = performance.now();
  while (n < MAX_REQUESTS && performance.now() - start < MAX_MS) {
    await app.server.inject({ method: 'GET', url, headers });
    n++;
  }
  const mean = ((performance.now() - start) * 1000) / n;
  await edgeFor(app.services).flush();
  return { mean_us: Math.round(mean * 10) / 10, requests: n };
}

export async function run(): Promise<Row[]> {
  const app = await testApp();
  const rows: Row[] = [];
  try {
    const edge = edgeFor(app.services);
    const base = await measure(app, '/healthz', 200);
    rows.push({ name: 'healthz (baseline)', ...base, ratio: 1 });
    const ratio = (us: number) => Math.round((us / base.mean_us) * 100) / 100;

    await insert(app, Array.from({ length: REGEX_RULES }, (_, i) => regex(i)));
    let have = 0;
    for (const total of STEPS) {
      await insert(app, Array.from({ length: total - have }, (_, i) => plain(have + i)));
      have = total;
      edge.invalidate();
      const cases: Array<[string, string, number]> = [
        ['plain hit', `/plain-${total - 1}`, 301],
        ['regex hit', `/re-${REGEX_RULES / 2}/x`, 301],
        ['miss', '/nothing-here', 404],
      ];
      for (const [what, url, status] of cases) {
        const m = await measure(app, url, status);
        rows.push({ name: `edge ${what}, ${total} plain + ${REGEX_RULES} regex rules`, rules: total + REGEX_RULES, ...m, ratio: ratio(m.mean_us) });
      }
    }

    const admin = await app.auth('administrator');
    const list = await measure(app, '/wp-json/redirection/v1/redirect', 200, { authorization: admin });
    rows.push({ name: `GET /wp-json/redirection/v1/redirect, ${have + REGEX_RULES} redirects`, rules: have + REGEX_RULES, ...list, ratio: ratio(list.mean_us) });
  } finally {
    await app.close();
  }
  return rows;
}

// Run directly: `node bench/edge.ts`.
await runIfMain(import.meta.url, run);
