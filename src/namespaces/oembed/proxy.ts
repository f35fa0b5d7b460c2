/**
 * The remote side of `/oembed/1.0/proxy`: the provider from the configured list, or by discovery
 * (`<link rel="alternate" type="application/json+oembed">` in the page), then the provider's JSON
 * document, cached for a day.
 */
import type { LRUCache } from 'lru-cache';
import { boundedLru } from '../../lib/lru.ts';
import type { Fetcher } from '../../upstream/fetch.ts';
import { providerFor, type Provider } from './providers.ts';
import { sanitizeEmbedHtml } from './sanitize.ts';

export interface ProxyRequest {
  url: string;
  maxwidth: number;
  maxheight: number | undefined;
  discover: boolean;
}

export interface RemoteOembed {
  providers: readonly Provider[];
  fetch: Fetcher;
  /** Time to live of a cached document, in ms (one day by default). */
  ttlMs?: number;
}

const TYPES = new Set(['photo', 'video', 'link', 'rich']);

export type OembedData = Record<string, unknown>;

/** Finds the JSON oEmbed endpoint a page announces in its markup. */
export function discoverEndpoint(html: string, base: string): string | null {
  const head = html.split(/<\/head\s*>/i)[0];
  for (const m of head.matchAll(/<link\b[^>]*>/gi)) {
    const tag = m[0];
    const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
    const type = attr('type');
    const href = attr('href');
    if (!type || !href || (type[1] ?? type[2] ?? type[3]).toLowerCase() !== 'application/json+oembed') continue;
    const raw = (href[1] ?? href[2] ?? href[3]).replace(/&amp;/g, '&');
    try {
      return new URL(raw, base).href;
    } catch {
      // Not a URL: the next link may be.
    }
  }
  return null;
}

export class OembedProxy {
  private readonly cache: LRUCache<string, OembedData>;
  private readonly remote: RemoteOembed;
  constructor(remote: RemoteOembed) {
    this.remote = remote;
    this.cache = boundedLru({ max: 1000, ttl: remote.ttlMs ?? 24 * 60 * 60 * 1000 });
  }

  /** The provider's document, or null when there is none (no provider, nothing discovered, not oEmbed). */
  async get(req: ProxyRequest): Promise<OembedData | null> {
    const key = JSON.stringify([req.url, req.maxwidth, req.maxheight ?? null, req.discover]);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const data = await this.fetchData(req);
    if (data) this.cache.set(key, data);
    return data;
  }

  private async fetchData(req: ProxyRequest): Promise<OembedData | null> {
    const known = providerFor(this.remote.providers, req.url);
    let endpoint = known?.endpoint ?? null;
    if (!endpoint && req.discover) {
      const page = await this.remote.fetch(req.url, { headers: { accept: 'text/html' } });
      if (page.status === 200) endpoint = discoverEndpoint(page.body.toString('utf8'), page.url);
    }
    if (!endpoint) return null;
    const target = new URL(endpoint);
    // As WordPress: the size asked, or 600 wide and 1.5 times as high (at most 1000).
    target.searchParams.set('maxwidth', String(req.maxwidth));
    target.searchParams.set('maxheight', String(req.maxheight ?? Math.min(Math.ceil(req.maxwidth * 1.5), 1000)));
    target.searchParams.set('url', req.url);
    target.searchParams.set('dnt', '1');
    target.searchParams.set('format', 'json');
    const res = await this.remote.fetch(target.href, { headers: { accept: 'application/json' } });
    if (res.status !== 200) return null;
    let data: unknown;
    try {
      data = JSON.parse(res.body.toString('utf8'));
    } catch {
      return null;
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
    const doc = data as OembedData;
    if (!TYPES.has(String(doc.type))) return null;
    if (typeof doc.html === 'string') doc.html = sanitizeEmbedHtml(doc.html);
    return doc;
  }
}
