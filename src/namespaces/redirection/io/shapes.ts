/**
 * The redirect and group records as the legacy plugin serializes them (`to_json`): the exchange
 * shape of every export format and import parser. Flags in `match_data.source` are the effective ones.
 */
import { globalFlags, type GroupJson as ApiGroupJson, type RedirectJson as ApiRedirectJson } from '../records.ts';
import { defaultRedirectionSettings, installedRedirectionSettings } from '../../../store/redirection/settings.ts';
import type { SourceFlags } from '../../../store/redirection/rows.ts';

export type { FlagQuery, SourceFlags } from '../../../store/redirection/rows.ts';

/** The API's redirect record; in the exchange formats the action and match names are not yet checked. */
export type RedirectJson = Omit<ApiRedirectJson, 'action_type' | 'match_type'> & { action_type: string; match_type: string };

/** The API's group record, without the list-only `default` marker. */
export type GroupJson = Omit<ApiGroupJson, 'default'>;

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
export const installFlags: SourceFlags = globalFlags({ ...defaultRedirectionSettings, ...installedRedirectionSettings });

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
