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

export interface ShadowHour {
  namespace: string;
  route: string;
  hour: Date;
  compared: number;
  matched: number;
  /** Mismatches where one side refused the credentials (401/403) and the other did not. */
  authMismatches: number;
}

const REFUSED = new Set([401, 403]);
/** One side refused the credentials and the other did not: a login difference, not a data one. */
export const refusedCredentials = (c: Pick<ShadowComparison, 'primary' | 'shadow'>) => REFUSED.has(c.primary.status) !== REFUSED.has(c.shadow.status);
const AUTH_REFUSAL = `((m.primary_answer->>'status')::int in (401, 403)) <> ((m.shadow_answer->>'status')::int in (401, 403))`;

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
      await tx.query(
        `insert into shadow_hourly (namespace, route, hour, compared, matched, auth_mismatches) values ($1, $2, date_trunc('hour', $3::timestamptz), 1, $4, $5)
         on conflict (namespace, route, hour) do update set compared = shadow_hourly.compared + 1, matched = shadow_hourly.matched + excluded.matched,
           auth_mismatches = shadow_hourly.auth_mismatches + excluded.auth_mismatches`,
        [c.namespace, c.route, now, matched ? 1 : 0, !matched && refusedCredentials(c) ? 1 : 0],
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

  /** Per route and hour since `since`: compared, matched and auth mismatches, oldest hour first. */
  async hourly(since: Date): Promise<ShadowHour[]> {
    const rows = await this.sql.query<{ namespace: string; route: string; hour: Date; compared: string | number; matched: string | number; auth_mismatches: string | number }>(
      'select * from shadow_hourly where hour >= $1 order by namespace, route, hour',
      [since],
    );
    return rows.map((r) => ({ namespace: r.namespace, route: r.route, hour: new Date(r.hour), compared: Number(r.compared), matched: Number(r.matched), authMismatches: Number(r.auth_mismatches) }));
  }

  /**
   * The data differences seen most often, with the newest example of each (mismatches where one
   * side refused the credentials are left out: they say nothing about the data).
   */
  async topDataDifferences(limit = 20): Promise<(ShadowTopDifference & { expected: unknown; actual: unknown; url: string })[]> {
    const rows = await this.sql.query<{ namespace: string; route: string; path: string; count: string | number; example: { expected: unknown; actual: unknown; url: string } }>(
      `select m.namespace, m.route, d->>'path' as path, count(*) as count,
              (array_agg(jsonb_build_object('expected', d->'expected', 'actual', d->'actual', 'url', m.url) order by m.at desc, m.id desc))[1] as example
         from shadow_mismatches m, jsonb_array_elements(m.differences) d
        where not (${AUTH_REFUSAL})
        group by 1, 2, 3 order by count(*) desc, 1, 2, 3 limit $1`,
      [limit],
    );
    return rows.map((r) => ({ namespace: r.namespace, route: r.route, path: r.path, count: Number(r.count), ...r.example }));
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
