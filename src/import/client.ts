/**
 * The legacy site's REST API as the importer reads it: JSON GETs under `{base}/wp-json/`, as an
 * administrator (HTTP Basic with an application password). The base URL is given by the operator,
 * so its host is allowed explicitly past the SSRF guard (it is often on a private network).
 */
import { RestError } from '../contract/errors.ts';
import { guardedFetcher, type Fetcher } from '../upstream/fetch.ts';

export interface LegacyResponse<T> {
  body: T;
  headers: Record<string, string>;
}

/** A page of a legacy list: its records, how many the list holds and on how many pages. */
export interface LegacyPage<T> {
  items: T[];
  total: number;
  totalPages: number;
}

/** A failed read of the legacy site: its URL, and the status and error code it answered with. */
export class ImportError extends Error {
  /** The legacy site's error code, when it answered with one. */
  readonly code: string | undefined;
  constructor(message: string, code?: string) {
    super(message);
    this.code = code;
  }
}

export class LegacyClient {
  private readonly fetcher: Fetcher;
  private readonly auth: string;
  /** The base URL without a trailing slash: also the key of this source's checkpoints. */
  readonly base: string;

  /** Requests in flight at most: the legacy site is a PHP server with a few workers, and every answer is held in memory. */
  private readonly maxInFlight: number;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(base: string, login: string, appPassword: string, opts: { timeoutMs?: number; maxInFlight?: number } = {}) {
    this.maxInFlight = opts.maxInFlight ?? 4;
    let url: URL;
    try {
      url = new URL(base);
    } catch {
      throw new ImportError(`--from must be an http(s) URL, got "${base}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ImportError(`--from must be an http(s) URL, got "${base}"`);
    this.base = url.href.replace(/\/+$/, '');
    this.auth = `Basic ${Buffer.from(`${login}:${appPassword}`).toString('base64')}`;
    this.fetcher = guardedFetcher({
      allow: [url.hostname.replace(/^\[|\]$/g, '')],
      timeoutMs: opts.timeoutMs ?? 30_000,
      // A page of 50 events with their venues and organizers is well under this.
      maxBytes: 64 * 1024 * 1024,
    });
  }

  private zone: Promise<string> | undefined;

  /** The site's time zone (from the index): dates shown without one are in it. */
  timezone(): Promise<string> {
    return (this.zone ??= this.get<{ timezone_string?: string }>('').then(({ body }) => body.timezone_string || 'UTC'));
  }

  /** GET `{base}/wp-json/{route}?{query}`; any answer but 2xx JSON is an ImportError naming the URL. */
  async get<T>(route: string, query: Record<string, string | number | boolean> = {}): Promise<LegacyResponse<T>> {
    const res = await this.request(route, query);
    if (res.status < 200 || res.status > 299) {
      const err = res.body as { code?: string; message?: string };
      throw new ImportError(`GET ${res.url}: ${res.status} ${err.code ?? ''} ${err.message ?? ''}`.trim(), err.code);
    }
    return { body: res.body as T, headers: res.headers };
  }

  /** GET a WordPress list: the page's records and the counts its X-WP-Total and X-WP-TotalPages headers give (none: this page is all). */
  async list<T>(route: string, query: Record<string, string | number | boolean>): Promise<LegacyPage<T>> {
    const { body, headers } = await this.get<T[]>(route, query);
    return { items: body, total: Number(headers['x-wp-total'] ?? body.length), totalPages: Number(headers['x-wp-totalpages'] ?? 1) };
  }

  /** A record's `status` field, or the HTTP status when the site answers 404 or 410 (it is gone). */
  async status(route: string, query: Record<string, string | number | boolean> = {}): Promise<string | number> {
    const res = await this.request(route, query);
    if (res.status === 404 || res.status === 410) return res.status;
    if (res.status < 200 || res.status > 299) throw new ImportError(`GET ${res.url}: ${res.status}`);
    return String((res.body as { status?: unknown }).status ?? '');
  }

  private async request(route: string, query: Record<string, string | number | boolean>): Promise<{ url: string; status: number; body: unknown; headers: Record<string, string> }> {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    const url = `${this.base}/wp-json/${route.replace(/^\//, '')}${qs ? `?${qs}` : ''}`;
    let res: Awaited<ReturnType<Fetcher>>;
    if (this.inFlight >= this.maxInFlight) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight++;
    try {
      res = await this.fetcher(url, { headers: { Authorization: this.auth, Accept: 'application/json' } });
    } catch (e) {
      throw new ImportError(`GET ${url}: ${e instanceof RestError ? e.message : String(e)}`);
    } finally {
      this.inFlight--;
      this.waiting.shift()?.();
    }
    try {
      return { url, status: res.status, body: JSON.parse(res.body.toString('utf8')), headers: res.headers };
    } catch {
      throw new ImportError(`GET ${url}: ${res.status}, not JSON`);
    }
  }
}
