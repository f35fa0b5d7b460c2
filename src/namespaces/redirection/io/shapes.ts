/**
 * The redirect and group records as the legacy plugin serializes them (`to_json`): the exchange
 * shape of every export format and import parser. Flags in `match_data.source` are the effective ones.
 */
export type FlagQuery = 'exact' | 'ignore' | 'pass' | 'exactorder';

export interface SourceFlags {
  flag_query: FlagQuery;
  flag_case: boolean;
  flag_trailing: boolean;
  flag_regex: boolean;
}

export interface RedirectJson {
  id: number;
  url: string;
  match_url: string;
  match_data: { source: SourceFlags; options?: { log_exclude: true } } | null;
  action_code: number;
  action_type: string;
  action_data: Record<string, unknown> | null;
  match_type: string;
  title: string;
  hits: number;
  regex: boolean;
  group_id: number;
  position: number;
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
}

/** A redirect read from an import file, in the body shape `POST /redirect` takes. */
export interface ImportedRedirect {
  url: string;
  action_type: string;
  action_code: number;
  action_data: Record<string, unknown> | null;
  match_type: string;
  regex: boolean;
  title?: string;
  group_id?: number;
  position?: number;
  hits?: number;
  last_access?: string;
  enabled?: boolean;
  match_data?: RedirectJson['match_data'];
}

/** The fresh-install source flags (the plugin's settings defaults after install). */
export const installFlags: SourceFlags = { flag_query: 'exact', flag_case: true, flag_trailing: true, flag_regex: false };

export const flagsOf = (r: Pick<RedirectJson, 'match_data' | 'regex'>): SourceFlags => ({
  ...installFlags,
  ...(r.match_data?.source ?? {}),
  flag_regex: r.match_data?.source?.flag_regex ?? r.regex,
});

/** The redirect's target URL, when its match data has one. */
export const targetOf = (r: Pick<RedirectJson, 'action_data'>): string | undefined => {
  const u = r.action_data?.url;
  return typeof u === 'string' ? u : undefined;
};
