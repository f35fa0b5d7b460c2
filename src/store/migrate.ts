/**
 * Versioned migrations: `src/store/migrations/NNN-name.sql`, applied in order, each in its own
 * transaction and recorded in `schema_migrations`. An advisory lock lets many replicas start
 * against one server without applying a migration twice.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sql } from './sql.ts';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK = 7_340_001; // any constant shared by all replicas

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function listMigrations(dir = DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}-[\w-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 3)), name: f.slice(4, -4), sql: readFileSync(path.join(dir, f), 'utf8') }));
}

/** Applies what is missing; returns the versions applied now. */
export async function migrate(sql: Sql, migrations = listMigrations()): Promise<number[]> {
  await sql.query(`create table if not exists schema_migrations (
    version integer primary key, name text not null, applied_at timestamptz not null default now())`);
  // Versions already recorded stay applied: only the others take the lock, so a start on a migrated store
  // (every restart, every replica after the first) costs one query instead of a transaction per migration.
  const recorded = new Set((await sql.query<{ version: number }>('select version from schema_migrations')).map((r) => r.version));
  const applied: number[] = [];
  for (const m of migrations.filter((m) => !recorded.has(m.version))) {
    const done = await sql.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [LOCK]);
      const seen = await tx.query('select 1 from schema_migrations where version = $1', [m.version]);
      if (seen.length) return false;
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [m.version, m.name]);
      return true;
    });
    if (done) applied.push(m.version);
  }
  return applied;
}

// Parameterless multi-statement text is split on `;` at line ends, so both drivers run it the same way.
function splitStatements(text: string): string[] {
  return text
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}
