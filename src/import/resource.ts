/**
 * An import is a list of resources with one interface: each fetches its records page by page from
 * the legacy site (already in the store's form), writes a batch of them, counts what the store
 * holds, and reads records back for `--verify`. History is one more entry of this list.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import type { Store } from '../store/store.ts';

export interface SourcePage<T> {
  /** 1-based, whatever the legacy route counts from. */
  page: number;
  records: T[];
  total: number;
  totalPages: number;
}

export interface ImportResource<T extends { id: number } = { id: number }> {
  /** `family.resource`, e.g. `calendar.events`: the name in progress lines and checkpoints. */
  readonly name: string;
  /** What `--only` selects: `calendar`, `redirection`, `history`. */
  readonly family: string;
  /** A page of the source; `target` is the store imported into (a resource may fetch only what it lacks). */
  fetchPage(page: number, target: Store): Promise<SourcePage<T>>;
  writeBatch(store: Store, records: T[]): Promise<void>;
  /** Records of this resource in the store. */
  count(store: Store): Promise<number>;
  /** The stored records with these IDs, in the form `fetchPage` gives (for `--verify`). */
  sample(store: Store, ids: number[]): Promise<Map<number, T>>;
}

export type ProgressEvent =
  | { type: 'start'; resource: string; total: number; fromPage: number; totalPages: number }
  | { type: 'batch'; resource: string; page: number; totalPages: number; written: number; total: number }
  | { type: 'done'; resource: string; written: number; seconds: number };

export interface ImportOptions {
  store: Store;
  /** The legacy base URL: the checkpoints' key. */
  source: string;
  resources: ImportResource[];
  /** Ignore the checkpoints and start every resource from its first page. */
  restart?: boolean;
  /** Records per transaction. */
  batchSize?: number;
  signal?: AbortSignal;
  onProgress?: (e: ProgressEvent) => void;
}

export interface ImportSummary {
  resources: { name: string; written: number; fromPage: number }[];
  records: number;
  seconds: number;
}

/**
 * Imports each resource from its checkpoint on. Records are written `batchSize` at a time, each
 * batch in one transaction together with its checkpoint, so an interrupted import resumes exactly
 * after the last batch written; between batches the event loop runs (a server in the same process
 * keeps answering) and other connections are never held up by one long transaction.
 */
export async function runImport(o: ImportOptions): Promise<ImportSummary> {
  const batchSize = o.batchSize ?? 500;
  const began = performance.now();
  const summary: ImportSummary = { resources: [], records: 0, seconds: 0 };
  await o.store.transaction(async (tx) => {
    if (o.restart) await tx.importCheckpoints.clear(o.source);
    // A store holding imported content never gets the demo content on top (see bootstrap.ts).
    if (!(await tx.options.get('demo_seeded_at'))) await tx.options.set('demo_seeded_at', `imported from ${o.source}`);
  });
  for (const r of o.resources) {
    const t0 = performance.now();
    const cp = await o.store.importCheckpoints.get(o.source, r.name);
    // A finished resource is imported again from the start: a re-run updates in place.
    let fromPage = cp && !cp.done ? cp.lastPage + 1 : 1;
    o.signal?.throwIfAborted();
    let current = await r.fetchPage(1, o.store);
    // The source shrank below the checkpoint since: start the resource again.
    if (fromPage > 1 && fromPage > current.totalPages) fromPage = 1;
    else if (fromPage > 1) current = await r.fetchPage(fromPage, o.store);
    let written = 0;
    let buffer: { id: number }[] = [];
    let page = fromPage;
    o.onProgress?.({ type: 'start', resource: r.name, total: current.total, fromPage, totalPages: current.totalPages });
    for (;;) {
      const last = page >= current.totalPages;
      // The next page is on its way while this one is written.
      const next = last ? null : r.fetchPage(page + 1, o.store);
      next?.catch(() => undefined);
      buffer.push(...current.records);
      if (buffer.length >= batchSize || last) {
        o.signal?.throwIfAborted();
        const batch = buffer;
        await o.store.transaction(async (tx) => {
          await r.writeBatch(tx, batch);
          await tx.importCheckpoints.save(o.source, r.name, page, last);
        });
        written += batch.length;
        buffer = [];
        o.onProgress?.({ type: 'batch', resource: r.name, page, totalPages: current.totalPages, written, total: current.total });
        await yieldToLoop();
      }
      if (!next) break;
      o.signal?.throwIfAborted();
      current = await next;
      page++;
    }
    const seconds = (performance.now() - t0) / 1000;
    o.onProgress?.({ type: 'done', resource: r.name, written, seconds });
    summary.resources.push({ name: r.name, written, fromPage });
    summary.records += written;
  }
  summary.seconds = (performance.now() - began) / 1000;
  return summary;
}

export interface Difference {
  resource: string;
  /** Absent for a count difference. */
  id?: number;
  field: string;
  source: unknown;
  target: unknown;
}

/**
 * Compares the two sides: the count of each resource, and a sample of records (the first page,
 * a middle one and the last one) field by field.
 */
export async function verifyImport(store: Store, resources: ImportResource[]): Promise<Difference[]> {
  const diffs: Difference[] = [];
  for (const r of resources) {
    const first = await r.fetchPage(1, store);
    const target = await r.count(store);
    if (target !== first.total) diffs.push({ resource: r.name, field: 'count', source: first.total, target });
    const pages = [...new Set([1, Math.ceil(first.totalPages / 2), first.totalPages])].filter((p) => p >= 1);
    for (const p of pages) {
      const records = p === 1 ? first.records : (await r.fetchPage(p, store)).records;
      const stored = await r.sample(store, records.map((x) => x.id));
      for (const rec of records) {
        const mine = stored.get(rec.id);
        if (!mine) {
          diffs.push({ resource: r.name, id: rec.id, field: '(record)', source: 'present', target: 'missing' });
          continue;
        }
        for (const [field, value] of Object.entries(rec)) {
          const other = (mine as Record<string, unknown>)[field];
          if (!isDeepStrictEqual(comparable(value), comparable(other))) diffs.push({ resource: r.name, id: rec.id, field, source: value, target: other });
        }
      }
    }
  }
  return diffs;
}

/** Dates compare by instant. */
const comparable = (v: unknown) => (v instanceof Date ? v.toISOString() : v);
