/**
 * Records made during a run, per collection, with the ID each side gave them: a slot in a later
 * path is filled with the legacy ID on the legacy side and Lintel's on Lintel, and Lintel's IDs in
 * its answers are read as the legacy ones before the two are compared.
 */
import { ID_SLOT, type DiffRequest } from './requests.ts';

/** The seeded records (captures 001–041) have the same IDs on both sides: reads may pick any of them. */
const SEEDED_IDS = Array.from({ length: 40 }, (_, i) => i + 1);

export class IdMap {
  private readonly made = new Map<string, number[]>();
  private readonly legacyOf = new Map<number, number>();
  private readonly lintelOf = new Map<number, number>();

  /** The IDs filling the request's slot on each side, or null when a write has no record of its own to change. */
  pick(r: DiffRequest): { legacy: number; lintel: number } | null {
    if (!r.path.includes(ID_SLOT)) return { legacy: 0, lintel: 0 };
    const made = (r.collection && this.made.get(r.collection)) || [];
    const pool = r.write ? made : [...SEEDED_IDS, ...made];
    if (pool.length === 0) return null;
    const legacy = pool[r.pick % pool.length]!;
    return { legacy, lintel: this.lintelOf.get(legacy) ?? legacy };
  }

  /** A create that succeeded on both sides: its records are throwaway records of the collection from now on. */
  created(collection: string, legacy: unknown, lintel: unknown): void {
    const a = idOf(legacy);
    const b = idOf(lintel);
    if (a === null || b === null) return;
    this.made.set(collection, [...(this.made.get(collection) ?? []), a]);
    this.lintelOf.set(a, b);
    this.legacyOf.set(b, a);
  }

  /** Lintel's answer with the IDs of records made during the run read as the legacy ones. */
  asLegacy(value: unknown, key = ''): unknown {
    if (Array.isArray(value)) return value.map((v) => this.asLegacy(v));
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.asLegacy(v, k)]));
    if (typeof value === 'number' && /^(id|ID|.+_id)$/.test(key)) return this.legacyOf.get(value) ?? value;
    return value;
  }
}

/** The ID of a created record: `{id}`, or the first item's of a list answer (redirection answers its page of items). */
function idOf(body: unknown): number | null {
  const b = body as { id?: unknown; items?: { id?: unknown }[] } | null;
  if (typeof b?.id === 'number') return b.id;
  return null;
}
