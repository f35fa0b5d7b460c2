/**
 * The routes of forwarded namespaces for Lintel's site index: fetched from the legacy origin's own
 * index (`/wp-json/`), renamed to the contract's names (and each alias), cached, and refreshed in
 * the background when stale. The index never waits on the origin once it has a copy; when the
 * origin cannot be read the forwarded namespaces are still listed, without their routes.
 */
import { request } from 'undici';
import type { Origin } from './forward.ts';
import { rewriteJson, type Rewriter } from './rename.ts';

export interface ForwardedNamespace {
  contract: string;
  /** The contract's name and its aliases: the names Lintel lists. */
  names: string[];
  upstream: string;
}

export interface ForwardedIndex {
  /** Every name of every forwarded namespace, in mappings order. */
  readonly namespaces: string[];
  /** The index entries of their routes, keyed by Lintel's route pattern. */
  routes(): Promise<Record<string, unknown>>;
}

interface Loaded {
  routes: Record<string, unknown>;
  at: number;
  ttlMs: number;
}

// A failed read is tried again sooner than a good copy expires.
const RETRY_MS = 10_000;

/** The legacy origin's site index (`/wp-json/`): its namespaces and routes; throws when it cannot be read. */
export async function originIndex(origin: Origin, restPrefix: string): Promise<{ namespaces?: string[]; routes?: Record<string, unknown> }> {
  const res = await request(`${origin.base}/${restPrefix}/`, {
    headers: { accept: 'application/json' },
    dispatcher: origin.dispatcher,
    headersTimeout: origin.timeoutMs,
    bodyTimeout: origin.timeoutMs,
  });
  if (res.statusCode !== 200) {
    await res.body.dump();
    throw new Error(`the origin's index answered ${res.statusCode}`);
  }
  return (await res.body.json()) as { namespaces?: string[]; routes?: Record<string, unknown> };
}

export function forwardedIndex(opts: {
  origin: Origin | null;
  restPrefix: string;
  lintelBase: string;
  forwarded: ForwardedNamespace[];
  ttlMs: number;
  log: { warn: (o: object, m: string) => void };
}): ForwardedIndex {
  const namespaces = opts.forwarded.flatMap((f) => f.names);
  let loaded: Loaded | null = null;
  let loading: Promise<Loaded> | null = null;

  async function fetchIndex(origin: Origin): Promise<Loaded> {
    try {
      const index = await originIndex(origin, opts.restPrefix);
      return { routes: renamed(index.routes ?? {}, origin), at: Date.now(), ttlMs: opts.ttlMs };
    } catch (err) {
      opts.log.warn({ err, origin: origin.base }, 'could not read the legacy origin index; forwarded routes are left out of the site index');
      return { routes: loaded?.routes ?? {}, at: Date.now(), ttlMs: RETRY_MS };
    }
  }

  function renamed(routes: Record<string, unknown>, origin: Origin): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const f of opts.forwarded) {
      const own = Object.entries(routes).filter(([pattern]) => pattern.toLowerCase() === `/${f.upstream}` || pattern.toLowerCase().startsWith(`/${f.upstream}/`));
      for (const name of f.names) {
        const rw: Rewriter = { originBase: origin.base, lintelBase: opts.lintelBase, renamings: [{ requested: name, upstream: f.upstream }] };
        Object.assign(out, rewriteJson(Object.fromEntries(own), rw));
      }
    }
    return out;
  }

  function refresh(origin: Origin): Promise<Loaded> {
    loading ??= fetchIndex(origin).then((l) => {
      loaded = l;
      loading = null;
      return l;
    });
    return loading;
  }

  return {
    namespaces,
    async routes() {
      const origin = opts.origin;
      if (!origin || opts.forwarded.length === 0) return {};
      if (!loaded) return (await refresh(origin)).routes;
      if (Date.now() - loaded.at > loaded.ttlMs) void refresh(origin);
      return loaded.routes;
    },
  };
}
