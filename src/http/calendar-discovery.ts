/**
 * The calendar's REST discovery headers. The legacy calendar sends them with every page WordPress
 * renders (record pages, 404 and error pages), not with redirects or feeds, which leave before.
 */
import type { Config } from '../config.ts';

export function calendarDiscovery(config: Pick<Config, 'baseUrl' | 'restPrefix'>): Record<string, string> {
  return {
    'X-TEC-API-VERSION': 'v1',
    'X-TEC-API-ROOT': `${config.baseUrl}/${config.restPrefix}/calendar/events/v1/`,
    'X-TEC-API-ORIGIN': config.baseUrl,
  };
}
