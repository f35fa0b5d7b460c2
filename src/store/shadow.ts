/** Shadow-mode comparisons: match counts per route and the stored mismatches (migration 034). */
import { z } from 'zod';
import type { Sql } from './sql.ts';

// Schemas, so `lintel/v1` can declare what its report routes answer; the types derive from them.
export const ShadowAnswer = z.object({ status: z.int(), headers: z.record(z.string(), z.string()), body: z.string() });
export type ShadowAnswer = z.infer<typeof ShadowAnswer>;

export const ShadowDifference = z.object({ path: z.string(), expected: z.unknown(), actual: z.unknown() });
export type ShadowDifference = z.infer<typeof ShadowDifference>;

export const ShadowComparison = z.object({
  namespace: z.string(),
  route: z.string(),
  method: z.string(),
  url: z.string(),
  primarySide: z.enum(['legacy', 'lintel']),
  primary: ShadowAnswer,
  shadow: ShadowAnswer,
  differences: z.array(ShadowDifference).meta({ description: 'Empty: the answers matched.' }),
});
export type ShadowComparison = z.infer<typeof ShadowComparison>;

export const ShadowRouteRate = z.object({
  namespace: z.string(),
  route: z.string(),
  compared: z.number(),
  matched: z.number(),
  rate: z.number().meta({ description: 'matched ÷ compared' }),
});
export type ShadowRouteRate = z.infer<typeof ShadowRouteRate>;

export const ShadowTopDifference = z.object({ namespace: z.string(), route: z.string(), path: z.string(), count: z.number() });
export type ShadowTopDifference = z.infer<typeof ShadowTopDifference>;

export const ShadowReport = z.object({ routes: z.array(ShadowRouteRate), differences: z.array(ShadowTopDifference) });
export type ShadowReport = z.infer<typeof ShadowReport>;

/** Stored mismatches keep this many differing paths (the first ones, depth first). */
export const STORED_DIFFERENCES = 20;

export class ShadowRepo {
  private readonly sql: Sql;
  constructor(sql: Sql) {
    this.sql = sql;
  }

  async record(c: ShadowComparison, now: Date): Promise<void> {
    const matched = c.differences.length === 0;
    await this.sql.transaction(async (tx) => {
      await tx.query(
        `insert into shadow_routes (namespace, route, compared, matched, last_at) values ($1, $2, 1, $3, $4)
         on conflict (namespace, route) do update set compared = shadow_routes.compared + 1, matched = shadow_routes.matched + excluded.matched, last_at = excluded.last_at`,
        [c.namespace, c.route, matched ? 1 : 0, now],
      );
      if (matched) return;
      await tx.query(
        `insert into shadow_mismatches (at, namespace, route, method, url, primary_side, primary_answer, shadow_answer, differences)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [now, c.namespace, c.route, c.method, c.url, c.primarySide, JSON.stringify(c.primary), JSON.stringify(c.shadow), JSON.stringify(c.differences.slice(0, STORED_DIFFERENCES))],
      );
    });
  }

  /** Match rates per route (worst first) and the differing paths seen most often. */
  async report(limit = 20): Promise<ShadowReport> {
    const routes = await this.sql.query<{ namespace: string; route: string; compared: string | number; matched: string | number }>(
      'select namespace, route, compared, matched from shadow_routes order by matched::float8 / compared, compared desc, namespace, route',
    );
    const differences = await this.sql.query<{ namespace: string; route: string; path: string; count: string | number }>(
      `select m.namespace, m.route, d->>'path' as path, count(*) as count
         from shadow_mismatches m, jsonb_array_elements(m.differences) d
        group by 1, 2, 3 order by count(*) desc, 1, 2, 3 limit $1`,
      [limit],
    );
    return {
      routes: routes.map((r) => ({ namespace: r.namespace, route: r.route, compared: Number(r.compared), matched: Number(r.matched), rate: Number(r.matched) / Number(r.compared) })),
      differences: differences.map((d) => ({ ...d, count: Number(d.count) })),
    };
  }

  /** The stored mismatches of a route, newest first. */
  async mismatches(namespace: string, route: string, limit = 10): Promise<(ShadowComparison & { at: Date })[]> {
    const rows = await this.sql.query<{ at: Date; namespace: string; route: string; method: string; url: string; primary_side: 'legacy' | 'lintel'; primary_answer: ShadowAnswer; shadow_answer: ShadowAnswer; differences: ShadowDifference[] }>(
      'select * from shadow_mismatches where namespace = $1 and route = $2 order by at desc, id desc limit $3',
      [namespace, route, limit],
    );
    return rows.map((r) => ({ at: r.at, namespace: r.namespace, route: r.route, method: r.method, url: r.url, primarySide: r.primary_side, primary: r.primary_answer, shadow: r.shadow_answer, differences: r.differences }));
  }
}
