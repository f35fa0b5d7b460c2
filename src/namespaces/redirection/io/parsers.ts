/**
 * Import file readers (`import/file/{group_id}`): CSV, the plugin's JSON export and Apache
 * `.htaccess` rules, each turned into redirects in the shape `POST /redirect` takes.
 */
import { parse } from 'csv-parse/sync';
import { safeDecode } from '../../../lib/url-encoding.ts';
import type { GroupJson, ImportedRedirect, RedirectJson } from './shapes.ts';

export type ImportFormat = 'csv' | 'json' | 'apache';

/** The legacy choice by file extension: csv/txt are CSV, json is JSON, anything else Apache. */
export function formatOfFile(filename: string): ImportFormat {
  const ext = filename.toLowerCase().split('.').pop() ?? '';
  return ext === 'csv' || ext === 'txt' ? 'csv' : ext === 'json' ? 'json' : 'apache';
}

export const redirectCodes = [301, 302, 303, 304, 307, 308];
export const errorCodes = [400, 401, 403, 404, 410, 418, 451, 500, 501, 502, 503, 504];
const knownCodes = new Set([...redirectCodes, ...errorCodes]);

// ---- CSV ----

const REGEX_HINT = /[()[\]$^*]/;
/** Undo the export's formula neutralising (`'=x` back to `=x`). */
const unneutralise = (s: string) => (/^'[=+\-@\t\r]/.test(s) ? s.slice(1) : s);

function csvRows(text: string, delimiter: string): string[][] {
  try {
    return parse(text, { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, bom: true, max_record_size: 5000 }) as string[][];
  } catch {
    return [];
  }
}

function csvRedirect(row: string[]): ImportedRedirect | null {
  // A row needs a source and a target column (the target may be empty, for an error code).
  if (row.length < 2) return null;
  const [rawSource = '', rawTarget = '', regex, code, type, hits, title, status] = row.map((c) => unneutralise(c.trim()));
  const source = rawSource;
  if (source === '' || source === rawTarget) return null;
  const n = Number.parseInt(code ?? '', 10);
  const actionCode = knownCodes.has(n) ? n : 301;
  const isError = actionCode > 400 && actionCode < 500;
  const actionType = type === 'error' || type === 'url' ? type : isError ? 'error' : 'url';
  const out: ImportedRedirect = {
    url: source,
    action_type: actionType,
    action_code: actionCode,
    action_data: actionType === 'url' ? { url: rawTarget } : null,
    match_type: 'url',
    regex: regex === undefined || regex === '' ? REGEX_HINT.test(source) : regex === '1',
  };
  // The exported extra columns (hits, title, status) come back, so a round trip loses nothing.
  if (hits !== undefined && /^\d+$/.test(hits)) out.hits = Number(hits);
  if (title) out.title = title;
  if (status === 'active' || status === 'disabled') out.enabled = status === 'active';
  return out;
}

/** Reads CSV, trying `,` `;` and `|` in turn until one gives at least one redirect. */
export function parseCsv(text: string): ImportedRedirect[] {
  for (const delimiter of [',', ';', '|']) {
    const rows = csvRows(text, delimiter).filter((r, i) => !(i === 0 && (r[0]?.trim() === 'source' || r[1]?.trim() === 'target')));
    const items = rows.map(csvRedirect).filter((r): r is ImportedRedirect => r !== null);
    if (items.length > 0) return items;
  }
  return [];
}

// ---- JSON ----

export interface JsonImport {
  groups: Array<Pick<GroupJson, 'id' | 'name' | 'module_id' | 'enabled'>>;
  redirects: Array<ImportedRedirect & { group_id: number }>;
  /** The plugin settings of a bundle export. */
  settings: Record<string, unknown> | null;
}

/** Reads the plugin's JSON export; null when the text is not one. */
export function parseJson(text: string): JsonImport | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (!doc || typeof doc !== 'object') return null;
  const d = doc as { groups?: unknown; redirects?: unknown; settings?: unknown };
  // A group the plugin could not create (Red_Group::create: a name and a known module) is left out.
  const groups = Array.isArray(d.groups)
    ? (d.groups as GroupJson[]).filter((g) => g && typeof g === 'object' && typeof g.name === 'string' && g.name.trim() !== '' && [1, 2, 3].includes(Number(g.module_id ?? 1)))
    : [];
  const redirects = Array.isArray(d.redirects) ? (d.redirects as RedirectJson[]).filter((r) => r && typeof r === 'object' && typeof r.url === 'string') : [];
  const settings = d.settings && typeof d.settings === 'object' && !Array.isArray(d.settings) ? (d.settings as Record<string, unknown>) : null;
  return {
    settings,
    groups: groups.map((g) => ({ id: Number(g.id), name: g.name, module_id: Number(g.module_id ?? 1), enabled: g.enabled !== false })),
    redirects: redirects.map((r) => {
      const matchType = r.match_type ?? 'url';
      // 4.x exports wrote a url match's target as a bare string.
      const sent: unknown = r.action_data;
      const data = matchType === 'url' && typeof sent === 'string' ? { url: sent } : (r.action_data ?? null);
      return {
        url: r.url,
        action_type: r.action_type,
        action_code: Number(r.action_code ?? 0),
        action_data: data,
        match_type: matchType,
        regex: r.regex === true,
        title: r.title ?? '',
        group_id: Number(r.group_id),
        position: Number(r.position ?? 0),
        hits: Number(r.hits ?? 0),
        last_access: r.last_access,
        enabled: r.enabled !== false,
        match_data: r.match_data ?? null,
      };
    }),
  };
}

