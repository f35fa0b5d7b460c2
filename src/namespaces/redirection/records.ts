/**
 * The JSON shapes of the legacy plugin (5.4.2) the API answers with, built from the store's rows
 * (`src/store/redirection/rows.ts`), and the vocabularies the API checks. The edge matcher,
 * import and export build on these too.
 */
import { z } from 'zod';
import { ACTION_TYPES, FLAG_QUERY, MATCH_TYPES, type ActionType, type RedirectionSettings, type RedirectRow, type SourceFlags } from '../../store/redirection/rows.ts';

/** Actions that need a target (the legacy "URL type" actions). */
export const TARGET_ACTIONS: readonly ActionType[] = ['url', 'pass'];

export const REDIRECT_CODES = [301, 302, 303, 304, 307, 308] as const;
export const ERROR_CODES = [400, 401, 403, 404, 410, 418, 451, 500, 501, 502, 503, 504] as const;

/** Module IDs: 1 the site itself (WordPress), 2 Apache, 3 Nginx. */
export const MODULES: Record<number, string> = { 1: 'WordPress', 2: 'Apache', 3: 'Nginx' };
export const SITE_MODULE = 1;

const str = z.string();
const int = z.int();
const sourceFlags = z.object({ flag_query: z.enum(FLAG_QUERY), flag_case: z.boolean(), flag_trailing: z.boolean(), flag_regex: z.boolean() });

/** A redirect as the API and the JSON export show it (`Red_Item::to_json`), keys in this order. */
export const RedirectJson = z.object({
  id: int,
  url: str,
  match_url: str,
  match_data: z.object({ source: sourceFlags, options: z.object({ log_exclude: z.literal(true) }).optional() }).nullable(),
  action_code: int,
  action_type: z.enum(ACTION_TYPES),
  action_data: z.record(str, z.unknown()).nullable(),
  match_type: z.enum(MATCH_TYPES),
  title: str,
  hits: int,
  regex: z.boolean(),
  group_id: int,
  position: int,
  last_access: str.meta({ description: 'The last hit in the site\'s `date_format`, or "-" when never hit.' }),
  enabled: z.boolean(),
}).meta({ id: 'Redirect' });
export type RedirectJson = z.infer<typeof RedirectJson>;

export const GroupJson = z.object({
  id: int,
  name: str,
  redirects: int,
  module_id: int,
  moduleName: str,
  enabled: z.boolean(),
  default: z.literal(true).optional().meta({ description: 'Only in `GET /group` lists, on the group whose ID is the setting `last_group_id`.' }),
}).meta({ id: 'RedirectGroup' });
export type GroupJson = z.infer<typeof GroupJson>;

export const LogBaseJson = z.object({
  id: int,
  created: str,
  created_time: str,
  url: str,
  agent: str.nullable(),
  referrer: str.nullable(),
  domain: str.nullable(),
  ip: str.nullable(),
  http_code: int,
  request_method: str.nullable(),
  request_data: z.union([z.record(str, z.unknown()), z.literal('')]),
});
export type LogBaseJson = z.infer<typeof LogBaseJson>;

export const LogJson = LogBaseJson.extend({ sent_to: str.nullable(), redirection_id: int, redirect_by_slug: str.nullable(), redirect_by: str });
export type LogJson = z.infer<typeof LogJson>;

/** A grouped log row (`groupBy`): the grouped value is also the `id`. */
export const GroupedLogJson = z.object({ count: int, id: str }).catchall(z.union([str, z.number()]));
export type GroupedLogJson = z.infer<typeof GroupedLogJson>;

/** A list page: the page's items and how many the filter matches. */
export const listOf = (item: z.ZodType) => z.object({ items: z.array(item), total: int });

/** Groups by module, as the settings and the group pickers show them. */
export const GroupsDropdown = z.array(z.object({ label: str, value: z.array(z.object({ label: str, value: int })) }));

/** The plugin's status checks (`GET /plugin`, and what its fixes answer). */
export const PluginStatus = z.looseObject({
  status: z.array(z.object({ id: str, name: str, status: z.enum(['good', 'problem']), message: str })),
  debug: z.record(str, z.unknown()),
});

/** The database upgrade state, always complete: Lintel's schema has no plugin upgrades. */
export const UpgradeStatus = z.object({ status: str, inProgress: z.boolean(), complete: int });

/** The global source flags of the settings. */
export function globalFlags(s: RedirectionSettings): SourceFlags {
  return { flag_query: s.flag_query, flag_case: s.flag_case, flag_trailing: s.flag_trailing, flag_regex: s.flag_regex };
}

/** A redirect's effective flags: the settings overridden by its stored flags (as the matcher and the API see them). */
export function effectiveFlags(row: Pick<RedirectRow, 'matchData'>, s: RedirectionSettings): SourceFlags {
  return { ...globalFlags(s), ...(row.matchData?.source ?? {}) };
}
