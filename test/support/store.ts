/**
 * The store for a test file: embedded PGlite in memory, or, in the PostgreSQL lane
 * (LINTEL_TEST_DATABASE_URL set), a throwaway database on that server, dropped at close.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadConfig, type Config } from '../../src/config.ts';
import { migrate } from '../../src/store/migrate.ts';
import { openPglite, type SqlDriver } from '../../src/store/sql.ts';
import { openStore, type OpenStore } from '../../src/store/store.ts';
import { adminStatement, PG_TEMPLATE_ENV, TEMPLATE_ENV } from './templates.ts';

export const storeLane = process.env.LINTEL_TEST_DATABASE_URL ? 'postgres' : 'pglite';

/**
 * A new database on the PostgreSQL lane's server, or on `server` (for tests and the bench that start Lintel as a
 * process): a copy of the run's migrated template when there is one, unless `empty`.
 */
export async function throwawayDatabase(server = process.env.LINTEL_TEST_DATABASE_URL, opts: { empty?: boolean } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  if (!server) throw new Error('throwawayDatabase needs LINTEL_TEST_DATABASE_URL');
  const name = `lintel_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = (statement: string) => adminStatement(server, statement);
  // A copy of the run's migrated template (templates.ts) when on the lane's server: opening it migrates nothing.
  const template = !opts.empty && server === process.env.LINTEL_TEST_DATABASE_URL ? process.env[PG_TEMPLATE_ENV] : undefined;
  await admin(`create database ${name}${template ? ` template ${template}` : ''}`);
  const u = new URL(server);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/** The store settings of a default configuration, with these overrides (timeouts and the like stay as shipped). */
export function storeConfig(over: Partial<Config>): Config {
  return { ...loadConfig({}), ...over };
}

/** The migrated data folder of the run (templates.ts), read once per worker; none outside vitest (the bench). */
let template: Blob | undefined;
function pgliteTemplate(): Blob | undefined {
  const file = process.env[TEMPLATE_ENV];
  if (file && !template) template = new Blob([readFileSync(file)]);
  return template;
}

export async function testStore(): Promise<OpenStore> {
  if (storeLane === 'pglite') return openStore(storeConfig({ databaseUrl: undefined, dataDir: '', poolSize: 1 }), { inMemory: true, inMemoryDriver: await lentPglite() });
  const db = await throwawayDatabase();
  const store = await openStore(storeConfig({ databaseUrl: db.url, dataDir: '', poolSize: 4 }));
  return {
    ...store,
    async close() {
      await store.close();
      await db.drop();
    },
  };
}

/**
 * The worker's in-memory PGlite instances, lent to one test store at a time: a store's close gives its
 * instance back with every table as the template has it (truncated, the template's rows put back, each
 * sequence where the template left it), so the next store skips PGlite's start (0.7 CPU-seconds, where the
 * reset takes 0.1). An instance whose schema or settings a test changed, or that a test closed, is closed
 * instead of lent again.
 */
const idle: SqlDriver[] = [];
// Each instance holds a few hundred MB: the stores a file opens at once beyond these start afresh.
const MAX_IDLE = 2;

/** What a reset restores: the template's rows and sequences, and the schema it checks (taken from the first instance of the worker). */
interface Pristine {
  tables: string[];
  rows: { table: string; columns: string; json: string }[];
  sequences: { name: string; value: number; called: boolean }[];
  schema: string;
}
let pristine: Promise<Pristine> | undefined;

// The user schema and database-level settings: what a test may change that a reset does not put back.
const SCHEMA_FINGERPRINT = `select md5(concat_ws('|',
  (select string_agg(format('%s.%s:%s', n.nspname, c.relname, c.relkind), ',' order by n.nspname, c.relname) from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname not like 'pg_temp%' and n.nspname not like 'pg_toast_temp%'),
  (select string_agg(format('%s.%s:%s:%s:%s', a.attrelid::regclass, a.attname, a.atttypid::regtype, a.attnotnull, pg_get_expr(d.adbin, d.adrelid)), ',' order by a.attrelid::regclass::text, a.attnum) from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum where n.nspname = 'public' and a.attnum > 0 and not a.attisdropped),
  (select string_agg(format('%s:%s', conname, pg_get_constraintdef(oid)), ',' order by conname, conrelid) from pg_constraint where connamespace = 'public'::regnamespace),
  (select string_agg(format('%s:%s:%s', tgrelid::regclass, tgname, tgenabled), ',' order by tgrelid::regclass::text, tgname) from pg_trigger where not tgisinternal),
  (select string_agg(format('%s:%s', p.oid::regprocedure, md5(p.prosrc)), ',' order by p.oid::regprocedure::text) from pg_proc p where p.pronamespace = 'public'::regnamespace),
  (select string_agg(array_to_string(setconfig, ';'), ',') from pg_db_role_setting),
  (select string_agg(rolname, ',' order by rolname) from pg_roles)
)) as schema`;

async function readPristine(db: SqlDriver): Promise<Pristine> {
  const tables = (await db.query<{ name: string }>(`select quote_ident(tablename) as name from pg_tables where schemaname = 'public' order by tablename`)).map((r) => r.name);
  const rows: Pristine['rows'] = [];
  for (const table of tables) {
    const [{ json }] = await db.query<{ json: string | null }>(`select json_agg(t)::text as json from ${table} t`);
    if (!json) continue;
    // Generated columns take no value of their own.
    const columns = (await db.query<{ name: string }>(`select quote_ident(column_name) as name from information_schema.columns where table_schema = 'public' and quote_ident(table_name) = $1 and is_generated = 'NEVER' order by ordinal_position`, [table])).map((r) => r.name).join(', ');
    rows.push({ table, columns, json });
  }
  const sequences: Pristine['sequences'] = [];
  for (const { name } of await db.query<{ name: string }>(`select quote_ident(sequencename) as name from pg_sequences where schemaname = 'public'`)) {
    const [s] = await db.query<{ last_value: number; is_called: boolean }>(`select last_value, is_called from ${name}`);
    sequences.push({ name, value: s.last_value, called: s.is_called });
  }
  const [{ schema }] = await db.query<{ schema: string }>(SCHEMA_FINGERPRINT);
  return { tables, rows, sequences, schema };
}

/** Puts the template's contents back; false when the instance can no longer stand for the template. */
async function reset(db: SqlDriver, p: Pristine): Promise<boolean> {
  // Session state first: settings, advisory locks, temporary tables.
  await db.query('reset all');
  await db.query('select pg_advisory_unlock_all()');
  await db.query('discard temp');
  const [{ schema }] = await db.query<{ schema: string }>(SCHEMA_FINGERPRINT);
  if (schema !== p.schema) return false;
  await db.transaction(async (tx) => {
    // The rows as they were, not as triggers would derive them again; no foreign key checked in between.
    await tx.query(`set local session_replication_role = replica`);
    await tx.query(`truncate ${p.tables.join(', ')} restart identity`);
    for (const r of p.rows) await tx.query(`insert into ${r.table} (${r.columns}) overriding system value select ${r.columns} from json_populate_recordset(null::${r.table}, $1)`, [r.json]);
    for (const s of p.sequences) await tx.query(`select setval($1, $2, $3)`, [s.name, s.value, s.called]);
  });
  return true;
}

async function lentPglite(): Promise<SqlDriver> {
  let db = idle.pop();
  if (!db) {
    db = await openPglite(null, { template: pgliteTemplate() });
    // Migrated already when started from the run's template; outside vitest (the bench), migrated here.
    await migrate(db);
    pristine ??= readPristine(db);
    await pristine;
  }
  const own = db;
  const base = own.statements();
  let returned: Promise<void> | undefined;
  // A statement sent after the store closed (a timer of the closed app) fails as on a closed PGlite, not on the next store's data.
  const closed = () => Promise.reject(new Error('PGlite is closed'));
  return {
    ...own,
    query: (text, params) => (returned ? closed() : own.query(text, params)),
    transaction: (fn) => (returned ? closed() : own.transaction(fn)),
    listen: (channel, onPayload, onLive) => (returned ? closed() : own.listen(channel, onPayload, onLive)),
    statements: () => own.statements() - base,
    close() {
      returned ??= (async () => {
        const reusable = idle.length < MAX_IDLE && (await reset(own, await pristine!).catch(() => false));
        // Counted again after the reset: stores closing at once must not keep more than MAX_IDLE instances.
        if (reusable && idle.length < MAX_IDLE) idle.push(own);
        else await own.close().catch(() => {});
      })();
      return returned;
    },
  };
}
