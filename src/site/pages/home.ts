/**
 * The site root when no legacy origin serves it: a 200 page naming the site and where its API
 * is (the legacy site answers its front page there, and API clients such as wpapi discover the
 * REST root from that answer's `Link` header, which every site answer carries). WordPress also
 * answers its front page to a request with an empty `rest_route` (`/wp-json/x?rest_route=`), after
 * redirecting a GET to the slashed address (`frontPage`). Query vars there (also in a POST form)
 * can make it another page, as WP_Query and redirect_canonical read them:
 * - a post slug (`name`): a GET or HEAD is redirected to the first published calendar record whose
 *   slug begins with it (redirect_guess_404_permalink); otherwise it is the site's 404 page, logged;
 * - an event slug (`tribe_events`): the event's page when published, else a guess as for `name`;
 * - a post ID (`p`, `page_id`): a published calendar record's page, a GET or HEAD redirected to its
 *   permalink; the 404 page for an unpublished record or an ID nothing has;
 * - a tag (`tag`): its archive, the 404 page for a tag the calendar lacks;
 * - authors (`author=1`, `author=1,-2`): an author archive, a page when it lists a published post or
 *   names one existing user, else the 404 page; a GET or HEAD naming one user by digits alone is
 *   redirected to the author's page when the user has published anything.
 * Of WordPress's own posts, pages and categories Lintel knows too little (see DEVIATIONS.md core-front-page).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { lastOf, parseQueryString, type Params } from '../../lib/php-params.ts';
import type { Services } from '../../services.ts';
import { escapeHtml } from '../../lib/html.ts';
import { wpSanitizeRedirect } from '../../lib/esc-url.ts';
import { frontPage, postSlugAsked, routeVars } from '../../http/rest-request.ts';
import { slugify, userNicename } from '../../lib/slug.ts';
import { redirectCache } from '../../namespaces/redirection/edge/responses.ts';
import { edgeSettings } from '../../namespaces/redirection/edge/settings.ts';
import { authorsAsked, carriedQuery, postIdAsked, postPageAsked } from './canonical.ts';

export function homePage(services: Pick<Services, 'config' | 'store' | 'mappings' | 'clock'>) {
  const { store } = services;
  const { baseUrl, restPrefix } = services.config;
  const prefixes = { restPrefix, locales: services.mappings.locales };
  return async (req: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    const q = req.url.indexOf('?');
    const pathname = q < 0 ? req.url : req.url.slice(0, q);
    const vars = await routeVars(req);
    const front = pathname === '/' && (req.method === 'GET' || req.method === 'HEAD') ? 'page' : vars !== 'mismatch' && frontPage(req.method, pathname, vars, prefixes);
    if (!front || vars === 'mismatch') return false;
    const query = q < 0 ? '' : req.url.slice(q + 1);
    const redirect = async (location: string) => {
      const hours = edgeSettings(await store.redirection.settings.get()).redirectCacheHours;
      // wp_redirect sends every Location through wp_sanitize_redirect.
      await reply.code(301).headers(redirectCache(301, hours, services.clock.now())).header('X-Redirect-By', 'WordPress').header('Location', wpSanitizeRedirect(location)).type('text/html; charset=UTF-8').send('');
      return true;
    };
    const asked = await askedPage(store, baseUrl, vars, query, req.method === 'GET' || req.method === 'HEAD');
    // What WordPress finds nothing for: the site's 404 page (and 404 log row), left to the redirect edge.
    if (asked === 'missing') return false;
    if (asked) return redirect(asked.location);
    if (front !== 'page') return redirect(lowerHighOctets(`${baseUrl}${front.redirect}${q < 0 ? '' : req.url.slice(q)}`));
    const site = await store.options.site();
    const name = escapeHtml(site.name);
    await reply.type('text/html; charset=UTF-8').send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title></head><body><h1>${name}</h1>` +
        (site.description ? `<p>${escapeHtml(site.description)}</p>` : '') +
        `<p>The site's REST API: <a href="${escapeHtml(`${baseUrl}/${restPrefix}/`)}">${escapeHtml(`${baseUrl}/${restPrefix}/`)}</a>, described at <a href="${escapeHtml(`${baseUrl}/api-docs/`)}">API reference</a>.</p></body></html>`,
    );
    return true;
  };
}

/**
 * The page the query vars ask for in place of the front page, as WP_Query, handle_404 and
 * redirect_canonical read them: `missing` (the 404 page), where a GET or HEAD is redirected, or null
 * (a page: the front page's answer stands).
 */
