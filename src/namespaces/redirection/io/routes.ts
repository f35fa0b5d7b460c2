/**
 * redirection/v1 import and export routes. Every export answers `{data, total}`: the file text and
 * how many records it holds (a preview: the first few records, `total` still counting all). The
 * import reads one uploaded file, writes in one transaction and refreshes the site's rule index.
 */
import { setImmediate } from 'node:timers/promises';
import { z } from 'zod';
import { json } from '../../../contract/reply.ts';
import { arg, item } from '../../../contract/args.ts';
import { RestError, wpList } from '../../../contract/errors.ts';
import { invalidParam } from '../../../contract/validate.ts';
import { endpoint, route, type Args, type RestResult, type RouteDecl } from '../../../contract/route.ts';
import { edgeFor } from '../edge/registry.ts';
import type { RestContext } from '../../../contract/context.ts';
import type { Services } from '../../../services.ts';
import type { Store } from '../../../store/store.ts';
import { writeEndpoint } from '../../../contract/write-endpoint.ts';
import { NS, P, admin, contractRoute, jsonContext } from '../common.ts';
import { groupJson, logJson, notFoundJson, redirectJson } from '../json.ts';
import type { GroupRow, LogRow, NewRedirect, NotFoundRow } from '../../../store/redirection/rows.ts';
import { errors } from '../../../contract/error-codes.ts';
import { countOf, sanitizeRedirect, type SanitizedRedirect } from '../sanitize.ts';
import { formatOfFile, parseApache, parseCsv, parseJson, type ImportFormat } from './parsers.ts';
import type { ImportedRedirect } from './shapes.ts';
import { logRedirection } from '../../../audit/log.ts';
import { exportFormats, isExportFormat, writeBundle, writeRecords, writeTable, writers, type ExportInput } from './writers.ts';

/** How many records a preview shows. */
export const PREVIEW_SIZE = 10;

const exported = (data: string, total: number): RestResult => ({ body: { data, total } });
const Exported = json(z.object({ data: z.string().meta({ description: 'The file text' }), total: z.int().meta({ description: 'How many records the export holds' }) }));

// ---- redirect exports ----

/** The groups and redirects of one module (enabled ones, by position) or of all (everything). */
async function redirectSource(ctx: RestContext, module: number | 'all'): Promise<ExportInput> {
  const repo = ctx.store.redirection;
  const c = await jsonContext(ctx);
  const groups = await repo.groups.all(module === 'all' ? undefined : module);
  const redirects = await repo.redirects.ofModule(module);
  return { groups: groups.map(groupJson), redirects: redirects.map((r) => redirectJson(r, c)), now: ctx.clock.now(), https: c.settings.https };
}

const head = (input: ExportInput, preview: boolean): ExportInput => (preview ? { ...input, redirects: input.redirects.slice(0, PREVIEW_SIZE) } : input);

async function moduleExport(ctx: RestContext, sent: ExportParams): Promise<RestResult> {
  // The path allows only known formats, but a query `format` comes before the path's: one that names
  // no writer is the client's mistake (the legacy site fails with a PHP error; DEVIATIONS.md).
  if (!isExportFormat(sent.format)) {
    throw invalidParam('format', `format is not one of ${wpList(exportFormats)}.`, { code: 'rest_not_in_enum', data: null });
  }
  const input = await redirectSource(ctx, sent.module === 'all' ? 'all' : Number(sent.module));
  return exported(writers[sent.format](input), input.redirects.length);
}

async function redirectExport(ctx: RestContext, preview: boolean): Promise<RestResult> {
  const input = await redirectSource(ctx, 'all');
  return exported(writers.json(head(input, preview)), input.redirects.length);
}

async function bundleExport(ctx: RestContext, preview: boolean): Promise<RestResult> {
  const input = await redirectSource(ctx, 'all');
  const settings = await ctx.store.redirection.settings.get();
  return exported(writeBundle({ ...head(input, preview), settings: { ...settings } }), input.redirects.length);
}

// ---- group and log exports ----

type TableFormat = 'csv' | 'json';
/** A group or log export is CSV when asked for, else JSON. */
const tableFormat = (format: unknown): TableFormat => (format === 'csv' ? 'csv' : 'json');
type Column<R> = [string, (r: R) => string | number | null];

const groupColumns: Column<GroupRow>[] = [
  ['id', (g) => g.id],
  ['name', (g) => g.name],
  ['redirects', (g) => g.redirects],
  ['module_id', (g) => g.moduleId],
  ['enabled', (g) => (g.enabled ? 1 : 0)],
];

