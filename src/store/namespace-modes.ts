/** Namespace modes set at run time (`lintel mode`), which override `mappings/` (migration 073). */
import type { Sql } from './sql.ts';

export type Mode = 'translate' | 'forward' | 'shadow';

export interface ModeOverride {
  namespace: string;
  mode: Mode;
  /** shadow: which side answers the client; null: as mappings say. */
  primary: 'legacy' | 'lintel' | null;
}

export class NamespaceModeRepo {
  private readonly sql: Sql;
  constructor(sql: Sql) {
    this.sql = sql;
  }

  async list(): Promise<ModeOverride[]> {
    const rows = await this.sql.query<{ namespace: string; mode: Mode; primary_side: ModeOverride['primary'] }>(
      'select namespace, mode, primary_side from namespace_modes order by namespace',
    );
    return rows.map((r) => ({ namespace: r.namespace, mode: r.mode, primary: r.primary_side }));
  }

  async set(o: ModeOverride): Promise<void> {
    await this.sql.query(
      `insert into namespace_modes (namespace, mode, primary_side) values ($1, $2, $3)
       on conflict (namespace) do update set mode = excluded.mode, primary_side = excluded.primary_side, updated_at = now()`,
      [o.namespace, o.mode, o.primary],
    );
  }
}
