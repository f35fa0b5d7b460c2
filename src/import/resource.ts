/**
 * An import is a list of resources with one interface: each fetches its records page by page from
 * the legacy site (already in the store's form), writes a batch of them, reads records back, lists
 * what the store holds and removes what the legacy site no longer has. History is one more entry of
 * this list. A run after a complete one is incremental: it writes only what changed, and carries
 * deletions.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import type { Store } from '../store/store.ts';

export interface SourcePage<T> {
  /** 1-based, whatever the legacy route counts from. */
  page: number;
  records: T[];
  /** Every ID the page lists, when `records` leaves out some (unchanged since the last run, or found by another resource). */
  ids?: number[];
  total: number;
  totalPages: number;
}

export interface ImportResource<T extends { id: number } = { id: number }> {
  /** `family.resource`, e.g. `calendar.events`: the name in progress lines and checkpoints. */
  readonly name: string;
  /** What `--only` selects: `calendar`, `redirection`, `history`, `users`. */
  readonly family: string;
  /**
   * A page of the source; `target` is the store imported into. `incremental`: the resource may leave
   * out of `records` what it can tell is unchanged in the target (listing those IDs in `ids`).
   */
  fetchPage(page: number, target: Store, incremental: boolean): Promise<SourcePage<T>>;
  writeBatch(store: Store, records: T[]): Promise<void>;
  /** The stored records with these IDs, in the form `fetchPage` gives (changed records, `--verify`). */
  sample(store: Store, ids: number[]): Promise<Map<number, T>>;
  /** The stored records the source's listing would show, were it this store (same statuses, same kinds). */
  storedIds(store: Store): Promise<number[]>;
  /** Removes these records (or moves them to the trash, as the legacy site did): the source no longer lists them. */
  remove(store: Store, ids: number[]): Promise<void>;
  /** Of these IDs missing from the listing, those really gone (a listing that hides some records asks one by one). */
  confirmGone?(ids: number[]): Promise<number[]>;
  /** Newest first, and a record never changes: an incremental run stops at the first page with nothing new. */
  readonly appendOnly?: boolean;
  /** After the resource's last batch (e.g. the audit log's runs rebuilt once). */
  finish?(store: Store): Promise<void>;
}

export type ProgressEvent =
  | { type: 'start'; resource: string; total: number; fromPage: number; totalPages: number; incremental: boolean }
  | { type: 'batch'; resource: string; page: number; totalPages: number; written: number; total: number }
  | { type: 'removed'; resource: string; ids: number[] }
  | { type: 'done'; resource: string; fetched: number; written: number; removed: number; seconds: number };

export interface ImportOptions {
  store: Store;
  /** The legacy base URL: the checkpoints' key. */
  source: string;
  resources: ImportResource[];
  /** Ignore the checkpoints of an interrupted run and start every resource from its first page. */
  restart?: boolean;
  /** Read and write everything, as a first run does (`--full`). */
  full?: boolean;
  /** Records per transaction. */
  batchSize?: number;
  /** Pages fetched ahead of the one being written. */
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (e: ProgressEvent) => void;
}

export interface ResourceSummary {
  name: string;
  incremental: boolean;
  fromPage: number;
  /** Records read from the source. */
  fetched: number;
  written: number;
  removed: number;
}

export interface ImportSummary {
  resources: ResourceSummary[];
  /** Records read from the source. */
  records: number;
  seconds: number;
}

/**
 * The pages `from`..last of a resource in order, with up to `concurrency` requests in flight ahead
 * of the page being consumed: memory holds at most that many pages, whatever the source's size.
 */
async function* pagesOf<T extends { id: number }>(r: ImportResource<T>, store: Store, incremental: boolean, first: SourcePage<T>, from: number, concurrency: number): AsyncGenerator<SourcePage<T>> {
  const inFlight = new Map<number, Promise<SourcePage<T>>>();
  let requested = from;
  try {
    for (let page = from; page <= first.totalPages; page++) {
      for (; requested <= first.totalPages && requested < page + concurrency; requested++) {
        const p = requested === 1 ? Promise.resolve(first) : r.fetchPage(requested, store, incremental);
        // Awaited in order below; an early failure must not be unhandled meanwhile.
        p.catch(() => undefined);
        inFlight.set(requested, p);
      }
      const current = await inFlight.get(page)!;
      inFlight.delete(page);
      yield current;
    }
  } finally {
    await Promise.allSettled(inFlight.values());
  }
}

const idsOf = (p: SourcePage<{ id: number }>) => p.ids ?? p.records.map((x) => x.id);

/** The records of a page that differ from their stored form (or are not stored). */
async function changedRecords<T extends { id: number }>(r: ImportResource<T>, store: Store, records: T[]): Promise<T[]> {
  if (!records.length) return records;
  const stored = await r.sample(store, records.map((x) => x.id));
  return records.filter((x) => !stored.has(x.id) || !sameRecord(x, stored.get(x.id)!));
}

/**
 * Syncs each resource from its checkpoint on. Records are written `batchSize` at a time, each batch
 * in one transaction together with its checkpoint, so an interrupted run resumes exactly after the
 * last batch written; between batches the event loop runs (a server in the same process keeps
 * answering). A run after a complete one writes only the records that differ from the stored ones;
 * a run that saw the whole source listing removes the imported records it no longer lists.
 */