// ---- Apache ----

/** The legacy reading of a code word: 301/permanent, 302, 307/seeother, 404/forbidden/F, 410/gone/G. */
export function apacheCode(word: string): number {
  const w = word.toLowerCase();
  if (w === '301' || w === 'permanent') return 301;
  if (w === '307' || w === 'seeother') return 307;
  if (w === '404' || w === 'forbidden' || w === 'f') return 404;
  if (w === '410' || w === 'gone' || w === 'g') return 410;
  return 302;
}

const codeInFlags = (flags: string) => {
  const m = /R=(\d+)/i.exec(flags);
  if (m) return apacheCode(m[1]!);
  if (/(^|,)\s*G\s*(,|$)/i.test(flags)) return 410;
  if (/(^|,)\s*F\s*(,|$)/i.test(flags)) return 404;
  return 302;
};

/** A RewriteRule pattern back to a source: `^old-page/?$` is `/old-page`, others stay a regex. */
function rewriteSource(pattern: string): { url: string; regex: boolean } {
  const plain = /^\^([^()[\]*+|{}\\]*?)(\/\?)?\$$/.exec(pattern.replace(/\\\./g, '.'));
  if (plain) return { url: '/' + safeDecode(plain[1]!.replace(/^\//, '')), regex: false };
  return { url: pattern.replace(/^\^(?!\/)/, '^/'), regex: true };
}

function apacheRedirect(url: string, target: string, code: number, regex: boolean): ImportedRedirect {
  // The legacy sanitizer turns the non-redirect codes of an always-`url` action into 301.
  return { url, action_type: 'url', action_code: redirectCodes.includes(code) ? code : 301, action_data: { url: target }, match_type: 'url', regex };
}

export function parseApache(text: string): ImportedRedirect[] {
  const out: ImportedRedirect[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const parts = line.split(/\s+/);
    const [keyword] = parts;
    if (/^RewriteRule$/i.test(keyword ?? '') && parts.length >= 3) {
      const [, pattern, target, flags = ''] = parts;
      if (target === '-' || !pattern || !target) continue;
      const src = rewriteSource(pattern);
      out.push(apacheRedirect(src.url, target, codeInFlags(flags.replace(/^\[|\]$/g, '')), src.regex));
    } else if (/^Redirect(Match)?$/i.test(keyword ?? '')) {
      const match = /^RedirectMatch$/i.test(keyword!);
      const rest = parts.slice(1);
      const hasCode = rest.length >= 3;
      const code = hasCode ? apacheCode(rest[0]!) : 302;
      const [src, target] = hasCode ? rest.slice(1) : rest;
      if (src && target) out.push(apacheRedirect(src, target, code, match));
    }
  }
  return out;
}
