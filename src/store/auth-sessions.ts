/** Sessions of the authorize-application page (between login and approval); see migration 002. */
import type { Sql } from './sql.ts';

export interface AuthSession {
  userId: number;
  csrfHash: string;
  request: Record<string, string>;
  expiresAt: Date;
}

interface Row {
  user_id: number;
  csrf_hash: string;
  request: Record<string, string>;
  expires_at: Date;
}

const toSession = (r: Row): AuthSession => ({ userId: r.user_id, csrfHash: r.csrf_hash, request: r.request, expiresAt: r.expires_at });

export class AuthSessionRepo {
  private readonly sql: Sql;
  constructor(sql: Sql) {
    this.sql = sql;
  }

  /** Stores a new session and drops the expired ones, so the table stays small without a sweeper. */
  async create(s: AuthSession & { tokenHash: string }, now: Date): Promise<void> {
    await this.sql.query('delete from auth_sessions where expires_at <= $1', [now]);
    await this.sql.query('insert into auth_sessions (token_hash, user_id, csrf_hash, request, expires_at) values ($1, $2, $3, $4, $5)', [
      s.tokenHash,
      s.userId,
      s.csrfHash,
      JSON.stringify(s.request),
      s.expiresAt,
    ]);
  }

  /** The live session, or null when unknown or expired. */
  async find(tokenHash: string, now: Date): Promise<AuthSession | null> {
    const rows = await this.sql.query<Row>('select * from auth_sessions where token_hash = $1 and expires_at > $2', [tokenHash, now]);
    return rows[0] ? toSession(rows[0]) : null;
  }

  /** Ends a live session; false when it was already used or expired (a second submit loses). */
  async take(tokenHash: string, now: Date): Promise<boolean> {
    return (await this.sql.query('delete from auth_sessions where token_hash = $1 and expires_at > $2 returning token_hash', [tokenHash, now])).length > 0;
  }
}
