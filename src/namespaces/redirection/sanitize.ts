/**
 * The redirect sanitizer (`Red_Item_Sanitize`): turns a create/update body into the stored row,
 * or the legacy `redirect` error. Import uses it too, so every way in stores the same shapes.
 */
import { errors } from '../../contract/error-codes.ts';
import { rawurlencode, safeDecode } from '../../lib/url-encoding.ts';
import { ERROR_CODES, REDIRECT_CODES, TARGET_ACTIONS, globalFlags } from './records.ts';
import {
  ACTION_TYPES,
  FLAG_QUERY,
  MATCH_TYPES,
  type ActionType,
  type MatchType,
  type NewRedirect,
  type RedirectionSettings,
  type RedirectRow,
  type SourceFlags,
  type StoredMatchData,
} from '../../store/redirection/rows.ts';

// PHP rawurlencode, then the characters the plugin keeps readable in lookup keys.
function encodePath(s: string): string {
  return rawurlencode(s)
    .replace(/%(2F|3A|5B|5D|40|7E|2C|28|29|3B)/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/**
 * The lookup key of a source or of a request path (`Red_Url_Match`): the decoded path, lowercase,
 * without its trailing slash, percent-encoded; with the query when `withQuery` (exactorder sources).
 */
export function matchUrlOf(url: string, withQuery = false): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  let key = encodePath(safeDecode(path).toLowerCase().replace(/\/+$/, ''));
  if (key === '') key = '/';
  if (withQuery && q >= 0 && q < url.length - 1) key += `?${url.slice(q + 1)}`;
  return key;
}

const stripTags = (s: string) => s.replace(/<[^>]*>/g, '');

/** `sanitize_url` of a source: relative, cut at the first control character, decoded when valid UTF-8. */
export function sanitizeSource(raw: string, regex: boolean): string {
  let url = stripTags(raw).replace(/&amp;/g, '&');
  url = url.replace(/^https?:\/\/[^/?#]*/i, '');
  const cut = url.search(/[\r\n\t]/);
  if (cut >= 0) url = url.slice(0, cut);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  url = url.replace(/[\x00-\x1f\x7f]/g, '');
  if (!regex && !url.startsWith('/')) url = `/${url}`;
  if (!regex) url = safeDecode(url);
  return url;
}

const TARGET_KEYS = ['url', 'url_from', 'url_notfrom', 'logged_in', 'logged_out'];
const FROM_NOTFROM = ['url_from', 'url_notfrom'];
const MATCH_KEYS: Record<MatchType, string[]> = {
  url: ['url'],
  referrer: ['regex', 'referrer', ...FROM_NOTFROM],
  agent: ['regex', 'agent', ...FROM_NOTFROM],
  login: ['logged_in', 'logged_out'],
  header: ['regex', 'name', 'value', ...FROM_NOTFROM],
  cookie: ['regex', 'name', 'value', ...FROM_NOTFROM],
  custom: ['filter', ...FROM_NOTFROM],
  role: ['role', ...FROM_NOTFROM],
  server: ['server', ...FROM_NOTFROM],
  ip: ['ip', ...FROM_NOTFROM],
  page: ['page', 'url'],
  language: ['language', ...FROM_NOTFROM],
};

/** The match's `save()`: only its own keys, targets only for actions that need one. */
function actionDataFor(matchType: MatchType, actionType: ActionType, data: Record<string, unknown>): Record<string, unknown> | null {
  const needsTarget = TARGET_ACTIONS.includes(actionType);
  if (matchType === 'url') {
    if (!needsTarget) return null;
    const target = typeof data.url === 'string' ? data.url.trim() : '';
    return { url: target === '' ? '/' : target };
  }
  const out: Record<string, unknown> = {};
  for (const k of MATCH_KEYS[matchType]) {
    if (TARGET_KEYS.includes(k) && !needsTarget) continue;
    const v = data[k];
    if (k === 'regex') out[k] = v === true;
    else if (k === 'ip') out[k] = Array.isArray(v) ? v.map(String) : typeof v === 'string' && v !== '' ? v.split(/[\s,]+/) : [];
    else out[k] = typeof v === 'string' ? (TARGET_KEYS.includes(k) ? v.trim() : v) : '';
  }
  if (matchType === 'header') out.name = String(out.name).replace(/[^A-Za-z0-9_-]/g, '');
  return out;
}

function actionCodeFor(actionType: ActionType, raw: unknown): number {
  const code = Number.parseInt(String(raw ?? ''), 10);
  if (actionType === 'url' || actionType === 'random') return (REDIRECT_CODES as readonly number[]).includes(code) ? code : 301;
  if (actionType === 'error') return (ERROR_CODES as readonly number[]).includes(code) ? code : 404;
  return 0;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const intOf = (v: unknown): number => {
  const n = Number.parseInt(String(v ?? ''), 10);
  return Number.isNaN(n) ? 0 : n;
};

// The largest value of the store's int columns (position, hits).
const INT_COLUMN_MAX = 2_147_483_647;

/** A position or hit count as the plugin reads it (intval, not below 0), clamped to what its column holds, as MySQL clamps. */
export const countOf = (v: unknown): number => Math.min(INT_COLUMN_MAX, Math.max(0, intOf(v)));

/** Source flags from `match_data.source` (booleans only, as the legacy `is_bool`), else the settings' with `regex`. */
function flagsFor(body: RedirectBody, settings: RedirectionSettings): SourceFlags {
  const source = isObject(body.match_data) && isObject(body.match_data.source) ? body.match_data.source : null;
  let flags: SourceFlags;
  if (source) {
    flags = { flag_query: 'exact', flag_case: false, flag_trailing: false, flag_regex: false };
    if ((FLAG_QUERY as readonly unknown[]).includes(source.flag_query)) flags.flag_query = source.flag_query as SourceFlags['flag_query'];
    for (const k of ['flag_case', 'flag_trailing', 'flag_regex'] as const) if (typeof source[k] === 'boolean') flags[k] = source[k];
  } else {
    const r = body.regex;
    flags = { ...globalFlags(settings), flag_regex: r === true || intOf(r) === 1 };
  }
  if (flags.flag_regex) flags.flag_query = 'exact';
  return flags;
}

/** Only the flags that differ from the settings are stored, with the options; null when nothing is left. */
export function storedMatchData(flags: SourceFlags, logExclude: boolean, settings: RedirectionSettings): StoredMatchData | null {
  const global = globalFlags(settings);
  const source: Partial<SourceFlags> = {};
  for (const k of Object.keys(flags) as (keyof SourceFlags)[]) if (flags[k] !== global[k]) (source as Record<string, unknown>)[k] = flags[k];
  const out: StoredMatchData = {};
  if (Object.keys(source).length) out.source = source;
  if (logExclude) out.options = { log_exclude: true };
  return Object.keys(out).length ? out : null;
}

export interface SanitizeContext {
  settings: RedirectionSettings;
  /** The site's host: an absolute source on another host becomes a `server` match. */
  siteHost: string;
  /** Whether a group exists. */
  groupExists: (id: number) => Promise<boolean>;
  /** The redirect being updated: unsent fields keep its values. */
  existing?: RedirectRow;
}

/**
 * The fields of a redirect body the plugin's sanitizer reads (`Red_Item_Sanitize::get`, and create's
 * `enabled` and `status`): no other field of the request reaches the store, so a NUL byte elsewhere is
 * ignored as on the legacy site (core-nul-bytes).
 */
export const REDIRECT_FIELDS = ['url', 'match_type', 'action_type', 'action_code', 'action_data', 'match_data', 'regex', 'group_id', 'title', 'position', 'enabled', 'status'] as const;

/** A redirect body: only the fields the sanitizer reads, so reading another one does not type-check. */
export type RedirectBody = { [F in (typeof REDIRECT_FIELDS)[number]]?: unknown };

export type SanitizedRedirect = Omit<NewRedirect, 'hits' | 'lastAccess' | 'position' | 'enabled'> & {
  /** null: not sent (create places it after the group's redirects, update keeps it). */
  position: number | null;
  enabled: boolean;
};

/**
 * One redirect from a body with a single `url` string. Checks in the legacy order: matcher,
 * action, source, group.
 */
export async function sanitizeRedirect(body: RedirectBody, url: string, c: SanitizeContext): Promise<SanitizedRedirect> {
  // `error_code` is the line of the plugin's route that returns the error: route_update's, else route_create's.
  const invalid = (message: string) => errors.redirection.invalid(message, 'redirect', c.existing ? 369 : 347);
  let matchType = body.match_type as MatchType;
  if (!(MATCH_TYPES as readonly unknown[]).includes(matchType)) throw invalid('Invalid redirect matcher');
  const actionType = body.action_type as ActionType;
  if (!(ACTION_TYPES as readonly unknown[]).includes(actionType)) throw invalid('Invalid redirect action');

  const flags = flagsFor(body, c.settings);
  let actionData: Record<string, unknown> | null = isObject(body.action_data)
    ? actionDataFor(matchType, actionType, body.action_data)
    : c.existing
      ? c.existing.actionData
      : null;

  // An absolute source on another host: a server match on that host, the target kept as `url_from`.
  const absolute = /^(https?):\/\/([^/?#]+)/i.exec(url.trim());
  if (absolute && absolute[2].toLowerCase() !== c.siteHost.toLowerCase() && matchType === 'url') {
    matchType = 'server';
    const from = actionData && typeof actionData.url === 'string' ? actionData.url : '';
    actionData = { server: `${absolute[1].toLowerCase()}://${absolute[2]}`, url_from: from, url_notfrom: '' };
  }

  const source = sanitizeSource(url, flags.flag_regex);
  if (source === '') throw invalid('Invalid source URL');

  const groupId = intOf(body.group_id);
  if (!(await c.groupExists(groupId))) throw invalid('Invalid group when creating redirect');

  const title = typeof body.title === 'string' ? stripTags(body.title).trim().slice(0, 500) : null;
  const logExclude = isObject(body.match_data) && isObject(body.match_data.options) && body.match_data.options.log_exclude === true;
  const disabled = body.enabled === false || body.enabled === 'disabled' || body.status === 'disabled';
  return {
    url: source,
    matchUrl: flags.flag_regex ? 'regex' : matchUrlOf(source, flags.flag_query === 'exactorder'),
    matchData: storedMatchData(flags, logExclude, c.settings),
    regex: flags.flag_regex,
    position: body.position === undefined || body.position === null ? null : countOf(body.position),
    groupId,
    enabled: c.existing ? c.existing.enabled : !disabled,
    actionType,
    actionCode: actionCodeFor(actionType, body.action_code),
    actionData,
    title: title === '' ? null : title === null ? (c.existing?.title ?? null) : title,
    matchType,
  };
}

/** The unique source URLs of a body: `url` may be one string or a list (one redirect each). */
export function sourceUrls(body: RedirectBody): string[] | null {
  const u = body.url;
  if (typeof u === 'string') return [u];
  if (Array.isArray(u)) return [...new Set(u.filter((x): x is string => typeof x === 'string'))];
  return null;
}
