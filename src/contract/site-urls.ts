/** The site's addresses for one request: the locale segment appears in `home` and REST links, never in the admin path. */
export interface SiteUrls {
  /** {base_url}, e.g. http://localhost:8080 */
  base: string;
  /** {base_url}[/locale] */
  home: string;
  /** {base_url}[/locale]/{rest-prefix}/ */
  apiRoot: string;
  /** {base_url}/{admin-path} */
  admin: string;
  locale: string | null;
  /** An absolute REST URL for a route path (`/calendar/events/v1/events/10`). */
  rest(route: string, query?: Record<string, string | number>): string;
}

export function siteUrls(base: string, restPrefix: string, adminPath: string, locale: string | null): SiteUrls {
  const home = locale ? `${base}/${locale}` : base;
  const apiRoot = `${home}/${restPrefix}/`;
  return {
    base,
    home,
    apiRoot,
    admin: `${base}/${adminPath}`,
    locale,
    rest(route, query) {
      const url = apiRoot + route.replace(/^\//, '');
      if (!query || Object.keys(query).length === 0) return url;
      return `${url}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`;
    },
  };
}
