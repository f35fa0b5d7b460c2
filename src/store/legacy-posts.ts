/**
 * The legacy site's posts that are no calendar record (posts, pages, revisions, menus, attachments...),
 * as `lintel import` finds them: they share the post ID space with the calendar, and the legacy
 * answers to a calendar route naming one depend on what it is (`edit_post` on it, its type).
 */
import { upsertById } from './calendar.ts';
import { isRecordId, reserveId } from './ids.ts';
import type { Sql } from './sql.ts';

export interface LegacyPost {
  id: number;
  /** WordPress's post type (`post`, `page`, `revision`, `wp_navigation`, ...). */
  post_type: string;
  status: string;
  /** 0: none (a menu has no author). */
  author: number;
  /** A revision's post; 0 for none. */
  parent: number;
}

export class LegacyPostRepo {
  private readonly sql: Sql;
  constructor(sql: Sql) {
    this.sql = sql;
  }

  async byId(id: number): Promise<LegacyPost | null> {
    if (!isRecordId(id)) return null;
    return (await this.sql.query<LegacyPost>('select id, post_type, status, author, parent from legacy_posts where id = $1', [id]))[0] ?? null;
  }

  /** These posts, keyed by ID (the importer compares a page at a time). */
  async many(ids: readonly number[]): Promise<Map<number, LegacyPost>> {
    const rows = await this.sql.query<LegacyPost>('select id, post_type, status, author, parent from legacy_posts where id = any($1::int8[])', [ids]);
    return new Map(rows.map((r) => [Number(r.id), r]));
  }

  async ids(): Promise<number[]> {
    return (await this.sql.query<{ id: number }>('select id from legacy_posts order by id')).map((r) => Number(r.id));
  }

  /** Keeps these posts (updating those held) and moves the post ID sequence past them: Lintel never hands out an ID the legacy site used. */
  async importPosts(rows: LegacyPost[]): Promise<void> {
    await upsertById(this.sql, 'legacy_posts', rows);
    // A reduce, not Math.max(...ids): a spread of some 120,000 arguments overflows the call stack.
    if (rows.length) await reserveId(this.sql, 'post_id_seq', rows.reduce((max, r) => Math.max(max, r.id), 0));
  }

  /**
   * Whether a published post of these authors (WP_Query's author__in, or author__not_in, which wins
   * when the list names any ID below 1) is held, of `postType` or of any type.
   */
  async hasPublished(authors: { in: number[] } | { notIn: number[] }, postType?: string): Promise<boolean> {
    // IDs no user can have are nobody's: none wrote a post, and excluding them excludes nothing.
    const [cond, ids] = 'in' in authors ? ['author = any($1::int8[])', authors.in.filter(isRecordId)] : ['author <> all($1::int8[])', authors.notIn.filter(isRecordId)];
    const found = await this.sql.query(`select 1 from legacy_posts where status = 'publish' and ${cond} and ($2::text is null or post_type = $2) limit 1`, [ids, postType ?? null]);
    return found.length > 0;
  }

  /** Forgets posts the legacy site no longer has (their IDs stay spent: the sequence never goes back). */
  async remove(ids: readonly number[]): Promise<void> {
    if (ids.length) await this.sql.query('delete from legacy_posts where id = any($1::int8[])', [ids]);
  }
}
