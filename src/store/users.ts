/** Users and their application passwords. */
import { isRecordId } from './ids.ts';
import type { Sql } from './sql.ts';
import type { Role, User } from '../lib/roles.ts';

export interface UserRecord extends User {
  passwordHash: string | null;
}

export interface AppPasswordRecord {
  uuid: string;
  userId: number;
  appId: string;
  name: string;
  hash: string;
  createdAt: Date;
  lastUsed: Date | null;
  lastIp: string | null;
  /** A legacy site's password adopted on first use: when the origin last accepted it (null: Lintel's own). */
  legacyCheckedAt: Date | null;
  /** A revoked legacy password, kept so the origin is not asked about it again. */
  revokedAt: Date | null;
}

interface UserRow {
  id: number;
  login: string;
  email: string;
  display_name: string;
  role: Role;
  password_hash: string | null;
}

const toUser = (r: UserRow): UserRecord => ({
  id: r.id,
  login: r.login,
  email: r.email,
  displayName: r.display_name,
  role: r.role,
  passwordHash: r.password_hash,
});

interface AppPasswordRow {
  uuid: string;
  user_id: number;
  app_id: string;
  name: string;
  hash: string;
  created_at: Date;
  last_used: Date | null;
  last_ip: string | null;
  legacy_checked_at: Date | null;
  revoked_at: Date | null;
}

const toAppPassword = (r: AppPasswordRow): AppPasswordRecord => ({
  uuid: r.uuid,
  userId: r.user_id,
  appId: r.app_id,
  name: r.name,
  hash: r.hash,
  createdAt: r.created_at,
  lastUsed: r.last_used,
  lastIp: r.last_ip,
  legacyCheckedAt: r.legacy_checked_at,
  revokedAt: r.revoked_at,
});

export class UserRepo {
  private readonly sql: Sql;
  constructor(sql: Sql) {
    this.sql = sql;
  }

  async create(u: { login: string; email: string; displayName: string; role: Role; passwordHash: string | null; id?: number }): Promise<UserRecord> {
    const rows = await this.sql.query<UserRow>(
      `insert into users (id, login, email, display_name, role, password_hash)
       values (coalesce($1, nextval('users_id_seq')), $2, $3, $4, $5, $6) returning *`,
      [u.id ?? null, u.login, u.email, u.displayName, u.role, u.passwordHash],
    );
    if (u.id !== undefined) await this.sql.query(`select setval('users_id_seq', greatest($1, (select last_value from users_id_seq)))`, [u.id]);
    return toUser(rows[0]);
  }

