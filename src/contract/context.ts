/** What a handler sees of one request: who asks, the store to use, the clock and the site's addresses. */
import type { FastifyBaseLogger } from 'fastify';
import type { User } from '../lib/roles.ts';
import type { Clock } from '../clock.ts';
import type { Store } from '../store/store.ts';
import type { SiteUrls } from './site-urls.ts';

export interface RestContext {
  user: User | null;
  /** The store for this request: inside a batch in `require-all-validate` mode, one transaction. */
  store: Store;
  clock: Clock;
  urls: SiteUrls;
  log: FastifyBaseLogger;
  method: string;
  /** The route path as matched, e.g. `/calendar/events/v1/events/10`. */
  route: string;
  /** The query string parameters as sent (for `rest_url`-style links that echo them). */
  query: Record<string, unknown>;
  /**
   * Every parameter as merged from the request (JSON, form, query, path), before validation. Legacy
   * handlers that read undeclared parameters (a redirect's whole body, flat settings) take them from here.
   */
  params: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  ip: string;
  /** Uploaded files of a multipart request, by field name. */
  files: Map<string, UploadedFile>;
  /** Set by batch/v1 for its sub-requests. */
  inBatch: boolean;
}

export interface UploadedFile {
  filename: string;
  mimeType: string;
  data: Buffer;
}
