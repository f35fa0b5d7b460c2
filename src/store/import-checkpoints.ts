/** Where an interrupted `lintel import` resumes: per legacy source and resource, the last page written. */
import type { Sql } from './sql.ts';

export interface ImportCheckpoint {
  resource: string;
  lastPage: number;
  done: boolean;
}

export class ImportCheckpointRepo {
  private readonly sql: Sql;
  constructor(sql: Sql) {
    this.sql = sql;
  }

  async get(source: string, resource: string): Promise<ImportCheckpoint | null> {
    const [r] = await this.sql.query<{ resource: string; last_page: number; done: boolean }>(
      'select resource, last_page, done from import_checkpoints where source = $1 and resource = $2', [source, resource]);
    return r ? { resource: r.resource, lastPage: r.last_page, done: r.done } : null;
  }

  async save(source: string, resource: string, lastPage: number, done: boolean): Promise<void> {
    await this.sql.query(`insert into import_checkpoints (source, resource, last_page, done) values ($1, $2, $3, $4)
      on conflict (source, resource) do update set last_page = excluded.last_page, done = excluded.done, updated_at = now()`, [source, resource, lastPage, done]);
  }

  /** Forgets a source's checkpoints (`--restart`). */
  async clear(source: string): Promise<void> {
    await this.sql.query('delete from import_checkpoints where source = $1', [source]);
  }
}
