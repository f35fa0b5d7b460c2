/**
 * Statements on embedded PGlite as the `pg` pool runs them: prepared once under a name, then each
 * run is one trip into the WebAssembly Postgres (bind, execute, sync) instead of PGlite's six
 * (parse, describe, bind, describe, execute, sync, each parsed and planned again). Measured on the
 * archive page's statement: 1.4 ms of CPU per run through `PGlite.query`, 0.47 ms prepared. The
 * first PREPARED_TEXTS texts get names; later ones are prepared unnamed on each run, so the
 * session holds a bounded set.
 */
import { type PGlite, protocol } from '@electric-sql/pglite';

const PREPARED_TEXTS = 500;

/** The name of the session's `named`-th prepared text (both drivers), or undefined past PREPARED_TEXTS: run unnamed. */
export function statementName(named: number): string | undefined {
  return named < PREPARED_TEXTS ? `lintel_${named}` : undefined;
}

interface Statement {
  name: string;
  paramTypes: number[];
  fields: { name: string; dataTypeID: number }[];
}

/** The backend messages read here: parameterDescription, rowDescription (`fields`: the columns), dataRow (`fields`: the values as text). */
type Message = { name: string; dataTypeIDs?: number[]; fields?: unknown[] };

/**
 * Runs `text` with `params` on `db`, rows as objects (PGlite's own parsers and serializers, so the
 * values are those `db.query` gives). The caller holds PGlite's lock: no other statement may run
 * between the trips of one call.
 */
export function preparedRunner(db: PGlite): <T>(text: string, params?: readonly unknown[]) => Promise<T[]> {
  const statements = new Map<string, Statement>();
  const trip = async (...parts: Uint8Array[]): Promise<Message[]> => (await db.execProtocol(Buffer.concat(parts), { syncToFs: false })).messages as Message[];

  async function prepare(text: string): Promise<Statement> {
    const kept = statements.get(text);
    if (kept) return kept;
    const name = statementName(statements.size) ?? '';
    const described = await trip(protocol.serialize.parse({ name, text, types: [] }), protocol.serialize.describe({ type: 'S', name }), protocol.serialize.sync());
    const statement = {
      name,
      paramTypes: described.find((m) => m.name === 'parameterDescription')?.dataTypeIDs ?? [],
      fields: ((described.find((m) => m.name === 'rowDescription')?.fields ?? []) as Statement['fields']).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
    };
    if (name) statements.set(text, statement);
    return statement;
  }

  return async <T>(text: string, params: readonly unknown[] = []): Promise<T[]> => {
    const st = await prepare(text);
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const serializer = db.serializers[st.paramTypes[i]];
      return serializer ? serializer(v) : String(v);
    });
    const messages = await trip(protocol.serialize.bind({ statement: st.name, values }), protocol.serialize.execute({}), protocol.serialize.sync());
    const rows: T[] = [];
    for (const m of messages) {
      if (m.name !== 'dataRow') continue;
      const row: Record<string, unknown> = {};
      const texts = m.fields as (string | null)[];
      st.fields.forEach((f, i) => {
        const v = texts[i];
        const parser = db.parsers[f.dataTypeID];
        row[f.name] = v === null ? null : parser ? parser(v, f.dataTypeID) : v;
      });
      rows.push(row as T);
    }
    return rows;
  };
}
