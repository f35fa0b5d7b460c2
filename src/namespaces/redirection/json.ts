/** The legacy JSON shapes of redirects, groups and log rows (`to_json` of the plugin's models). */
import { phpDate } from '../../lib/time.ts';
import type { SiteOptions } from '../../store/options.ts';
import { MODULES, effectiveFlags, type GroupJson, type LogBaseJson, type LogJson, type RedirectJson } from './records.ts';
import type { GroupRow, LogBase, LogRow, RedirectionSettings, RedirectRow } from '../../store/redirection/rows.ts';

/** What the JSON shapes need besides the row: the global flags and the site's date settings. */
export interface JsonContext {
  settings: RedirectionSettings;
  site: Pick<SiteOptions, 'date_format' | 'time_format' | 'timezone'>;
}

export function redirectJson(r: RedirectRow, c: JsonContext): RedirectJson {
  const logExclude = r.matchData?.options?.log_exclude === true;
  return {
    id: r.id,
    url: r.url,
    match_url: r.matchUrl,
    match_data: { source: effectiveFlags(r, c.settings), ...(logExclude ? { options: { log_exclude: true as const } } : {}) },
    action_code: r.actionCode,
    action_type: r.actionType,
    action_data: r.actionData,
    match_type: r.matchType,
    title: r.title ?? '',
    hits: r.hits,
    regex: r.regex,
    group_id: r.groupId,
    position: r.position,
    last_access: r.lastAccess ? phpDate(c.site.date_format, r.lastAccess, c.site.timezone) : '-',
    enabled: r.enabled,
  };
}

export function groupJson(g: GroupRow): GroupJson {
  return {
    id: g.id,
    name: g.name,
    redirects: g.redirects,
    module_id: g.moduleId,
    moduleName: MODULES[g.moduleId] ?? '',
    enabled: g.enabled,
  };
}

export function notFoundJson(r: LogBase, c: JsonContext): LogBaseJson {
  return {
    id: r.id,
    created: phpDate(c.site.date_format, r.created, c.site.timezone),
    created_time: phpDate(c.site.time_format, r.created, c.site.timezone),
    url: r.url,
    agent: r.agent,
    referrer: r.referrer,
    domain: r.domain,
    ip: r.ip,
    http_code: r.httpCode,
    request_method: r.requestMethod,
    request_data: r.requestData && Object.keys(r.requestData).length ? r.requestData : '',
  };
}

/** PHP `ucwords`: the first letter of each space-separated word uppercased. */
const ucwords = (s: string) => s.replace(/(^|[ \t\r\n\f\v])(\S)/g, (_, sep: string, ch: string) => sep + ch.toUpperCase());

export function logJson(r: LogRow, c: JsonContext): LogJson {
  const slug = r.redirectBy;
  return {
    ...notFoundJson(r, c),
    sent_to: r.sentTo,
    redirection_id: r.redirectionId,
    redirect_by_slug: slug,
    redirect_by: slug === 'wordpress' ? 'WordPress' : ucwords(slug ?? ''),
  };
}
