/**
 * The export file formats of the legacy plugin (csv, apache, nginx, json), byte for byte as the
 * recorded exports show them; `redirects-file` is the plain `source target code` list that static
 * hosts read (Netlify/Cloudflare `_redirects`).
 */
import { phpDate } from '../../../lib/time.ts';
import { csvLines } from '../../../lib/csv.ts';
import { rawurlencode } from '../../../lib/url-encoding.ts';
import { flagsOf, targetOf, type GroupJson, type RedirectJson } from './shapes.ts';

/** The plugin version the recorded site reports in its export headers. */
export const PLUGIN_VERSION = '5.8.1';

export const exportFormats = ['csv', 'apache', 'nginx', 'json', 'redirects-file'] as const;
export type ExportFormat = (typeof exportFormats)[number];
export const isExportFormat = (f: unknown): f is ExportFormat => exportFormats.some((x) => x === f);

export interface ExportInput {
  groups: GroupJson[];
  redirects: RedirectJson[];
  /** When the file is written (the header date). */
  now: Date;
  /** The `https` setting: the Apache file then forces HTTPS first. */
  https?: boolean;
}

/** PHP's `date('r')` in UTC: `Sat, 21 Nov 2026 12:08:25 +0000`. */
export const rfc2822 = (d: Date) => phpDate('D, d M Y H:i:s +0000', d, 'UTC');

// ---- CSV ----

export const CSV_HEADER = ['source', 'target', 'regex', 'code', 'type', 'hits', 'title', 'status'];

export function csvTarget(r: RedirectJson): string {
  if (r.action_code > 400 && r.action_code < 500) return '';
  return targetOf(r) ?? '/unknown';
}

export function writeCsv(input: ExportInput): string {
  const header = CSV_HEADER.join(',') + '\n';
  const rows = input.redirects.map((r) => [
    r.url,
    csvTarget(r),
    r.regex ? 1 : 0,
    r.action_code,
    r.action_type,
    r.hits,
    r.title,
    r.enabled ? 'active' : 'disabled',
  ]);
  return header + csvLines(rows);
}

// ---- Apache / nginx shared ----

/** PHP rawurlencode, keeping `/` and `?`, with `.` escaped for the rewrite regex. */
export function encodeSourcePath(path: string): string {
  return rawurlencode(path)
    .replace(/%2F/g, '/')
    .replace(/%3F/g, '?')
    .replace(/\./g, '\\.');
}

const banner = (now: Date) => ['# Created by Redirection', `# ${rfc2822(now)}`, `# Redirection ${PLUGIN_VERSION} - https://redirection.me`, ''];

const fileMatchTypes = new Set(['url', 'referrer', 'agent', 'server']);

// ---- Apache ----

