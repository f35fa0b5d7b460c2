/**
 * The JSON shapes of the legacy plugin (5.4.2) the API answers with, built from the store's rows
 * (`src/store/redirection/rows.ts`), and the vocabularies the API checks. The edge matcher,
 * import and export build on these too.
 */
import type { ActionType, MatchType, RedirectionSettings, RedirectRow, SourceFlags } from '../../store/redirection/rows.ts';

/** Actions that need a target (the legacy "URL type" actions). */
export const TARGET_ACTIONS: readonly ActionType[] = ['url', 'pass'];

export const REDIRECT_CODES = [301, 302, 303, 304, 307, 308] as const;
export const ERROR_CODES = [400, 401, 403, 404, 410, 418, 451, 500, 501, 502, 503, 504] as const;

/** Module IDs: 1 the site itself (WordPress), 2 Apache, 3 Nginx. */
export const MODULES: Record<number, string> = { 1: 'WordPress', 2: 'Apache', 3: 'Nginx' };
export const SITE_MODULE = 1;

/** A redirect as the API and the JSON export show it (`Red_Item::to_json`), keys in this order. */
export interface RedirectJson {
  id: number;
  url: string;
  match_url: string;
  match_data: { source: SourceFlags; options?: { log_exclude: true } } | null;
  action_code: number;
  action_type: ActionType;
  action_data: Record<string, unknown> | null;
  match_type: MatchType;
  title: string;
  hits: number;
  regex: boolean;
  group_id: number;
  position: number;
  /** The last hit in the site's `date_format`, or "-" when never hit. */
  last_access: string;
  enabled: boolean;
}

export interface GroupJson {
  id: number;
  name: string;
  redirects: number;
  module_id: number;
  moduleName: string;
  enabled: boolean;
  /** Only in `GET /group` lists, on the group whose ID is the setting `last_group_id`. */
  default?: true;
}

export interface LogBaseJson {
  id: number;
  created: string;
  created_time: string;
  url: string;
  agent: string | null;
  referrer: string | null;
  domain: string | null;
  ip: string | null;
  http_code: number;
  request_method: string | null;
  request_data: Record<string, unknown> | '';
}

export interface LogJson extends LogBaseJson {
  sent_to: string | null;
  redirection_id: number;
  redirect_by_slug: string | null;
  redirect_by: string;
}

/** A grouped log row (`groupBy`): the grouped value is also the `id`. */
export interface GroupedLogJson {
  count: number;
  id: string;
  [column: string]: string | number;
}

/** The global source flags of the settings. */
export function globalFlags(s: RedirectionSettings): SourceFlags {
  return { flag_query: s.flag_query, flag_case: s.flag_case, flag_trailing: s.flag_trailing, flag_regex: s.flag_regex };
}

/** A redirect's effective flags: the settings overridden by its stored flags (as the matcher and the API see them). */
export function effectiveFlags(row: Pick<RedirectRow, 'matchData'>, s: RedirectionSettings): SourceFlags {
  return { ...globalFlags(s), ...(row.matchData?.source ?? {}) };
}
