/**
 * Batch and oEmbed figures: a 25-item batch of writes against the same 25 writes sent one by
 * one, and an oEmbed proxy call answered from the cache against one that reaches the provider
 * (a local node:http server on 127.0.0.1, allow-listed). Runs on an in-memory store with routes
 * declared here, so it needs no calendar data.
 */
import { z } from 'zod';
import { json } from '../src/contract/reply.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app.ts';
import { createAppPassword } from '../src/auth/app-passwords.ts';
import { loadConfig } from '../src/config.ts';
import { arg } from '../src/contract/args.ts';
import { needs } from '../src/contract/permission.ts';
import { endpoint, route } from '../src/contract/route.ts';
import { loadMappings } from '../src/mappings.ts';
import { translators } from '../src/namespaces/index.ts';
import { noEmbeddables } from '../src/namespaces/oembed/embeddable.ts';
import { parseProviders } from '../src/namespaces/oembed/providers.ts';
import { oembedNamespace } from '../src/namespaces/oembed/routes.ts';
import { openStore } from '../src/store/store.ts';
import { guardedFetcher } from '../src/upstream/fetch.ts';

const ROUNDS = 20;

async function timed(rounds: number, fn: (i: number) => Promise<void>) {
  const ms: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await fn(i);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const r = (n: number) => Math.round(n * 100) / 100;
  return { rounds, median_ms: r(ms[Math.floor(ms.length / 2)]), p90_ms: r(ms[Math.floor(ms.length * 0.9)]), mean_ms: r(ms.reduce((a, b) => a + b, 0) / ms.length) };
}

export async function run(): Promise<Array<Record<string, unknown>>> {
  const remote = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'rich', version: '1.0', title: 'Bench', html: '<iframe src="https://video.example/e/1" width="600" height="338"></iframe>' }));
  });
  await new Promise<void>((r) => remote.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;

  const saved = { bench: translators['bench/v1'], oembed: translators['oembed/1.0'] };
  translators['bench/v1'] = () => [
    route(
      'bench/v1',
      '/bench/v1/notes',
      endpoint({
        methods: ['POST'],
        args: { name: arg.string({ required: true }) },
        response: json(z.object({ name: z.string() }), 201),
        permission: needs('edit_posts'),
        allowBatch: true,
        async handler(ctx, a) {
          await ctx.store.transaction((tx) => tx.options.set(`bench:${a.name}`, { name: a.name }));
          return { status: 201, body: { name: a.name } };
        },
      }),
    ),
  ];
  const providers = parseProviders({ providers: [{ name: 'Bench', patterns: [`${origin}/*`], endpoint: `${origin}/oembed` }] });
  translators['oembed/1.0'] = oembedNamespace(noEmbeddables, { providers, fetch: guardedFetcher({ allow: ['127.0.0.1'], timeoutMs: 5000 }) });

  const config = loadConfig({ LINTEL_LOG_LEVEL: 'silent', LINTEL_DEMO_DATA: 'false', LINTEL_UPSTREAM_ALLOW: '127.0.0.1' });
  const store = await openStore(config, { inMemory: true });
  const base = loadMappings(config.mappingsDir);
  const mappings = { ...base, namespaces: { ...base.namespaces, 'bench/v1': { mode: 'translate' as const, aliases: [], batch: true } } };
  const { server } = await buildApp({ config, store, mappings, logger: false });
  try {
    const user = await store.users.create({ login: 'bench', email: 'bench@example.test', displayName: 'bench', role: 'editor', passwordHash: null });
    const { password } = await createAppPassword(store, user.id, 'bench');
    const authorization = `Basic ${Buffer.from(`bench:${password}`).toString('base64')}`;
    const post = (url: string, payload: unknown) =>
      server.inject({ method: 'POST', url, headers: { authorization, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
    const names = (round: number, tag: string) => Array.from({ length: 25 }, (_, i) => `${tag}-${round}-${i}`);

    const batchNormal = await timed(ROUNDS, async (r) => {
      await post('/wp-json/batch/v1', { requests: names(r, 'bn').map((name) => ({ path: '/bench/v1/notes', body: { name } })) });
    });
    const batchAll = await timed(ROUNDS, async (r) => {
      await post('/wp-json/batch/v1', { validation: 'require-all-validate', requests: names(r, 'ba').map((name) => ({ path: '/bench/v1/notes', body: { name } })) });
    });
    const separate = await timed(ROUNDS, async (r) => {
      for (const name of names(r, 'sep')) await post('/wp-json/bench/v1/notes', { name });
    });
    const proxy = (url: string) => server.inject({ method: 'GET', url: `/wp-json/oembed/1.0/proxy?url=${encodeURIComponent(url)}`, headers: { authorization } });
    const uncached = await timed(ROUNDS, async (r) => {
      await proxy(`${origin}/video/${r}`);
    });
    const cached = await timed(ROUNDS, async () => {
      await proxy(`${origin}/video/0`);
    });
    return [
      { name: 'batch: 25 writes, normal', ...batchNormal },
      { name: 'batch: 25 writes, require-all-validate (one transaction)', ...batchAll },
      { name: 'batch: 25 separate requests', ...separate },
      { name: 'oembed proxy: uncached (local provider)', ...uncached },
      { name: 'oembed proxy: cached', ...cached },
    ];
  } finally {
    await server.close();
    await store.close();
    await new Promise<void>((r) => remote.close(() => r()));
    if (saved.bench) translators['bench/v1'] = saved.bench;
    else delete translators['bench/v1'];
    if (saved.oembed) translators['oembed/1.0'] = saved.oembed;
  }
}