export async function runImport(o: ImportOptions): Promise<ImportSummary> {
  const batchSize = o.batchSize ?? 500;
  const concurrency = o.concurrency ?? 4;
  const began = performance.now();
  const summary: ImportSummary = { resources: [], records: 0, seconds: 0 };
  await o.store.transaction(async (tx) => {
    if (o.restart || o.full) await tx.importCheckpoints.clear(o.source);
    // A store holding imported content never gets the demo content on top (see bootstrap.ts).
    if (!(await tx.options.get('demo_seeded_at'))) await tx.options.set('demo_seeded_at', `imported from ${o.source}`);
  });
  for (const r of o.resources) {
    const t0 = performance.now();
    const syncedFrom = new Date();
    const cp = await o.store.importCheckpoints.get(o.source, r.name);
    const incremental = cp?.syncedFrom != null;
    // A finished resource is read again from the start.
    let fromPage = cp && !cp.done ? cp.lastPage + 1 : 1;
    o.signal?.throwIfAborted();
    const first = await r.fetchPage(1, o.store, incremental);
    // The source shrank below the checkpoint since: start the resource again.
    if (fromPage > first.totalPages) fromPage = 1;
    const stats: ResourceSummary = { name: r.name, incremental, fromPage, fetched: 0, written: 0, removed: 0 };
    o.onProgress?.({ type: 'start', resource: r.name, total: first.total, fromPage, totalPages: first.totalPages, incremental });
    // Deletions are carried only by a run that saw the whole listing.
    const seen = fromPage === 1 ? new Set<number>() : null;
    let buffer: { id: number }[] = [];
    let lastPage = fromPage - 1;
    let stoppedEarly = false;
    const flush = async (done: boolean) => {
      o.signal?.throwIfAborted();
      const batch = buffer;
      buffer = [];
      await o.store.transaction(async (tx) => {
        if (batch.length) await r.writeBatch(tx, batch);
        await tx.importCheckpoints.markImported(r.name, batch.map((x) => x.id));
        await tx.importCheckpoints.save(o.source, r.name, lastPage, done, done ? syncedFrom : null);
      });
      stats.written += batch.length;
      o.onProgress?.({ type: 'batch', resource: r.name, page: lastPage, totalPages: first.totalPages, written: stats.written, total: first.total });
      await yieldToLoop();
    };
    for await (const page of pagesOf(r, o.store, incremental, first, fromPage, concurrency)) {
      lastPage = page.page;
      stats.fetched += page.records.length;
      for (const id of idsOf(page)) seen?.add(id);
      const records = incremental ? await changedRecords(r, o.store, page.records) : page.records;
      buffer.push(...records);
      if (buffer.length >= batchSize) await flush(false);
      if (r.appendOnly && incremental && records.length === 0) {
        stoppedEarly = true;
        break;
      }
    }
    await flush(true);
    if (seen) {
      // Stopped early, the listing was not all seen: the counts tell whether anything is gone.
      const listed = stoppedEarly && (await importedStored(r, o.store)).length === first.total ? null : seen;
      if (listed && stoppedEarly) for await (const page of pagesOf(r, o.store, false, first, 1, concurrency)) for (const id of idsOf(page)) listed.add(id);
      if (listed) stats.removed = await removeGone(r, o.store, listed, o.onProgress);
    }
    await r.finish?.(o.store);
    o.onProgress?.({ type: 'done', resource: r.name, fetched: stats.fetched, written: stats.written, removed: stats.removed, seconds: (performance.now() - t0) / 1000 });
    summary.resources.push(stats);
    summary.records += stats.fetched;
  }
  summary.seconds = (performance.now() - began) / 1000;
  return summary;
}

/** The stored records of this resource that came from the legacy site. */
async function importedStored(r: ImportResource, store: Store): Promise<number[]> {
  return store.importCheckpoints.imported(r.name, await r.storedIds(store));
}

/** Removes the imported records the source no longer lists; returns how many. */
async function removeGone(r: ImportResource, store: Store, listed: ReadonlySet<number>, onProgress?: (e: ProgressEvent) => void): Promise<number> {
  const missing = (await importedStored(r, store)).filter((id) => !listed.has(id));
  const gone = missing.length && r.confirmGone ? await r.confirmGone(missing) : missing;
  if (!gone.length) return 0;
  await store.transaction(async (tx) => {
    await r.remove(tx, gone);
    await tx.importCheckpoints.forget(r.name, gone);
  });
  onProgress?.({ type: 'removed', resource: r.name, ids: gone });
  return gone.length;
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
 * Compares the two sides record by record: every record the source lists (as a first run reads it)
 * against the stored one field by field, and every imported record the store holds that the
 * source's listing would show but does not. Records created in Lintel are not differences.
 */
export async function verifyImport(store: Store, resources: ImportResource[], concurrency = 4): Promise<Difference[]> {
  const diffs: Difference[] = [];
  for (const r of resources) {
    const first = await r.fetchPage(1, store, false);
    const seen = new Set<number>();
    for await (const page of pagesOf(r, store, false, first, 1, concurrency)) {
      for (const id of idsOf(page)) seen.add(id);
      const stored = await r.sample(store, page.records.map((x) => x.id));
      for (const rec of page.records) {
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
    const imported = await importedStored(r, store);
    for (const id of imported) if (!seen.has(id)) diffs.push({ resource: r.name, id, field: '(record)', source: 'missing', target: 'present' });
    const stored = new Set(await r.storedIds(store));
    const listed = [...seen].filter((id) => stored.has(id)).length + imported.filter((id) => !seen.has(id)).length;
    if (listed !== seen.size) diffs.push({ resource: r.name, field: 'count', source: seen.size, target: listed });
  }
  return diffs;
}

const sameRecord = (a: object, b: object) => Object.entries(a).every(([k, v]) => isDeepStrictEqual(comparable(v), comparable((b as Record<string, unknown>)[k])));

/** Dates compare by instant. */
const comparable = (v: unknown) => (v instanceof Date ? v.toISOString() : v);
