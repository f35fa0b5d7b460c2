/**
 * `lintel import` as a sync: where an interrupted run resumes (per legacy source and resource, the
 * last page written), when each resource last finished (the next run is incremental), and which
 * records of the store came from the legacy site (only those are removed when the legacy site no
 * longer has them; records created in Lintel are never touched).
 */
import type { Sql } from './sql.ts';

export interface ImportCheckpoint {
  resource: string;
  lastPage: number;
  done: boolean;
  /** When the last complete run of this resource began: the next run only reads what changed since. */
  syncedFrom: Date | null;
}

export class ImportCheckpointRepo {
  private readonly sql: Sql;
  constructor(sql: Sql) {
    this.sql = sql;
  }

  async get(source: string, resource: string): Promise<ImportCheckpoint | null> {
    const [r] = await this.sql.query<{ resource: string; last_page: number; done: boolean; synced_from: Date | null }>(
      'select resource, last_page, done, synced_from from import_checkpoints where source = $1 and resource = $2', [source, resource]);
    return r ? { resource: r.resource, lastPage: r.last_page, done: r.done, syncedFrom: r.synced_from } : null;
  }

  /** `syncedFrom` is set when the resource is done, and kept from the last complete run otherwise. */
  async save(source: string, resource: string, lastPage: number, done: boolean, syncedFrom: Date | null = null): Promise<void> {
    await this.sql.query(`insert into import_checkpoints (source, resource, last_page, done, synced_from) values ($1, $2, $3, $4, $5)
      on conflict (source, resource) do update set last_page = excluded.last_page, done = excluded.done,
        synced_from = coalesce(excluded.synced_from, import_checkpoints.synced_from), updated_at = now()`, [source, resource, lastPage, done, syncedFrom]);
  }

  /** Forgets a source's checkpoints (`--restart`, `--full`). */
  async clear(source: string): Promise<void> {
    await this.sql.query('delete from import_checkpoints where source = $1', [source]);
  }

  /** Marks these records of a resource as imported. */
  async markImported(resource: string, ids: readonly number[]): Promise<void> {
    if (ids.length) await this.sql.query('insert into import_records (resource, id) select $1, unnest($2::int8[]) on conflict do nothing', [resource, ids]);
  }

  /** Of these IDs, those imported for this resource. */
  async imported(resource: string, ids: readonly number[]): Promise<number[]> {
    return (await this.sql.query<{ id: number }>('select id from import_records where resource = $1 and id = any($2::int8[])', [resource, ids])).map((r) => r.id);
  }

  async forget(resource: string, ids: readonly number[]): Promise<void> {
    if (ids.length) await this.sql.query('delete from import_records where resource = $1 and id = any($2::int8[])', [resource, ids]);
  }
}