const notFoundColumns: Column<NotFoundRow>[] = [
  ['date', (r) => r.created.toISOString()],
  ['url', (r) => r.url],
  ['http_code', (r) => r.httpCode],
  ['method', (r) => r.requestMethod],
  ['ip', (r) => r.ip],
  ['domain', (r) => r.domain],
  ['referrer', (r) => r.referrer],
  ['agent', (r) => r.agent],
];

const logColumns: Column<LogRow>[] = [
  ...notFoundColumns.slice(0, 2),
  ['sent_to', (r) => r.sentTo],
  ...notFoundColumns.slice(2),
  ['redirect_by', (r) => r.redirectBy],
  ['redirection_id', (r) => r.redirectionId],
];

async function groupExport(ctx: RestContext, format: TableFormat): Promise<RestResult> {
  const groups = await ctx.store.redirection.groups.all();
  return exported(format === 'csv' ? writeTable(groupColumns, groups) : writeRecords(groups.map(groupJson)), groups.length);
}

/** A log as CSV or as the list route's JSON records, newest first; a preview is the CSV of the newest rows. */
async function logExport(ctx: RestContext, kind: 'log' | '404', format: TableFormat, preview = false): Promise<RestResult> {
  const repo = ctx.store.redirection;
  const rows: Array<LogRow | NotFoundRow> = kind === 'log' ? await repo.logs.all('log') : await repo.logs.all('404');
  const shown = preview ? rows.slice(0, PREVIEW_SIZE) : rows;
  if (format === 'csv') {
    const text = kind === 'log' ? writeTable(logColumns, shown as LogRow[]) : writeTable(notFoundColumns, shown);
    return exported(text, rows.length);
  }
  const c = await jsonContext(ctx);
  return exported(writeRecords(shown.map((r) => (kind === 'log' ? logJson(r as LogRow, c) : notFoundJson(r, c)))), rows.length);
}

// ---- import ----

const SECTIONS = ['groups', 'redirects', 'settings'] as const;
type Section = (typeof SECTIONS)[number];

const importArgs = {
  dry_run: arg.boolean({ description: 'Read and check the file without writing anything', default: false }),
  duplicate_mode: arg.enum(['allow', 'skip', 'overwrite'], { description: 'What to do with a redirect whose source already exists', default: 'allow' }),
  deduplicate: arg.boolean({ description: 'Import only the first of several redirects with the same source in the file', default: false }),
  import_sections: arg.array(item.enum(SECTIONS), { description: 'The parts of a JSON export to import' }),
  format: arg.enum(['csv', 'json', 'apache'], { description: 'The file format, instead of the one its extension says' }),
};

/** The import's arguments, and the group of the path that files without their own groups go into. */
type ImportArgs = Args<typeof importArgs, 'group_id'>;

const invalidFile = () => errors.redirection.invalid('Invalid file upload', 'redirect_import_invalid_file', 162);
const invalidGroup = () => errors.redirection.invalid('Invalid group', 'redirect_import_invalid_group', 173);

/** Settings a bundle may not carry over: the site's own secret and schema version. */
const SITE_BOUND_SETTINGS = new Set(['token', 'database']);

/** The redirects of a file, each with the body `sanitizeRedirect` reads, and a bundle's settings. */
interface ReadFile {
  items: Array<{ body: Record<string, unknown>; fileGroup: number | null }>;
  /** A JSON export brings its own groups; other files go into the route's group. */
  ownGroups: boolean;
  groups: Array<{ id: number; name: string; module_id: number; enabled: boolean }>;
  settings: Record<string, unknown> | null;
}

function readFile(text: string, format: ImportFormat): ReadFile {
  const body = (r: ImportedRedirect): Record<string, unknown> => ({ ...r });
  if (format === 'json') {
    const doc = parseJson(text);
    if (!doc) throw invalidFile();
    return { items: doc.redirects.map((r) => ({ body: body(r), fileGroup: r.group_id })), ownGroups: true, groups: doc.groups, settings: doc.settings };
  }
  const items = format === 'csv' ? parseCsv(text) : parseApache(text);
  if (items.length === 0) throw invalidFile();
  return { items: items.map((r) => ({ body: body(r), fileGroup: null })), ownGroups: false, groups: [], settings: null };
}