function apacheFlags(r: RedirectJson, target: string): string {
  const flags = r.action_type === 'pass' ? ['L'] : [`R=${r.action_code}`, 'L'];
  const f = flagsOf(r);
  if (f.flag_case) flags.push('NC');
  if (f.flag_query === 'pass') flags.push('QSA');
  if (/[#%]/.test(target)) flags.push('NE');
  return `[${flags.join(',')}]`;
}

function apacheSource(r: RedirectJson): { cond: string | null; pattern: string } {
  const f = flagsOf(r);
  if (f.flag_regex) return { cond: null, pattern: r.url.replace(/^\^\//, '^').replace(/^\//, '') };
  const q = r.url.indexOf('?');
  const path = (q < 0 ? r.url : r.url.slice(0, q)).replace(/^\//, '');
  const cond = q < 0 ? null : `RewriteCond %{QUERY_STRING} ^${r.url.slice(q + 1)}$`;
  return { cond, pattern: `^${encodeSourcePath(path)}${f.flag_trailing ? '/?' : ''}$` };
}

const escapeHost = (host: string) => host.replace(/\./g, '\\.');

function apacheRule(r: RedirectJson): string[] {
  const target = (r.match_type === 'url' ? targetOf(r) : (r.action_data?.url_from as string | undefined)) ?? '';
  const { cond, pattern } = apacheSource(r);
  const lines: string[] = [];
  if (r.match_type === 'server') {
    const host = String(r.action_data?.server ?? '').replace(/^https?:\/\//, '');
    lines.push(`RewriteCond %{HTTP_HOST} ^${escapeHost(host)}$ [NC]`);
  } else if (r.match_type === 'referrer') {
    lines.push(`RewriteCond %{HTTP_REFERER} ${String(r.action_data?.referrer ?? '')} [NC]`);
  } else if (r.match_type === 'agent') {
    lines.push(`RewriteCond %{HTTP_USER_AGENT} ${String(r.action_data?.agent ?? '')} [NC]`);
  }
  if (cond) lines.push(cond);
  lines.push(`RewriteRule ${pattern} ${target} ${apacheFlags(r, target)}`);
  return lines;
}

/** The recorded site writes only enabled redirects whose action sends somewhere (url, pass, random). */
const sendsSomewhere = (r: RedirectJson) => r.action_type === 'url' || r.action_type === 'pass' || r.action_type === 'random';

export function writeApache(input: ExportInput): string {
  const rules = input.redirects.filter((r) => r.enabled && fileMatchTypes.has(r.match_type) && sendsSomewhere(r)).flatMap(apacheRule);
  if (rules.length === 0) return '\n';
  const https = input.https ? ['RewriteCond %{HTTPS} off', 'RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [L,R=301]'] : [];
  return [...banner(input.now), '<IfModule mod_rewrite.c>', ...https, ...rules, '</IfModule>', '', '# End of Redirection'].join('\n') + '\n';
}

// ---- nginx ----

function nginxSource(r: RedirectJson): string {
  const f = flagsOf(r);
  const caseless = f.flag_case ? '(?i)' : '';
  // A regex source is written as stored: nginx, like the plugin, matches it unanchored against the
  // path with its leading slash (the plugin drops the `/`, so nginx never matches: see DEVIATIONS.md).
  if (f.flag_regex) return caseless + r.url;
  return `${caseless}^${encodeSourcePath(r.url.replace(/^\^/, '').replace(/\$$/, ''))}$`;
}

function nginxRule(r: RedirectJson): string[] {
  const code = r.action_code === 301 ? 'permanent' : 'redirect';
  if (r.match_type === 'url') return [`    rewrite ${nginxSource(r)} ${targetOf(r) ?? ''} ${code};`];
  const d = r.action_data ?? {};
  const [variable, value] = r.match_type === 'referrer' ? ['$http_referer', d.referrer] : ['$http_user_agent', d.agent];
  const lines: string[] = [];
  if (d.url_from) lines.push(`    if ( ${variable} ~* ^${String(value ?? '')}$ ) {`, `        rewrite ${nginxSource(r)} ${String(d.url_from)} ${code};`, '    }');
  if (d.url_notfrom) lines.push(`    if ( ${variable} !~* ^${String(value ?? '')}$ ) {`, `        rewrite ${nginxSource(r)} ${String(d.url_notfrom)} ${code};`, '    }');
  return lines;
}

export function writeNginx(input: ExportInput): string {
  const rules = input.redirects.filter((r) => r.enabled && ['url', 'referrer', 'agent'].includes(r.match_type)).flatMap(nginxRule);
  return [...banner(input.now), 'server {', ...rules, '}', '', '# End of Redirection'].join('\n') + '\n';
}

// ---- JSON ----

/** PHP `json_encode(..., JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES)` plus a newline. */
export function writeJson(input: ExportInput): string {
  const doc = {
    plugin: { version: PLUGIN_VERSION, date: rfc2822(input.now) },
    groups: input.groups.map((g) => ({ id: g.id, name: g.name, redirects: g.redirects, module_id: g.module_id, moduleName: g.moduleName, enabled: g.enabled })),
    redirects: input.redirects,
  };
  return JSON.stringify(doc, null, 4) + '\n';
}

// ---- redirects file ----

/** `source target code` lines for enabled plain url redirects (static hosts cannot run the rest). */
export function writeRedirectsFile(input: ExportInput): string {
  return input.redirects
    .filter((r) => r.enabled && r.match_type === 'url' && !r.regex && r.action_type === 'url' && targetOf(r))
    .map((r) => `${r.url} ${targetOf(r)} ${r.action_code}\n`)
    .join('');
}

export const writers: Record<ExportFormat, (input: ExportInput) => string> = {
  csv: writeCsv,
  apache: writeApache,
  nginx: writeNginx,
  json: writeJson,
  'redirects-file': writeRedirectsFile,
};

// ---- groups, logs and the bundle ----

/** A list of records as a pretty-printed JSON array (the group and log exports). */
export const writeRecords = (records: readonly object[]): string => JSON.stringify(records, null, 4) + '\n';

/** A CSV table of records: a bare header line of the column names (as the redirect CSV), then one row per record. */
export function writeTable<R>(columns: ReadonlyArray<[string, (r: R) => string | number | null]>, records: readonly R[]): string {
  return columns.map(([name]) => name).join(',') + '\n' + csvLines(records.map((r) => columns.map(([, get]) => get(r) ?? '')));
}

/** Everything a site needs to move its redirects: groups, redirects and the plugin settings. */
export function writeBundle(input: ExportInput & { settings: Record<string, unknown> }): string {
  const doc = JSON.parse(writeJson(input)) as Record<string, unknown>;
  return JSON.stringify({ ...doc, settings: input.settings }, null, 4) + '\n';
}
