/**
 * The redirection rows the store reads and writes (tables `redirection_items`, `_groups`, `_logs`,
 * `_404`, and the `redirection` option), the column domains they take, and the list queries'
 * filters, already reduced to what applies (see `namespaces/redirection/params.ts`). The
 * namespace maps these rows to the plugin's JSON shapes (`namespaces/redirection/records.ts`).
 */

export const MATCH_TYPES = ['url', 'referrer', 'agent', 'login', 'header', 'cookie', 'custom', 'role', 'server', 'ip', 'page', 'language'] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

export const ACTION_TYPES = ['url', 'error', 'nothing', 'random', 'pass'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const FLAG_QUERY = ['exact', 'ignore', 'pass', 'exactorder'] as const;
export type FlagQuery = (typeof FLAG_QUERY)[number];

export interface SourceFlags {
  flag_query: FlagQuery;
  flag_case: boolean;
  flag_trailing: boolean;
  flag_regex: boolean;
}

/** What `match_data` stores: only the flags that differ from the settings, and the options. */
export interface StoredMatchData {
  source?: Partial<SourceFlags>;
  options?: { log_exclude?: boolean };
}

/** A stored redirect (table `redirection_items`). */
export interface RedirectRow {
  id: number;
  url: string;
  matchUrl: string;
  matchData: StoredMatchData | null;
  regex: boolean;
  position: number;
  hits: number;
  /** null: never hit. */
  lastAccess: Date | null;
  groupId: number;
  enabled: boolean;
  actionType: ActionType;
  actionCode: number;
  /** As output: `{url}` for url matches, the match's object for the others; null when none. */
  actionData: Record<string, unknown> | null;
  /** null: no title (output as ""). */
  title: string | null;
  matchType: MatchType;
}

/** A redirect to insert: every column but the ID (import keeps hits and last access). */
export type NewRedirect = Omit<RedirectRow, 'id'>;

/** A stored group with the count of its redirects (all of them, enabled or not). */
export interface GroupRow {
  id: number;
  name: string;
  moduleId: number;
  enabled: boolean;
  position: number;
  redirects: number;
}

/** Columns shared by the redirect log and the 404 log. */
export interface LogBase {
  id: number;
  created: Date;
  url: string;
  domain: string | null;
  agent: string | null;
  referrer: string | null;
  ip: string | null;
  httpCode: number;
  requestMethod: string | null;
  /** e.g. `{headers: {...}}`; null when empty. */
  requestData: Record<string, unknown> | null;
}

/** A row of the redirect log (`redirection_logs`). */
export interface LogRow extends LogBase {
  sentTo: string | null;
  /** Lowercased agent of the redirect: `redirection`, `wordpress`, a plugin name. */
  redirectBy: string | null;
  /** 0 when not made by a Redirection rule. */
  redirectionId: number;
}

/** A row of the 404 log (`redirection_404`). */
export type NotFoundRow = LogBase;

export type NewLogRow = Omit<LogRow, 'id'>;
export type NewNotFoundRow = Omit<NotFoundRow, 'id'>;

export interface HeaderSetting {
  type: string;
  headerName: string;
  headerValue: string;
  location: 'site' | 'redirect';
  headerSettings: Record<string, unknown>;
}

/** The plugin's options (`red_get_options()`), with the legacy names. */
export interface RedirectionSettings {
  support: boolean;
  token: string;
  monitor_post: number;
  monitor_types: string[];
  associated_redirect: string;
  auto_target: string;
  /** Days to keep log rows: 0 forever, -1 no logging. */
  expire_redirect: number;
  expire_404: number;
  log_external: boolean;
  log_header: boolean;
  track_hits: boolean;
  modules: Record<string, unknown>;
  redirect_cache: number;
  /** 0 no IP, 1 full, 2 anonymized. */
  ip_logging: number;
  ip_headers: string[];
  ip_proxy: string[];
  last_group_id: number;
  rest_api: number;
  https: boolean;
  headers: HeaderSetting[];
  database: string;
  relocate: string;
  preferred_domain: '' | 'www' | 'nowww';
  aliases: string[];
  permalinks: string[];
  cache_key: number;
  plugin_update: 'prompt' | 'admin';
  update_notice: number | string;
  flag_query: FlagQuery;
  flag_case: boolean;
  flag_trailing: boolean;
  flag_regex: boolean;
}

// ---- list queries ----------------------------------------------------------------------------

export type Direction = 'asc' | 'desc';

export interface Page {
  /** Zero-based. */
  page: number;
  perPage: number;
}

export interface Listed<T> {
  items: T[];
  total: number;
}

/** `filterBy` of `GET /redirect`, already reduced to the filters that apply. */
export interface RedirectFilter {
  enabled?: boolean;
  regex?: boolean;
  matchType?: MatchType;
  actionType?: ActionType;
  actionCode?: number;
  /** Last access before this instant, or never; `'never'`: never hit. */
  access?: Date | 'never';
  url?: string;
  target?: string;
  title?: string;
  groupId?: number;
  id?: number;
}
export type RedirectOrder = 'url' | 'hits' | 'last_access' | 'position' | 'id';

export interface GroupFilter {
  enabled?: boolean;
  moduleId?: number;
  name?: string;
}
export type GroupOrder = 'name' | 'id';

export interface LogFilter {
  ip?: string;
  /** true: `ip` is a full address, matched exactly. */
  ipExact?: boolean;
  urlExact?: string;
  url?: string;
  referrer?: string;
  agent?: string;
  domain?: string;
  method?: string;
  httpCode?: number;
  /** Redirect log only. */
  target?: string;
  redirectBy?: string;
}
export type LogOrder = 'url' | 'ip' | 'id';
export type LogGroupBy = 'url' | 'ip' | 'agent';
export type LogKind = 'log' | '404';

/** A log column's value and how many rows have it (`groupBy` lists). */
export interface GroupedRow {
  value: string;
  count: number;
}

/** Which records a bulk action applies to: listed IDs, or all that match a filter. */
export type Selection<F> = { ids: number[] } | { filter: F };
