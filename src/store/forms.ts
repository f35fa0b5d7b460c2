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

// The columns under the records' own names: a row is the record as it is.
const FORM_COLUMNS = 'id, title, table_pages as "tablePages"';
const SUBMISSION_COLUMNS = 'id, form_id as "formId", seq_num as "seqNum", status, submitted_at as "submittedAt", field_values as "values", extra';

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
    return this.sql.query<Form>(`select ${FORM_COLUMNS} from forms ${ids ? 'where id = any($1::int8[])' : ''} order by id`, ids ? [ids] : []);
  }

  async form(id: number): Promise<Form | null> {
    return (await this.forms([id]))[0] ?? null;
  }

  /** The form whose table is shown on this site path, if any. */
  async formsOnPage(pagePath: string): Promise<Form[]> {
    return this.sql.query<Form>(`select ${FORM_COLUMNS} from forms where $1 = any(table_pages) order by id`, [pagePath]);
  }

  async fields(formId: number): Promise<FormField[]> {
    return this.sql.query<FormField>(
      'select id, form_id as "formId", key, label, admin_label as "adminLabel", type, options from form_fields where form_id = $1 order by position, id',
      [formId],
    );
  }

  /** Adds a submission with the form's next sequence number. */
  async addSubmission(formId: number, values: Record<string, FieldValue>, at: Date): Promise<Submission> {
    const [r] = await this.sql.query<Submission>(
      `with seq as (update forms set next_seq = next_seq + 1 where id = $1 returning next_seq - 1 as n)
       insert into form_submissions (form_id, seq_num, submitted_at, field_values) select $1, n, $2, $3::jsonb from seq
       returning ${SUBMISSION_COLUMNS}`,
      [formId, at, JSON.stringify(values)],
    );
    return r;
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
    return this.sql.query<Submission>(
      `select ${SUBMISSION_COLUMNS} from form_submissions where ${w.sql} order by submitted_at desc, id desc${limit}${offset}`,
      params,
    );
  }

  async countSubmissions(q: SubmissionQuery): Promise<number> {
    const w = this.where(q);
    const [r] = await this.sql.query<{ n: number }>(`select count(*)::int8 as n from form_submissions where ${w.sql}`, w.params);
    return r.n;
  }

  async submission(id: number): Promise<Submission | null> {
    const [r] = await this.sql.query<Submission>(`select ${SUBMISSION_COLUMNS} from form_submissions where id = $1`, [id]);
    return r ?? null;
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
