/**
 * The forms model shared by forms-views and forms-submissions: the legacy SingleSubmission object,
 * display strings of values, CSV exports and the submission add-on handlers.
 */
import { z } from 'zod';
import { fmt, instantToWall } from '../../lib/time.ts';
import { errors } from '../../contract/error-codes.ts';
import type { RestContext } from '../../contract/context.ts';
import type { FieldValue, Form, FormField, Submission } from '../../store/forms.ts';
import { csvLines } from '../../lib/csv.ts';

/** The data source every stored submission names (the legacy post store's role). */
const DATA_SOURCE = 'store';
/** Field types that hold no value (layout and the submit button). */
const NO_VALUE = new Set(['submit', 'html', 'hr']);

export const valueFields = (fields: FormField[]) => fields.filter((f) => !NO_VALUE.has(f.type));

/** A value as one string: lists (multi-selects, uploads) joined with ", ". */
export function displayValue(v: FieldValue | undefined): string {
  if (v === undefined) return '';
  return Array.isArray(v) ? v.join(', ') : v;
}

export async function siteZone(ctx: RestContext): Promise<string> {
  return (await ctx.store.options.site()).timezone;
}

/** The submission add-ons that `handle-extra` may run, by their legacy class name. */
export const EXTRA_HANDLERS: Record<string, { slug: string; label: string; run: (form: Form, fields: FormField[], s: Submission, zone: string) => ExtraResponse }> = {
  SubmissionCsvDownload: {
    slug: 'csv',
    label: 'Download CSV',
    run: (form, fields, s, zone) => ({
      responseType: 'download',
      download: Buffer.from(submissionsCsv(fields, [s], zone)).toString('base64'),
      blobType: 'text/csv',
      result: 'ok',
      filename: `${form.title.replace(/[^\w-]+/g, '-')}-${s.seqNum}.csv`,
    }),
  },
};

export const ExtraResponse = z.object({ responseType: z.enum(['none', 'download']), download: z.string(), blobType: z.string(), result: z.string(), filename: z.string() });
export type ExtraResponse = z.infer<typeof ExtraResponse>;

export const NO_EXTRA: ExtraResponse = { responseType: 'none', download: '', blobType: '', result: '', filename: '' };

/** A field as the submissions table's columns describe it. */
export const FieldDefinition = z.object({ id: z.int(), slug: z.string(), label: z.string(), adminLabel: z.string(), type: z.string(), options: z.unknown(), fieldsetRepeaterFields: z.tuple([]) });

export function fieldDefinition(f: FormField): z.infer<typeof FieldDefinition> {
  return { id: f.id, slug: f.key, label: f.label, adminLabel: f.adminLabel, type: f.type, options: f.options, fieldsetRepeaterFields: [] };
}

/** The legacy SingleSubmission object. */
export function singleSubmission(fields: FormField[], s: Submission, zone: string) {
  const collection: Record<string, unknown> = {};
  for (const f of valueFields(fields)) {
    const value = s.values[String(f.id)] ?? '';
    collection[f.key] = { ...fieldDefinition(f), original: value, value };
  }
  return {
    submissionRecordId: s.id,
    timestamp: fmt(instantToWall(s.submittedAt, zone)),
    formId: s.formId,
    dataSource: DATA_SOURCE,
    status: [s.status],
    submissionFieldCollection: collection,
    extraValues: { ...s.extra, seq_num: s.seqNum },
    submissionHandlers: Object.fromEntries(Object.entries(EXTRA_HANDLERS).map(([cls, h]) => [h.slug, { handlerClassName: cls, handlerLabel: h.label }])),
  };
}

export const aggregatedKey = (s: Submission) => `${DATA_SOURCE}_${s.id}`;

/** The submission ID a client names: a SingleSubmission (object or its JSON text) or a bare ID. */
export function submissionIdOf(v: unknown): number {
  let o = v;
  if (typeof o === 'string' && o.trim().startsWith('{')) {
    try {
      o = JSON.parse(o);
    } catch {
      throw errors.forms.malformed();
    }
  }
  const id = o !== null && typeof o === 'object' ? (o as Record<string, unknown>).submissionRecordId : o;
  const n = typeof id === 'number' ? id : typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw errors.forms.malformed();
  return n;
}

/** A SingleSubmission sent as an object or as its JSON text. */
export function submissionObject(v: unknown): Record<string, unknown> {
  let o = v;
  if (typeof o === 'string') {
    try {
      o = JSON.parse(o);
    } catch {
      throw errors.forms.malformed();
    }
  }
  if (o === null || typeof o !== 'object' || Array.isArray(o)) throw errors.forms.malformed();
  return o as Record<string, unknown>;
}

/** The export CSV: sequence number, date, then each value field under its admin label (else its label). */
export function submissionsCsv(fields: FormField[], subs: Submission[], zone: string): string {
  const cols = valueFields(fields);
  const header = ['#', 'Date Submitted', ...cols.map((f) => f.adminLabel || f.label)];
  const rows = subs.map((s) => [String(s.seqNum), fmt(instantToWall(s.submittedAt, zone)), ...cols.map((f) => displayValue(s.values[String(f.id)]))]);
  return csvLines([header, ...rows]);
}
