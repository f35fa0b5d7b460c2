/** forms-submissions: the admin's submission table, trash, edits, exports, settings and e-mail resends. */
import { instantToWall, wallToInstant } from '../../lib/time.ts';
import { z } from 'zod';
import { arg, item } from '../../contract/args.ts';
import { errors } from '../../contract/error-codes.ts';
import { invalidParam } from '../../contract/validate.ts';
import { needs } from '../../contract/permission.ts';
import { json } from '../../contract/reply.ts';
import { endpoint, route, type ArgShape, type Args, type RouteDecl } from '../../contract/route.ts';
import type { RestContext } from '../../contract/context.ts';
import type { Services } from '../../services.ts';
import { escapeHtml } from '../../lib/html.ts';
import type { FieldValue, Form, FormField, Submission } from '../../store/forms.ts';
import { sendMail } from '../../upstream/mail.ts';
import { endOfDay, parseWall } from '../../lib/dates.ts';
import { deleteExportFile, FILES_PATH, writeExportFile } from './files.ts';
import {
  ExtraResponse,
  FieldDefinition,
  aggregatedKey, displayValue, EXTRA_HANDLERS, fieldDefinition, NO_EXTRA, singleSubmission, siteZone, submissionIdOf,
  submissionObject, submissionsCsv, valueFields,
} from './model.ts';

const NAMESPACE = 'forms-submissions';
const P = (path: string) => `/${NAMESPACE}${path}`;
/** Every route is for administrators (manage_options), as in the legacy plugin. */
const admin = needs('manage_options');
/** The option holding per-form table preferences (hidden columns, ...). */
const SETTINGS = 'forms_submissions_settings';
const JSON_ARRAY = 'JSON encoded array';

/** The legacy answer of a write that succeeded. */
const Ok = z.literal('ok');
/** Some legacy routes answer the JSON text of their result: a JSON string. */
const JsonText = z.string().meta({ description: 'JSON text' });

const post = <S extends ArgShape>(path: string, args: S, response: z.ZodType, handler: (ctx: RestContext, a: Args<S>) => Promise<unknown>, allowBatch = false) =>
  route(NAMESPACE, P(path), endpoint<S>({ methods: ['POST'], args, response: json(response), permission: admin, allowBatch, handler: async (ctx, a) => ({ body: await handler(ctx, a) }) }));

async function loadForm(ctx: RestContext, id: unknown): Promise<{ form: Form; fields: FormField[] }> {
  const n = Number(id);
  const form = Number.isSafeInteger(n) && n > 0 ? await ctx.store.forms.form(n) : null;
  if (!form) throw errors.forms.malformed('Form not found');
  return { form, fields: await ctx.store.forms.fields(form.id) };
}

async function loadSubmission(ctx: RestContext, v: unknown): Promise<Submission> {
  const s = await ctx.store.forms.submission(submissionIdOf(v));
  if (!s) throw errors.forms.malformed('Submission not found');
  return s;
}

const submissionList = (v: unknown): unknown[] => {
  if (!Array.isArray(v)) throw errors.forms.malformed();
  return v;
};

/** `submissions/get`: the table's columns, or a page of submissions with the count of all that match. */
async function getSubmissions(ctx: RestContext, a: { form_ids: number[] }) {
  const p = ctx.params;
  const type = p.type;
  if (type !== 'columns' && type !== 'data') throw errors.forms.malformed('type must be columns or data');
  const { fields } = await loadForm(ctx, a.form_ids[0]);
  if (type === 'columns') return Object.fromEntries(valueFields(fields).map((f) => [f.key, fieldDefinition(f)]));
  const int = (v: unknown, d: number, min: number) => (typeof v === 'string' || typeof v === 'number') && /^\d+$/.test(String(v)) ? Math.max(min, Number(v)) : d;
  // Unix seconds a Date can hold (±8.64e12 s); beyond them the date range is bad input, not a store failure.
  for (const k of ['start_date', 'end_date'] as const) if (int(p[k], 0, 0) > 8.64e12) throw errors.forms.malformed(`${k} is out of range`);
  const pageSize = int(p.page_size, 10, 1);
  const page = int(p.current_page, 1, 1);
  const start = int(p.start_date, 0, 0);
  const end = int(p.end_date, 0, 0);
  const q = {
    formId: a.form_ids[0],
    status: p.status === 'trash' ? ('trash' as const) : ('active' as const),
    from: start ? new Date(start * 1000) : undefined,
    // 0 is "all time": the end becomes now plus a day.
    to: new Date(end ? end * 1000 : ctx.clock.now().getTime() + 86_400_000),
    search: typeof p.search_term === 'string' && p.search_term !== '' ? p.search_term : undefined,
  };
  const zone = await siteZone(ctx);
  const subs = await ctx.store.forms.submissions({ ...q, limit: pageSize, offset: (page - 1) * pageSize });
  return {
    data: Object.fromEntries(subs.map((s) => [aggregatedKey(s), singleSubmission(fields, s, zone)])),
    count: await ctx.store.forms.countSubmissions(q),
  };
}

