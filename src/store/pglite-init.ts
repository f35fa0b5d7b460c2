/**
 * `node pglite-init.ts <folder>`: creates an empty PGlite cluster in the folder (PostgreSQL's initdb)
 * and exits. openPglite runs it as a child process on a first start: initdb grows PGlite's WebAssembly
 * memory to about 400 MB (550 MB at its peak), which a process never gives back, so the server that
 * opens the folder afterwards starts at the size of a restart instead (README, Footprint).
 */
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_START_PARAMS } from './sql.ts';

const db = await PGlite.create(process.argv[2], { startParams: PGLITE_START_PARAMS });
await db.close();
