/**
 * Saved answers of writes sent with an `Idempotency-Key` (migration 080), per user, for 24 hours.
 * `claim` runs first in the write's transaction: its insert holds the key's row lock until that
 * transaction ends, so a concurrent retry waits, then finds the saved answer.
 */
import type { Sql } from './sql.ts';

export interface SavedAnswer {
  /** The fingerprint of the request the key was first used for. */
  request: string;
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

interface Row {
  request: string;
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** How long a key is kept. */
const KEPT = `interval '24 hours'`;

export class IdempotencyRepo {
  private readonly sql: Sql;
  constructor(sql: Sql) {
    this.sql = sql;
  }

  /** The answer saved for the key (within 24 hours), or null after claiming the key for this transaction. */
  async claim(userId: number, key: string, request: string): Promise<SavedAnswer | null> {
    // A key older than 24 hours is free again.
    await this.sql.query(`delete from idempotency_keys where user_id = $1 and key = $2 and created_at <= now() - ${KEPT}`, [userId, key]);
    const claimed = await this.sql.query(
      `insert into idempotency_keys (user_id, key, request, status, headers) values ($1, $2, $3, 0, '{}') on conflict do nothing returning key`,
      [userId, key, request],
    );
    if (claimed.length) return null;
    const [row] = await this.sql.query<Row>('select request, status, headers, body from idempotency_keys where user_id = $1 and key = $2', [userId, key]);
    return row ?? null;
  }

  /** Saves the answer of the key claimed in this transaction. */
  async save(userId: number, key: string, answer: Omit<SavedAnswer, 'request'>): Promise<void> {
    await this.sql.query('update idempotency_keys set status = $3, headers = $4, body = $5 where user_id = $1 and key = $2', [userId, key, answer.status, JSON.stringify(answer.headers), answer.body]);
  }

  /** Forgets keys older than 24 hours. */
  async purge(): Promise<void> {
    await this.sql.query(`delete from idempotency_keys where created_at <= now() - ${KEPT}`);
  }
}