/** Values sent in a SingleSubmission's field collection, by field id; fields the form does not have are ignored. */
function sentValues(fields: FormField[], single: Record<string, unknown>): Record<string, FieldValue> {
  const collection = single.submissionFieldCollection;
  if (collection === null || typeof collection !== 'object') throw errors.forms.malformed();
  const out: Record<string, FieldValue> = {};
  for (const [slug, entry] of Object.entries(collection as Record<string, unknown>)) {
    const field = valueFields(fields).find((f) => f.key === slug || String(f.id) === String((entry as { id?: unknown })?.id));
    if (!field || entry === null || typeof entry !== 'object' || !('value' in entry)) continue;
    const v = (entry as { value: unknown }).value;
    if (typeof v === 'string' || typeof v === 'number') out[String(field.id)] = String(v);
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')) out[String(field.id)] = v.map(String);
    else throw invalidParam('singleSubmission', `${slug} value is not a string or a list of strings.`, { code: 'rest_invalid_type', data: null });
  }
  return out;
}

/** A date the export names: a date string or a Unix timestamp, in the site's zone; a day alone ends at its last second. */
function exportDate(name: string, v: unknown, zone: string, now: Date, end: boolean): Date {
  const text = String(v ?? '');
  const wall = /^\d+$/.test(text) ? new Date(Number(text) * 1000) : parseWall(text, instantToWall(now, zone));
  if (!wall) throw invalidParam(name, 'Invalid date.', { code: 'rest_invalid_date', data: null });
  if (/^\d+$/.test(text)) return wall;
  return wallToInstant(end && /^\d{4}-\d{1,2}-\d{1,2}$/.test(text.trim()) ? endOfDay(wall) : wall, zone);
}

const exportArgs = {
  form_ids: arg.array(item.integer()),
  start_date: arg.string({ description: 'a date string' }),
  end_date: arg.string({ description: 'a date string' }),
  singleSubmission: arg.untyped({ description: JSON_ARRAY }),
  submissions: arg.array(item.integer(), { description: 'array of submission IDs' }),
};

async function exportCsv(ctx: RestContext, a: Args<typeof exportArgs>) {
  const zone = await siteZone(ctx);
  const forms = ctx.store.forms;
  if (a.form_ids?.length && a.start_date !== undefined && a.end_date !== undefined) {
    const from = exportDate('start_date', a.start_date, zone, ctx.clock.now(), false);
    const to = exportDate('end_date', a.end_date, zone, ctx.clock.now(), true);
    const out: Record<string, string> = {};
    for (const id of a.form_ids) {
      const { form, fields } = await loadForm(ctx, id);
      out[form.id] = submissionsCsv(fields, await forms.submissions({ formId: form.id, status: 'active', from, to }), zone);
    }
    return out;
  }
  if (a.singleSubmission !== undefined) {
    const s = await loadSubmission(ctx, submissionObject(a.singleSubmission));
    const { fields } = await loadForm(ctx, s.formId);
    return { [s.formId]: submissionsCsv(fields, [s], zone) };
  }
  if (a.submissions?.length && a.form_ids?.length) {
    const { form, fields } = await loadForm(ctx, a.form_ids[0]);
    return { [form.id]: submissionsCsv(fields, await forms.submissions({ formId: form.id, ids: a.submissions }), zone) };
  }
  throw errors.forms.malformed();
}

