/** The plugin settings as the edge obeys them, read leniently from what the store holds. */
import { FLAG_QUERY, type RedirectionSettings, type SourceFlags } from '../../../store/redirection/rows.ts';
import { defaultRedirectionSettings } from '../../../store/redirection/settings.ts';

/** What the edge obeys of the plugin settings. */
export interface EdgeSettings {
  flags: SourceFlags;
  expireRedirect: number;
  expire404: number;
  trackHits: boolean;
  ipLogging: number;
  logHeader: boolean;
  /** Hours a 301 may be cached (`redirect_cache`): 0 sends no cache headers, -1 forbids caching. */
  redirectCacheHours: number;
}

const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : d);

/**
 * The settings as the edge obeys them. A setting the stored value lacks reads as the plugin's
 * default, as the API reads it; one of the wrong type (an imported legacy value) too.
 */
export function edgeSettings(s: RedirectionSettings): EdgeSettings {
  const d = defaultRedirectionSettings;
  return {
    flags: {
      flag_query: (FLAG_QUERY as readonly unknown[]).includes(s.flag_query) ? s.flag_query : d.flag_query,
      flag_case: typeof s.flag_case === 'boolean' ? s.flag_case : d.flag_case,
      flag_trailing: typeof s.flag_trailing === 'boolean' ? s.flag_trailing : d.flag_trailing,
      flag_regex: typeof s.flag_regex === 'boolean' ? s.flag_regex : d.flag_regex,
    },
    expireRedirect: num(s.expire_redirect, d.expire_redirect),
    expire404: num(s.expire_404, d.expire_404),
    trackHits: s.track_hits !== false,
    ipLogging: num(s.ip_logging, d.ip_logging),
    logHeader: s.log_header === true,
    redirectCacheHours: num(s.redirect_cache, d.redirect_cache),
  };
}