/** An export's `last_access` back to a date: "-" is never; a bare day is taken at noon UTC, which is that day in every site zone. */
const lastAccessOf = (v: unknown): Date | null => {
  if (typeof v !== 'string' || v === '-') return null;
  const t = Date.parse(/\d:\d\d/.test(v) ? v : `${v} 12:00 UTC`);
  return Number.isNaN(t) ? null : new Date(t);
};

const sourceKey = (r: { matchType: string; url: string }) => `${r.matchType}\n${r.url}`;
const count = (counts: Map<number, number>, groupId: number, by: number) => counts.set(groupId, (counts.get(groupId) ?? 0) + by);

/** Rows sanitized and written per turn of the event loop (and per insert statement). */
const IMPORT_BATCH = 1000;

interface Outcome {
  imported: number;
  skipped: number;
}

/** One import, run inside a transaction; with `dryRun` only the reads happen. */
async function runImport(ctx: RestContext, store: Store, a: ImportArgs, file: ReadFile): Promise<Outcome> {
  const repo = store.redirection;
  const write = !a.dry_run;
  const sections = new Set<Section>(a.import_sections ?? SECTIONS);
  const settings = await repo.settings.get();
  const existingGroups = await repo.groups.all();
  const known = new Set(existingGroups.map((g) => g.id));

  const urlGroup = Number(a.group_id);
  // A JSON file brings its own groups (unless told not to); every other file goes into the route's group.
  const intoUrlGroup = !file.ownGroups || !sections.has('groups');
  if (intoUrlGroup && !known.has(urlGroup)) throw invalidGroup();

  // Groups of the file: an existing group of the same name and module is reused, others are created.
  let virtualId = -1;
  const groupMap = new Map<number, number>();
  const groupFor = async (name: string, moduleId: number, enabled: boolean): Promise<number> => {
    const same = existingGroups.find((g) => g.name === name && g.moduleId === moduleId);
    if (same) return same.id;
    const id = write ? (await repo.groups.create(name, moduleId, enabled)).id : virtualId--;
    existingGroups.push({ id, name, moduleId, enabled, position: 0, redirects: 0 });
    known.add(id);
    return id;
  };
  if (!intoUrlGroup) for (const g of file.groups) groupMap.set(g.id, await groupFor(g.name, g.module_id, g.enabled));

  const outcome: Outcome = { imported: 0, skipped: 0 };
  if (sections.has('redirects')) {
    const urlGroupEnabled = existingGroups.find((g) => g.id === urlGroup)?.enabled ?? true;
    const sanitizeContext = { settings, siteHost: new URL(ctx.urls.home).hostname, groupExists: async (id: number) => known.has(id) };
    const rows: Array<{ r: SanitizedRedirect; body: Record<string, unknown> }> = [];
    for (const [i, { body, fileGroup }] of file.items.entries()) {
      // A redirect whose group the file does not list goes into a new group "Group" (as the plugin does).
      const groupId = intoUrlGroup ? urlGroup : (groupMap.get(fileGroup!) ?? (await groupFor('Group', 1, true)));
      const enabled = body.enabled ?? (intoUrlGroup ? urlGroupEnabled : true);
      try {
        rows.push({ r: await sanitizeRedirect({ ...body, group_id: groupId, enabled }, String(body.url), sanitizeContext), body });
      } catch (e) {
        if (!(e instanceof RestError)) throw e;
        outcome.skipped++;
      }
      if (i % IMPORT_BATCH === IMPORT_BATCH - 1) await setImmediate();
    }
    // The duplicates: redirects that existed before the import with a source of the file (the newest per source), in one lookup.
    const existing = new Map(
      (a.duplicate_mode === 'allow' ? [] : await repo.redirects.bySource(rows.map(({ r }) => r))).map((d) => [sourceKey(d), d] as const),
    );
    // A new redirect takes the next position of its group, counted here as rows go in.
    const inGroup = await repo.redirects.countsByGroup();
    const movedTo = new Map<number, number>();
    const inFile = new Set<string>();
    for (let start = 0; start < rows.length; start += IMPORT_BATCH) {
      const inserts: NewRedirect[] = [];
      const overwrites = new Map<number, Parameters<typeof repo.redirects.updateMany>[0][number]>();
      for (const { r, body } of rows.slice(start, start + IMPORT_BATCH)) {
        const key = sourceKey(r);
        const duplicate = existing.get(key);
        if ((a.deduplicate && inFile.has(key)) || (duplicate && a.duplicate_mode === 'skip')) {
          outcome.skipped++;
          continue;
        }
        inFile.add(key);
        outcome.imported++;
        if (!write) continue;
        if (duplicate && a.duplicate_mode === 'overwrite') {
          // The overwritten redirect moves to the row's group (a later row of the same source moves it on from there).
          count(inGroup, movedTo.get(duplicate.id) ?? duplicate.groupId, -1);
          count(inGroup, r.groupId, 1);
          movedTo.set(duplicate.id, r.groupId);
          overwrites.set(duplicate.id, { ...r, id: duplicate.id, position: r.position ?? duplicate.position });
          continue;
        }
        const position = r.position ?? (inGroup.get(r.groupId) ?? 0);
        count(inGroup, r.groupId, 1);
        const hits = typeof body.hits === 'number' ? countOf(body.hits) : 0;
        inserts.push({ ...r, position, hits, lastAccess: lastAccessOf(body.last_access) });
      }
      await repo.redirects.updateMany([...overwrites.values()]);
      await repo.redirects.insertMany(inserts);
      // Other requests get their turn between batches.
      await setImmediate();
    }
  }

  if (sections.has('settings') && file.settings && write) {
    const patch = Object.fromEntries(Object.entries(file.settings).filter(([k]) => Object.hasOwn(settings, k) && !SITE_BOUND_SETTINGS.has(k)));
    await repo.settings.save(patch);
  }
  return outcome;
}