/** Merge tags in e-mail settings: `{field:key}`, `{all_fields_table}`, `{form:title}`, `{submission:sequence}`; values escaped in HTML mail. */
function mergeTags(text: string, form: Form, fields: FormField[], s: Submission, html: boolean): string {
  const esc = (v: string) => (html ? escapeHtml(v) : v);
  const shown = valueFields(fields);
  const table = html
    ? `<table>${shown.map((f) => `<tr><td>${escapeHtml(f.label)}:</td><td>${escapeHtml(displayValue(s.values[String(f.id)]))}</td></tr>`).join('')}</table>`
    : shown.map((f) => `${f.label}: ${displayValue(s.values[String(f.id)])}`).join('\n');
  return text.replace(/\{(field:([\w-]+)|all_fields_table|form:title|submission:sequence)\}/g, (_m, tag: string, key?: string) => {
    if (tag === 'all_fields_table') return table;
    if (tag === 'form:title') return esc(form.title);
    if (tag === 'submission:sequence') return String(s.seqNum);
    const f = shown.find((x) => x.key === key);
    return f ? esc(displayValue(s.values[String(f.id)])) : '';
  });
}

const emailActionArgs = { submission: arg.integer({ required: true }), action_settings: arg.object(null, { required: true }) };

async function emailAction(services: Pick<Services, 'config'>, ctx: RestContext, a: Args<typeof emailActionArgs>) {
  const { form, fields } = await loadForm(ctx, ctx.params.formID);
  const s = await ctx.store.forms.submission(a.submission);
  if (!s || s.formId !== form.id) throw errors.forms.malformed('Submission not found');
  const settings = a.action_settings;
  const str = (k: string) => (typeof settings[k] === 'string' ? (settings[k] as string) : '');
  const html = str('email_format') !== 'plain';
  const merge = (k: string, asHtml = false) => mergeTags(str(k), form, fields, s, asHtml);
  const list = (k: string) => merge(k).split(',').map((x) => x.trim()).filter(Boolean);
  const to = list('to');
  if (to.length === 0) throw errors.forms.malformed('The e-mail action has no recipient');
  const fromAddress = merge('from_address');
  const fromName = merge('from_name');
  const message = {
    to,
    cc: list('cc'),
    bcc: list('bcc'),
    replyTo: merge('reply_to') || undefined,
    from: fromAddress ? (fromName ? { name: fromName, address: fromAddress } : fromAddress) : undefined,
    subject: merge('email_subject') || merge('subject') || form.title,
    ...(html ? { html: merge('email_message', true) } : { text: merge('email_message_plain') || merge('email_message') }),
  };
  try {
    await sendMail(services.config, message as Parameters<typeof sendMail>[1]);
  } catch (e) {
    if (e instanceof Error && 'status' in e) throw e;
    ctx.log.warn({ err: e }, 'forms email-action: sending failed');
    // As the legacy route: the submission's sequence number when the mail could not be sent.
    return s.seqNum;
  }
  return true;
}