  async byLogin(login: string): Promise<UserRecord | null> {
    const rows = await this.sql.query<UserRow>('select * from users where login = $1', [login]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  async byEmail(email: string): Promise<UserRecord | null> {
    const rows = await this.sql.query<UserRow>('select * from users where lower(email) = lower($1)', [email]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  async byId(id: number): Promise<UserRecord | null> {
    // An ID no user can have (`?author=99999999999999999999`) is nobody; int8 would refuse it.
    if (!isRecordId(id)) return null;
    const rows = await this.sql.query<UserRow>('select * from users where id = $1', [id]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  /** The users with these IDs that exist, in one query. */
  async byIds(ids: number[]): Promise<UserRecord[]> {
    if (!ids.length) return [];
    return (await this.sql.query<UserRow>('select * from users where id = any($1::int8[])', [ids])).map(toUser);
  }

  async list(): Promise<UserRecord[]> {
    return (await this.sql.query<UserRow>('select * from users order by id')).map(toUser);
  }

  async count(): Promise<number> {
    const [r] = await this.sql.query<{ n: number }>('select count(*)::int8 as n from users');
    return r.n;
  }

  /**
   * Users of the legacy site with their IDs, without passwords: importing one again updates its
   * login, e-mail, name and role and keeps what Lintel holds for it (a password hash, application
   * passwords). A user whose login or e-mail another user holds here is left out; returns the IDs written.
   */
  async importUsers(rows: { id: number; login: string; email: string; displayName: string; role: Role }[]): Promise<number[]> {
    if (!rows.length) return [];
    const written = await this.sql.query<{ id: number }>(
      `insert into users (id, login, email, display_name, role)
       select x.id, x.login, x.email, x.display_name, x.role from jsonb_to_recordset($1::jsonb) as x(id int8, login text, email text, display_name text, role text)
       where not exists (select 1 from users u where (u.login = x.login or u.email = x.email) and u.id <> x.id)
       on conflict (id) do update set login = excluded.login, email = excluded.email, display_name = excluded.display_name, role = excluded.role
       returning id`,
      [JSON.stringify(rows.map((r) => ({ id: r.id, login: r.login, email: r.email, display_name: r.displayName, role: r.role })))],
    );
    await this.sql.query(`select setval('users_id_seq', greatest($1, (select last_value from users_id_seq)))`, [Math.max(...rows.map((r) => r.id))]);
    return written.map((r) => r.id);
  }

  /** Removes these users with their application passwords and sessions. */
  async delete(ids: readonly number[]): Promise<void> {
    await this.sql.query('delete from users where id = any($1::int8[])', [ids]);
  }

  /** `legacyCheckedAt`: a legacy site's password, adopted now that the origin accepted it. */
  async addAppPassword(p: { uuid: string; userId: number; appId: string; name: string; hash: string; legacyCheckedAt?: Date }): Promise<AppPasswordRecord> {
    const rows = await this.sql.query<AppPasswordRow>(
      `insert into application_passwords (uuid, user_id, app_id, name, hash, legacy_checked_at) values ($1, $2, $3, $4, $5, $6) returning *`,
      [p.uuid, p.userId, p.appId, p.name, p.hash, p.legacyCheckedAt ?? null],
    );
    return toAppPassword(rows[0]);
  }

  /** The user's usable application passwords (revoked legacy ones are left out). */
  async appPasswords(userId: number): Promise<AppPasswordRecord[]> {
    return (await this.sql.query<AppPasswordRow>('select * from application_passwords where user_id = $1 and revoked_at is null order by created_at', [userId])).map(
      toAppPassword,
    );
  }

  /** The user (by login, or by email when `login` looks like one) with all their application passwords, in one query. */
  async withAppPasswords(login: string): Promise<{ user: UserRecord; passwords: AppPasswordRecord[] } | null> {
    const rows = await this.sql.query<UserRow & { passwords: AppPasswordRow[] | null }>(
      `select u.*, (select json_agg(p order by p.created_at) from application_passwords p where p.user_id = u.id) as passwords
       from users u where u.login = $1 or ($2 and lower(u.email) = lower($1))
       order by (u.login = $1) desc limit 1`,
      [login, login.includes('@')],
    );
    if (!rows[0]) return null;
    const date = (d: Date | null) => (d ? new Date(d) : null);
    const passwords = (rows[0].passwords ?? []).map((p) =>
      toAppPassword({ ...p, created_at: new Date(p.created_at), last_used: date(p.last_used), legacy_checked_at: date(p.legacy_checked_at), revoked_at: date(p.revoked_at) }),
    );
    return { user: toUser(rows[0]), passwords };
  }

  async hasAnyAppPassword(): Promise<boolean> {
    return (await this.sql.query('select 1 from application_passwords limit 1')).length > 0;
  }

  /**
   * Lintel's own passwords are deleted; an adopted legacy one is kept as revoked, so that it stays
   * refused rather than being asked of the legacy origin (and adopted) again.
   */
  async revokeAppPassword(userId: number, uuid: string): Promise<boolean> {
    const revoked = await this.sql.query(
      `with gone as (delete from application_passwords where user_id = $1 and uuid = $2 and legacy_checked_at is null and revoked_at is null returning uuid),
            kept as (update application_passwords set revoked_at = now() where user_id = $1 and uuid = $2 and legacy_checked_at is not null and revoked_at is null returning uuid)
       select uuid from gone union all select uuid from kept`,
      [userId, uuid],
    );
    return revoked.length > 0;
  }

  /** The legacy origin accepted an adopted password again. */
  async confirmLegacy(uuid: string, now: Date): Promise<void> {
    await this.sql.query('update application_passwords set legacy_checked_at = $2 where uuid = $1', [uuid, now]);
  }

  /** The legacy origin refuses an adopted password now (revoked there): it is forgotten here too. */
  async forgetLegacy(uuid: string): Promise<void> {
    await this.sql.query('delete from application_passwords where uuid = $1 and legacy_checked_at is not null', [uuid]);
  }

  /** Usage is recorded at most once a day per password, as the legacy site does. */
  async recordUse(uuid: string, ip: string, now: Date): Promise<void> {
    await this.sql.query(
      `update application_passwords set last_used = $2, last_ip = $3
       where uuid = $1 and (last_used is null or last_used < $2::timestamptz - interval '1 day')`,
      [uuid, now, ip],
    );
  }
}