async function askedPage(store: Services['store'], baseUrl: string, vars: Params, query: string, reads: boolean): Promise<{ location: string } | 'missing' | null> {
  const sent = parseQueryString(query);
  const id = postIdAsked(vars);
  // `tribe_events` names an event as `name` names a post (parse_request sets `name` and the post type from it).
  const eventAsked = postSlugAsked(vars, 'tribe_events');
  const asked = eventAsked ?? postSlugAsked(vars);
  if (asked !== null) {
    const slug = slugify(asked);
    const found = eventAsked !== null && slug !== '' && (await store.calendar.eventBySlug(slug))?.status === 'publish';
    if (!found) {
      const guess = reads && slug !== '' ? await store.calendar.publishedBySlugPrefix(slug, eventAsked !== null ? ['event'] : undefined) : null;
      if (!guess) return 'missing';
      const page = postPageAsked(vars);
      const dropped = ['page', 'feed', 'p', 'page_id', 'attachment_id', 'pagename', 'name', 'post_type'];
      return { location: `${baseUrl}/${guess.kind}/${guess.slug}/${page ? `${page}/` : ''}${carriedQuery(query, dropped)}` };
    }
  } else if (id > 0) {
    // `p` (else `page_id`): a published calendar record is its page, reached at its permalink; WordPress's own posts
    // and pages have no permalink Lintel knows (the front page answers); any other ID is the 404 page.
    const record = await store.calendar.record(id);
    if (record ? record.status !== 'publish' : !(await store.legacyPosts.byId(id))) return 'missing';
    const byVar = postIdAsked({ p: sent.p }) > 0 ? 'p' : postIdAsked({ page_id: sent.page_id }) > 0 ? 'page_id' : null;
    if (record && reads && byVar) return { location: `${baseUrl}/${record.kind}/${record.slug}/${carriedQuery(query, byVar === 'p' ? ['p', 'post_type'] : ['page_id'])}` };
  } else if (typeof lastOf(vars.tag) === 'string' && lastOf(vars.tag) !== '') {
    // A tag archive: a page for a tag the calendar has (a list of tags, `a,b` or `a+b`, is not looked up).
    const tag = lastOf(vars.tag) as string;
    if (!/[,+ ]/.test(tag) && !(await store.calendar.termBySlug('tag', slugify(tag)))) return 'missing';
  } else {
    const authors = authorsAsked(vars);
    if (authors !== null) {
      // handle_404: an archive listing a published post, or naming one user, is a page; else the 404 page.
      const excluded = authors.filter((a) => a <= 0).map(Math.abs);
      const single = authors.length === 1 && authors[0]! > 0 ? await store.users.byId(authors[0]!) : null;
      if (!single && !(await store.legacyPosts.hasPublished(excluded.length ? { notIn: excluded } : { in: authors }, 'post'))) return 'missing';
      const author = lastOf(sent.author);
      if (reads && single && typeof author === 'string' && /^\d+$/.test(author) && ((await store.legacyPosts.hasPublished({ in: [single.id] })) || (await store.calendar.hasPublishedBy(single.id)))) {
        return { location: `${baseUrl}/author/${userNicename(single.login)}/${carriedQuery(query, ['author'])}` };
      }
    }
  }
  return null;
}

/** redirect_canonical's slashed address of the front page keeps the query as sent but writes the octets of non-ASCII bytes in lower case (`%C3%A9` → `%c3%a9`), ASCII ones as sent (`%7E`). */
function lowerHighOctets(url: string): string {
  return url.replace(/%[89a-f][0-9a-f]/gi, (octet) => octet.toLowerCase());
}
