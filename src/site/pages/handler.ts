/**
 * `/event/{slug}/`, `/venue/{slug}/`, `/organizer/{slug}/` and their `embed/` pages, also under a
 * locale segment (`/fr/event/{slug}/`), from the same EmbeddableLookup as oEmbed. Records that are
 * not public fall through to the next site handler.
 */
import { siteUrls } from '../../contract/site-urls.ts';
import type { EmbeddableLookup } from '../../namespaces/oembed/embeddable.ts';
import { publicEmbeddable } from '../../namespaces/oembed/embeddable.ts';
import type { Services } from '../../services.ts';
import type { SiteHandler } from '../../http/site-handler.ts';
import { recordPage } from './record-page.ts';
import { calendarDiscovery } from '../../http/calendar-discovery.ts';
import { RECORD_PAGE } from '../../http/record-paths.ts';

// No script runs on these pages; the embed page may be framed anywhere, the page itself only here.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; base-uri 'none'; form-action 'none'";

export function recordPages(services: Services, lookup: EmbeddableLookup): SiteHandler {
  const { config, mappings } = services;
  return async (req, reply, pathname) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const m = RECORD_PAGE.exec(pathname);
    if (!m) return false;
    const [, locale = null, kind, slug, embedPart] = m;
    if (locale !== null && !mappings.locales.includes(locale)) return false;
    const embed = embedPart !== undefined;
    // Links on the page keep the locale it was asked under.
    const urls = siteUrls(config.baseUrl, config.restPrefix, config.adminPath, locale);
    const record = await publicEmbeddable(lookup, new URL(`${urls.home}/${kind}/${slug}/`), { urls, store: services.store });
    if (!record) return false;
    const site = await services.store.options.site();
    reply
      .code(200)
      .type('text/html; charset=UTF-8')
      .header('Content-Security-Policy', embed ? CSP : `${CSP}; frame-ancestors 'self'`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'strict-origin-when-cross-origin')
      .headers(calendarDiscovery(config));
    await reply.send(recordPage(record, { siteName: site.name, embed, lang: (locale ?? mappings.defaultLocale).replace('_', '-') }));
    return true;
  };
}
