/**
 * Failed-login counters in the store (migration 031), so that replicas sharing one PostgreSQL
 * database share them. Each call is one statement, hence atomic on its own: concurrent failures
 * on one key from many replicas all count (the upsert takes the row lock).
 */
import type { Sql } from './sql.ts';

/** The failures of a key's current window, and the seconds until that window ends. */
export interface ThrottleCount {
  key: string;
  failures: number;
  waitS: number;
}

interface Row {
  key: string;
  failures: number;
  wait_s: number;
}

const toCount = (r: Row): ThrottleCount => ({ key: r.key, failures: r.failures, waitS: r.wait_s });

// The database's clock, not each replica's: replicas with skewed clocks still agree on the windows.
const WAIT = `ceil(extract(epoch from window_end - now()))::int as wait_s`;

export class LoginThrottleRepo {
  private readonly sql: Sql;
  constructor(sql: Sql) {
    this.sql = sql;
  }

  /** The live counts of these keys (keys without failures in a current window are left out). */
  async counts(keys: readonly string[]): Promise<ThrottleCount[]> {
    const rows = await this.sql.query<Row>(`select key, failures, ${WAIT} from login_throttle where key = any($1::text[]) and window_end > now()`, [keys]);
    return rows.map(toCount);
  }

  /**
   * Counts one failure on each key; a key whose window has ended starts a new one of `windowS`.
   * Callers pass keys in one fixed order (login before client), so concurrent upserts cannot deadlock.
   */
  async fail(keys: readonly string[], windowS: number): Promise<ThrottleCount[]> {
    const rows = await this.sql.query<Row>(
      `insert into login_throttle as t (key, failures, window_end)
       select k, 1, now() + make_interval(secs => $2) from unnest($1::text[]) with ordinality as u(k, n) order by n
       on conflict (key) do update set
         failures = case when t.window_end <= now() then 1 else t.failures + 1 end,
         window_end = case when t.window_end <= now() then excluded.window_end else t.window_end end
       returning key, failures, ${WAIT}`,
      [keys, windowS],
    );
    return rows.map(toCount);
  }

  /** Forgets a key's failures (a successful login). */
  async clear(key: string): Promise<void> {
    await this.sql.query('delete from login_throttle where key = $1', [key]);
  }

  /** Drops the counts whose window has ended, so the table holds only live windows. */
  async purge(): Promise<void> {
    await this.sql.query('delete from login_throttle where window_end <= now()');
  }
}