async function importFile(services: Services, ctx: RestContext, a: ImportArgs): Promise<RestResult> {
  const upload = ctx.files.get('file') ?? [...ctx.files.values()][0];
  if (!upload || upload.data.length === 0) throw invalidFile();
  const file = readFile(upload.data.toString('utf8'), a.format ?? formatOfFile(upload.filename));
  const outcome = await ctx.store.transaction(async (store) => {
    const done = await runImport(ctx, store, a, file);
    if (!a.dry_run) await logRedirection(store, ctx, 'redirection_imported', { items_count: done.imported });
    return done;
  });
  if (!a.dry_run) edgeFor(services).invalidate();
  return {
    body: {
      imported: outcome.imported,
      ...(outcome.skipped > 0 ? { skipped: outcome.skipped } : {}),
      ...(a.dry_run ? { dry_run: true } : {}),
    },
  };
}

// ---- routes ----

/**
 * What an export reads without the legacy route declaring it: `module` and `format` as merged from
 * the request (a query value before the path's, as the plugin's `$request['format']`).
 */
type ExportParams = { module?: unknown; format?: unknown };

const get = (handler: (ctx: RestContext, sent: ExportParams) => Promise<RestResult>) =>
  endpoint({ methods: ['GET'], args: {}, response: Exported, permission: admin, handler: (ctx) => handler(ctx, ctx.params) });

export function ioRoutes(services: Services): RouteDecl[] {
  return [
    route(NS, `${P}/import/file/(?P<group_id>\\d+)`, writeEndpoint({
      methods: ['POST', 'PUT', 'PATCH'],
      args: importArgs,
      path: ['group_id'],
      response: json(z.object({ imported: z.int(), skipped: z.int().optional(), dry_run: z.literal(true).optional() })),
      permission: admin,
      handler: (ctx, a) => importFile(services, ctx, a),
    })),
    route(NS, `${P}/export/(?P<module>1|2|3|all)/(?P<format>csv|apache|nginx|json)`, get(moduleExport)),
    // Its own route (no `{format}`), so no difference of it is taken for one of the legacy formats'.
    contractRoute('export/(?P<module>1|2|3|all)/redirects-file', get((ctx, sent) => moduleExport(ctx, { format: 'redirects-file', ...sent }))),
    contractRoute('export/redirect', get((ctx) => redirectExport(ctx, false))),
    contractRoute('export/redirect/preview', get((ctx) => redirectExport(ctx, true))),
    contractRoute('export/group/(?P<format>csv|json)', get((ctx, sent) => groupExport(ctx, tableFormat(sent.format)))),
    contractRoute('export/log/(?P<format>csv|json)', get((ctx, sent) => logExport(ctx, 'log', tableFormat(sent.format)))),
    contractRoute('export/log/preview', get((ctx) => logExport(ctx, 'log', 'csv', true))),
    contractRoute('export/404/(?P<format>csv|json)', get((ctx, sent) => logExport(ctx, '404', tableFormat(sent.format)))),
    contractRoute('export/404/preview', get((ctx) => logExport(ctx, '404', 'csv', true))),
    contractRoute('export/bundle', get((ctx) => bundleExport(ctx, false))),
    contractRoute('export/bundle/preview', get((ctx) => bundleExport(ctx, true))),
  ];
}
