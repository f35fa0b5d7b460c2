/**
 * The list parameters every list and bulk route shares (`get_filter_args`), and the reduction of
 * `filterBy` to the filters that apply (`Red_Item_Filter`, `Red_Group::get_filtered`, `Red_Log`).
 */
import { z } from 'zod';
import { arg, withValidateCallback } from '../../contract/args.ts';
import type { Args } from '../../contract/route.ts';
import { ERROR_CODES, REDIRECT_CODES } from './records.ts';
import {
  ACTION_TYPES,
  MATCH_TYPES,
  type ActionType,
  type GroupFilter,
  type LogFilter,
  type LogKind,
  type MatchType,
  type Page,
  type RedirectFilter,
} from '../../store/redirection/rows.ts';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';

/** `filterBy`: an object whose every key is one the route allows (else the legacy 400); empty text is no filter. */
function filterBy(allowed: readonly string[]) {
  return withValidateCallback(arg.untyped({ description: 'Field to filter by' }).superRefine((v, ctx) => {
    if (v === undefined || v === '') return;
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message, params: { wp: { code: 'rest_invalid_param', message, data: { status: 400 } } } });
    if (!isObject(v)) return fail('Filter is not an array');
    for (const key of Object.keys(v)) if (!allowed.includes(key)) return fail(`Filter type is not supported: ${key}`);
  }));
}

/** The common list parameters, with the route's `orderby` enum and `filterBy` keys. */
export function listArgs<const O extends readonly [string, ...string[]]>(orderby: O, filterKeys: readonly string[]) {
  return {
    filterBy: filterBy(filterKeys),
    orderby: arg.enum(orderby, { description: 'Field to order results by' }),
    direction: arg.enum(['asc', 'desc'], { description: 'Direction of ordered results', default: 'desc' }),
    per_page: arg.integer({ description: 'Number of results per page', default: 25, minimum: 5, maximum: 200 }),
    page: arg.integer({ description: 'Page offset', minimum: 0, default: 0 }),
  };
}

/** `items`: each entry text or a number, else `items[N] is not of type string,number.` as the legacy site says. */
export const itemsArg = (description: string) =>
  arg.array(
    z.unknown().superRefine((v, ctx) => {
      if (typeof v !== 'string' && typeof v !== 'number') ctx.addIssue({ code: 'invalid_type', expected: 'string', input: v });
    }).meta({ description: 'Item ID', type: ['string', 'number'] }) as z.ZodType<string | number>,
    { description },
  );

/**
 * An `items` entry as a record ID, read as the plugin's intval; null when no record can have it
 * (not a number, or beyond the integers the store keeps), so it never reaches the store's query.
 */
export function itemId(i: string | number): number | null {
  const n = Number.parseInt(String(i), 10);
  return Number.isSafeInteger(n) ? n : null;
}

export const REDIRECT_ORDERBY = ['source', 'last_count', 'last_access', 'position', 'id', ''] as const;
export const REDIRECT_FILTERS = ['status', 'url-match', 'match', 'action', 'http', 'access', 'url', 'target', 'title', 'group', 'id'] as const;
export const GROUP_ORDERBY = ['name', 'id', ''] as const;
export const GROUP_FILTERS = ['status', 'module', 'name'] as const;
export const LOG_ORDERBY = ['url', 'ip', 'total', 'count', ''] as const;
export const LOG_FILTERS = ['ip', 'url-exact', 'referrer', 'agent', 'url', 'target', 'domain', 'method', 'http', 'redirect_by'] as const;
export const NOT_FOUND_FILTERS = LOG_FILTERS.filter((k) => k !== 'target' && k !== 'redirect_by');

export type ListParams = Args<ReturnType<typeof listArgs<readonly [string, ...string[]]>>>;
/** A bulk route's own arguments, besides the list's: the chosen items or, on some routes, every record the filter selects. */
export type BulkParams = ListParams & { items?: (string | number)[]; global?: boolean };

export const pageOf = (p: ListParams): Page => ({ page: p.page, perPage: p.per_page });

/** Filter values as the plugin reads them: trimmed text, tags stripped. */
function values(filterBy: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!isObject(filterBy)) return out;
  for (const [k, v] of Object.entries(filterBy)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out.set(k, String(v).replace(/<[^>]*>/g, '').trim());
  }
  return out;
}

const int = (s: string) => Number.parseInt(s, 10);

export function redirectFilter(filterBy: unknown, now: Date): RedirectFilter {
  const f: RedirectFilter = {};
  for (const [k, v] of values(filterBy)) {
    switch (k) {
      case 'status': f.enabled = v === 'enabled'; break;
      case 'url-match': f.regex = v === 'regular'; break;
      case 'match': if ((MATCH_TYPES as readonly string[]).includes(v)) f.matchType = v as MatchType; break;
      case 'action': if ((ACTION_TYPES as readonly string[]).includes(v)) f.actionType = v as ActionType; break;
      case 'http': {
        const code = int(v);
        if ([...REDIRECT_CODES, ...ERROR_CODES].some((c) => c === code)) f.actionCode = code;
        break;
      }
      case 'access': {
        if (v === 'year' || v === 'month') {
          const before = new Date(now);
          if (v === 'year') before.setUTCFullYear(before.getUTCFullYear() - 1);
          else before.setUTCMonth(before.getUTCMonth() - 1);
          f.access = before;
        } else f.access = 'never';
        break;
      }
      case 'url': f.url = v; break;
      case 'target': f.target = v; break;
      case 'title': f.title = v; break;
      case 'group': f.groupId = int(v) || 0; break;
      case 'id': f.id = int(v) || 0; break;
    }
  }
  return f;
}

export function groupFilter(filterBy: unknown): GroupFilter {
  const f: GroupFilter = {};
  for (const [k, v] of values(filterBy)) {
    if (k === 'status') f.enabled = v === 'enabled';
    else if (k === 'module') f.moduleId = int(v) || 0;
    else if (k === 'name') f.name = v;
  }
  return f;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'];
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const isIp = (s: string) => IPV4.test(s) || (s.includes(':') && /^[0-9a-f:.]+$/i.test(s));

export function logFilter(kind: LogKind, filterBy: unknown): LogFilter {
  const f: LogFilter = {};
  for (const [k, v] of values(filterBy)) {
    switch (k) {
      case 'ip': f.ip = isIp(v) ? v.toLowerCase() : v; f.ipExact = isIp(v); break;
      case 'url-exact': f.urlExact = v; break;
      case 'url': f.url = v; break;
      case 'referrer': f.referrer = v; break;
      case 'agent': f.agent = v; break;
      case 'domain': f.domain = v; break;
      case 'method': if (METHODS.includes(v.toUpperCase())) f.method = v.toUpperCase(); break;
      case 'http': f.httpCode = int(v) || 0; break;
      case 'target': if (kind === 'log') f.target = v; break;
      case 'redirect_by': if (kind === 'log') f.redirectBy = v; break;
    }
  }
  return f;
}
