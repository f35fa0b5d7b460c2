/**
 * The site root when no legacy origin serves it: a 200 page naming the site and where its API
 * is (the legacy site answers its front page there, and API clients such as wpapi discover the
 * REST root from that answer's `Link` header, which every site answer carries). WordPress also
 * answers its front page to a request with an empty `rest_route` (`/wp-json/x?rest_route=`), after
 * redirecting a GET to the slashed address (`frontPage`). One asking for a post by slug
 * (`?name=x`, also in a POST form) is a single post's page: a GET or HEAD is redirected to the first
 * published calendar record whose slug begins with it, as redirect_canonical guesses
 * (redirect_guess_404_permalink); otherwise it is the site's 404 page, logged.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../services.ts';
import { escapeHtml } from '../../lib/html.ts';
import { wpSanitizeRedirect } from '../../lib/esc-url.ts';
import { frontPage, postSlugAsked, routeVars } from '../../http/rest-request.ts';
import { slugify } from '../../lib/slug.ts';
import { safeDecode } from '../../lib/url-encoding.ts';
import { redirectCache } from '../../namespaces/redirection/edge/responses.ts';
import { edgeSettings } from '../../namespaces/redirection/edge/settings.ts';

export function homePage(services: Pick<Services, 'config' | 'store' | 'mappings' | 'clock'>) {
  const { baseUrl, restPrefix } = services.config;
  const prefixes = { restPrefix, locales: services.mappings.locales };
  return async (req: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    const q = req.url.indexOf('?');
    const pathname = q < 0 ? req.url : req.url.slice(0, q);
    const vars = await routeVars(req);
    const front = pathname === '/' && (req.method === 'GET' || req.method === 'HEAD') ? 'page' : vars !== 'mismatch' && frontPage(req.method, pathname, vars, prefixes);
    if (!front) return false;
    const redirect = async (location: string) => {
      const hours = edgeSettings(await services.store.redirection.settings.get()).redirectCacheHours;
      await reply.code(301).headers(redirectCache(301, hours, services.clock.now())).header('X-Redirect-By', 'WordPress').header('Location', wpSanitizeRedirect(lowerHighOctets(location))).type('text/html; charset=UTF-8').send('');
      return true;
    };
    const asked = vars === 'mismatch' ? null : postSlugAsked(vars);
    if (asked !== null) {
      const prefix = slugify(asked);
      const guess = (req.method === 'GET' || req.method === 'HEAD') && prefix !== '' ? await services.store.calendar.publishedBySlugPrefix(prefix) : null;
      // A post slug WordPress finds no post for: the site's 404 page (and 404 log row), left to the redirect edge.
      if (!guess) return false;
      return redirect(`${baseUrl}/${guess.kind}/${guess.slug}/${withoutPostVars(q < 0 ? '' : req.url.slice(q + 1))}`);
    }
    if (front !== 'page') return redirect(`${baseUrl}${front.redirect}${q < 0 ? '' : req.url.slice(q)}`);
    const site = await services.store.options.site();
    const name = escapeHtml(site.name);
    await reply.type('text/html; charset=UTF-8').send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title></head><body><h1>${name}</h1>` +
        (site.description ? `<p>${escapeHtml(site.description)}</p>` : '') +
        `<p>The site's REST API: <a href="${escapeHtml(`${baseUrl}/${restPrefix}/`)}">${escapeHtml(`${baseUrl}/${restPrefix}/`)}</a>, described at <a href="${escapeHtml(`${baseUrl}/api-docs/`)}">API reference</a>.</p></body></html>`,
    );
    return true;
  };
}

/** redirect_canonical's answer writes the octets of non-ASCII bytes in lower case (`%C3%A9` → `%c3%a9`), ASCII ones as sent (`%7E`). */
export function lowerHighOctets(url: string): string {
  return url.replace(/%[89a-f][0-9a-f]/gi, (octet) => octet.toLowerCase());
}

/** The query redirect_canonical keeps after guessing a post: the vars that named it (name, p, page_id, post_type) are dropped. */
function withoutPostVars(query: string): string {
  const kept = query.split('&').filter((pair) => pair !== '' && !['name', 'p', 'page_id', 'post_type'].includes(safeDecode(pair.split('=')[0]!.replace(/\+/g, ' '))));
  return kept.length ? `?${kept.join('&')}` : '';
}
