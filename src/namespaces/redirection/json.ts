/** The legacy JSON shapes of redirects, groups and log rows (`to_json` of the plugin's models). */
import { offsetMinutes } from '../../site/time.ts';
import type { SiteOptions } from '../../store/options.ts';
import { MODULES, effectiveFlags, type GroupJson, type LogBaseJson, type LogJson, type RedirectJson } from './records.ts';
import type { GroupRow, LogBase, LogRow, RedirectionSettings, RedirectRow } from '../../store/redirection/rows.ts';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const pad = (n: number) => String(n).padStart(2, '0');

/** PHP `date()` of `at` in the site's time zone, for the format characters WordPress date/time options use. */
export function phpDate(format: string, at: Date, zone: string): string {
  const local = new Date(at.getTime() + offsetMinutes(zone, at) * 60000);
  const Y = local.getUTCFullYear(), m = local.getUTCMonth(), d = local.getUTCDate(), w = local.getUTCDay();
  const H = local.getUTCHours(), i = local.getUTCMinutes(), s = local.getUTCSeconds();
  const h12 = H % 12 || 12;
  const out: string[] = [];
  for (let k = 0; k < format.length; k++) {
    const c = format[k];
    switch (c) {
      case 'd': out.push(pad(d)); break;
      case 'j': out.push(String(d)); break;
      case 'D': out.push(DAYS[w].slice(0, 3)); break;
      case 'l': out.push(DAYS[w]); break;
      case 'S': out.push(d % 10 === 1 && d !== 11 ? 'st' : d % 10 === 2 && d !== 12 ? 'nd' : d % 10 === 3 && d !== 13 ? 'rd' : 'th'); break;
      case 'F': out.push(MONTHS[m]); break;
      case 'M': out.push(MONTHS[m].slice(0, 3)); break;
      case 'm': out.push(pad(m + 1)); break;
      case 'n': out.push(String(m + 1)); break;
      case 'Y': out.push(String(Y)); break;
      case 'y': out.push(pad(Y % 100)); break;
      case 'a': out.push(H < 12 ? 'am' : 'pm'); break;
      case 'A': out.push(H < 12 ? 'AM' : 'PM'); break;
      case 'g': out.push(String(h12)); break;
      case 'h': out.push(pad(h12)); break;
      case 'G': out.push(String(H)); break;
      case 'H': out.push(pad(H)); break;
      case 'i': out.push(pad(i)); break;
      case 's': out.push(pad(s)); break;
      case '\\': k++; if (k < format.length) out.push(format[k]); break;
      default: out.push(c);
    }
  }
  return out.join('');
}

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