export function formsSubmissionsRoutes(services: Pick<Services, 'config'>): RouteDecl[] {
  const dir = services.config.formsFilesDir;
  return [
    route(NAMESPACE, P('/submissions/get'), endpoint({
      methods: ['GET'],
      args: { form_ids: arg.array(item.integer(), { required: true, minItems: 1 }) },
      reads: ['search_term'],
      response: json(z.union([
        z.record(z.string(), FieldDefinition).meta({ description: '`type=columns`: the form\'s fields by key' }),
        z.object({ data: z.record(z.string(), z.record(z.string(), z.unknown())), count: z.int() }).meta({ description: '`type=data`: a page of submissions' }),
      ])),
      permission: admin,
      handler: async (ctx, a) => ({ body: await getSubmissions(ctx, a) }),
    })),
    post('/submissions/delete', { submissions: arg.array(z.unknown(), { required: true }) }, Ok, async (ctx, a) => {
      await ctx.store.transaction(async (store) => {
        for (const v of submissionList(a.submissions)) {
          const s = await store.forms.submission(submissionIdOf(v));
          if (!s) throw errors.forms.malformed('Submission not found');
          // Active submissions go to the trash; trashed ones are deleted for good.
          if (s.status === 'active') await store.forms.setStatus(s.id, 'trash');
          else await store.forms.deleteSubmission(s.id);
        }
      });
      return 'ok';
    }, true),
    post('/submissions/update', { singleSubmission: arg.untyped({ description: JSON_ARRAY, required: true }) }, Ok, async (ctx, a) => {
      const single = submissionObject(a.singleSubmission);
      await ctx.store.transaction(async (store) => {
        const s = await loadSubmission({ ...ctx, store }, single);
        await store.forms.updateValues(s.id, sentValues(await store.forms.fields(s.formId), single));
      });
      return 'ok';
    }, true),
    post('/submissions/restore', { restore: arg.boolean({ required: true }), submissions: arg.array(z.unknown(), { required: true }) }, Ok, async (ctx, a) => {
      await ctx.store.transaction(async (store) => {
        const ids = submissionList(a.submissions).map(submissionIdOf);
        for (const id of ids) {
          const s = await store.forms.submission(id);
          if (!s) throw errors.forms.malformed('Submission not found');
          if (a.restore) await store.forms.setStatus(id, 'active');
        }
      });
      return 'ok';
    }, true),
    post('/submissions/handle-extra', { singleSubmission: arg.untyped({ description: JSON_ARRAY, required: true }), handleExtra: arg.string({ required: true }) }, ExtraResponse, async (ctx, a) => {
      const s = await loadSubmission(ctx, submissionObject(a.singleSubmission));
      // Only the listed handlers run: a class name from the client never picks code to load.
      const handler = Object.hasOwn(EXTRA_HANDLERS, a.handleExtra) ? EXTRA_HANDLERS[a.handleExtra] : null;
      if (!handler) return NO_EXTRA;
      const { form, fields } = await loadForm(ctx, s.formId);
      return handler.run(form, fields, s, await siteZone(ctx));
    }),
    post('/export', exportArgs, z.record(z.string(), z.string()).meta({ description: 'Form ID to CSV text' }), exportCsv),
    post('/download-all', { form_ids: arg.array(item.integer()) }, z.object({ formId: z.int(), downloadUrl: z.string(), filePath: z.string() }), async (ctx, a) => {
      if (!a.form_ids?.length) throw errors.forms.malformed();
      const { form, fields } = await loadForm(ctx, a.form_ids[0]);
      const csv = submissionsCsv(fields, await ctx.store.forms.submissions({ formId: form.id, status: 'active' }), await siteZone(ctx));
      const { name, filePath } = await writeExportFile(dir, form.id, csv);
      return { formId: form.id, downloadUrl: ctx.urls.base + FILES_PATH + name, filePath };
    }),
    post('/delete-download-file', { file_path: arg.string({ required: true }) }, z.object({ result: z.string() }), async (_ctx, a) => ({ result: await deleteExportFile(dir, a.file_path) })),
    post('/set-submissions-settings', { settingName: arg.string({ required: true }), data: arg.object(null), formID: arg.string() }, JsonText, async (ctx, a) => {
      const result = await ctx.store.transaction(async (store) => {
        const current = await store.options.get<Record<string, Record<string, unknown>>>(SETTINGS);
        const form = a.formID ?? '';
        const next = { ...(current ?? {}), [form]: { ...(current?.[form] ?? {}), [a.settingName]: a.data ?? null } };
        if (current && JSON.stringify(current) === JSON.stringify(next)) return { message: 'unchanged', status: false };
        await store.options.set(SETTINGS, next);
        return { message: current ? 'update_option' : 'add_option', status: true };
      });
      // The legacy route answers the JSON text of its result (a JSON string in the body).
      return JSON.stringify(result);
    }, true),
    route(NAMESPACE, P('/get-submissions-settings'), endpoint({
      methods: ['GET'],
      args: {},
      response: json(JsonText),
      permission: admin,
      handler: async (ctx) => ({ body: JSON.stringify((await ctx.store.options.get(SETTINGS)) ?? false) }),
    })),
    post('/email-action', emailActionArgs, z.union([z.literal(true), z.int().meta({ description: 'The submission\'s sequence number when the mail could not be sent' })]), (ctx, a) => emailAction(services, ctx, a)),
  ];
}
