/** Forms, their fields and their submissions (forms-views and forms-submissions). */
import type { Sql } from './sql.ts';
import { like } from './where.ts';

export interface Form {
  id: number;
  title: string;
  tablePages: string[];
}

export interface FormField {
  id: number;
  formId: number;
  key: string;
  label: string;
  adminLabel: string;
  type: string;
  options: unknown[];
}

export type FieldValue = string | string[];

export interface Submission {
  id: number;
  formId: number;
  seqNum: number;
  status: 'active' | 'trash';
  submittedAt: Date;
  /** By field id. */
  values: Record<string, FieldValue>;
  extra: Record<string, unknown>;
}

export interface SubmissionQuery {
  formId: number;
  /** Unset: both. */
  status?: 'active' | 'trash';
  from?: Date;
  to?: Date;
  /** Case-insensitive match on any value. */
  search?: string;
  ids?: number[];
  limit?: number;
  offset?: number;
}

interface SubmissionRow {
  id: number;
  form_id: number;
  seq_num: number;
  status: 'active' | 'trash';
  submitted_at: Date;
  field_values: Record<string, FieldValue>;
  extra: Record<string, unknown>;
}

const toSubmission = (r: SubmissionRow): Submission => ({
  id: r.id, formId: r.form_id, seqNum: r.seq_num, status: r.status, submittedAt: r.submitted_at, values: r.field_values, extra: r.extra,
});

const SUBMISSION_COLUMNS = 'id, form_id, seq_num, status, submitted_at, field_values, extra';

export class FormsRepo {
  private readonly sql: Sql;
  constructor(sql: Sql) {
    this.sql = sql;
  }

  async createForm(title: string, tablePages: string[] = []): Promise<number> {
    const [r] = await this.sql.query<{ id: number }>('insert into forms (title, table_pages) values ($1, $2) returning id', [title, tablePages]);
    return r.id;
  }

  async addField(formId: number, f: Omit<FormField, 'id' | 'formId'>, position: number): Promise<number> {
    const [r] = await this.sql.query<{ id: number }>(
      'insert into form_fields (form_id, key, label, admin_label, type, options, position) values ($1, $2, $3, $4, $5, $6::jsonb, $7) returning id',
      [formId, f.key, f.label, f.adminLabel, f.type, JSON.stringify(f.options), position],
    );
    return r.id;
  }

  async forms(ids?: number[]): Promise<Form[]> {
    const rows = await this.sql.query<{ id: number; title: string; table_pages: string[] }>(
      `select id, title, table_pages from forms ${ids ? 'where id = any($1::int8[])' : ''} order by id`,
      ids ? [ids] : [],
    );
    return rows.map((r) => ({ id: r.id, title: r.title, tablePages: r.table_pages }));
  }

  async form(id: number): Promise<Form | null> {
    return (await this.forms([id]))[0] ?? null;
  }

  /** The form whose table is shown on this site path, if any. */
  async formsOnPage(pagePath: string): Promise<Form[]> {
    const rows = await this.sql.query<{ id: number; title: string; table_pages: string[] }>(
      'select id, title, table_pages from forms where $1 = any(table_pages) order by id',
      [pagePath],
    );
    return rows.map((r) => ({ id: r.id, title: r.title, tablePages: r.table_pages }));
  }

  async fields(formId: number): Promise<FormField[]> {
    const rows = await this.sql.query<{ id: number; form_id: number; key: string; label: string; admin_label: string; type: string; options: unknown[] }>(
      'select id, form_id, key, label, admin_label, type, options from form_fields where form_id = $1 order by position, id',
      [formId],
    );
    return rows.map((r) => ({ id: r.id, formId: r.form_id, key: r.key, label: r.label, adminLabel: r.admin_label, type: r.type, options: r.options }));
  }

  /** Adds a submission with the form's next sequence number. */
  async addSubmission(formId: number, values: Record<string, FieldValue>, at: Date): Promise<Submission> {
    const [r] = await this.sql.query<SubmissionRow>(
      `with seq as (update forms set next_seq = next_seq + 1 where id = $1 returning next_seq - 1 as n)
       insert into form_submissions (form_id, seq_num, submitted_at, field_values) select $1, n, $2, $3::jsonb from seq
       returning ${SUBMISSION_COLUMNS}`,
      [formId, at, JSON.stringify(values)],
    );
    return toSubmission(r);
  }

  private where(q: SubmissionQuery): { sql: string; params: unknown[] } {
    const params: unknown[] = [q.formId];
    const parts = ['form_id = $1'];
    if (q.status) parts.push(`status = $${params.push(q.status)}`);
    if (q.from) parts.push(`submitted_at >= $${params.push(q.from)}`);
    if (q.to) parts.push(`submitted_at <= $${params.push(q.to)}`);
    if (q.ids) parts.push(`id = any($${params.push(q.ids)}::int8[])`);
    if (q.search) {
      parts.push(`exists (select 1 from jsonb_each(field_values) v where v.value #>> '{}' ilike $${params.push(like(q.search))})`);
    }
    return { sql: parts.join(' and '), params };
  }

  /** Newest first. */
  async submissions(q: SubmissionQuery): Promise<Submission[]> {
    const w = this.where(q);
    const params = [...w.params];
    const limit = q.limit !== undefined ? ` limit $${params.push(q.limit)}` : '';
    const offset = q.offset ? ` offset $${params.push(q.offset)}` : '';
    const rows = await this.sql.query<SubmissionRow>(
      `select ${SUBMISSION_COLUMNS} from form_submissions where ${w.sql} order by submitted_at desc, id desc${limit}${offset}`,
      params,
    );
    return rows.map(toSubmission);
  }

  async countSubmissions(q: SubmissionQuery): Promise<number> {
    const w = this.where(q);
    const [r] = await this.sql.query<{ n: number }>(`select count(*)::int8 as n from form_submissions where ${w.sql}`, w.params);
    return r.n;
  }

  async submission(id: number): Promise<Submission | null> {
    const [r] = await this.sql.query<SubmissionRow>(`select ${SUBMISSION_COLUMNS} from form_submissions where id = $1`, [id]);
    return r ? toSubmission(r) : null;
  }

  async setStatus(id: number, status: 'active' | 'trash'): Promise<void> {
    await this.sql.query('update form_submissions set status = $2 where id = $1', [id, status]);
  }

  async deleteSubmission(id: number): Promise<void> {
    await this.sql.query('delete from form_submissions where id = $1', [id]);
  }

  /** Merges `values` (by field id) into the stored ones. */
  async updateValues(id: number, values: Record<string, FieldValue>): Promise<void> {
    await this.sql.query('update form_submissions set field_values = field_values || $2::jsonb where id = $1', [id, JSON.stringify(values)]);
  }
}
