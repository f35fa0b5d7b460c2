/** The answers the edge sends itself, as the plugin's front end sends them. */
import type { FastifyReply } from 'fastify';
import { NO_CACHE } from '../../../http/shape.ts';
import { wpSanitizeRedirect } from '../../../lib/esc-url.ts';
import { escapeHtml } from '../../../lib/html.ts';

export const HTML = 'text/html; charset=UTF-8';

export function notFoundHtml(siteName: string): string {
  const esc = escapeHtml(siteName);
  return `<!DOCTYPE html>\n<html lang="en-US">\n<head>\n<meta charset="UTF-8" />\n<title>Page not found &#8211; ${esc}</title>\n</head>\n<body>\n<h1>Page not found</h1>\n</body>\n</html>\n`;
}

/**
 * The plugin's cache headers for a redirect (its `wp_redirect` filter: also WordPress's own canonical
 * redirects): only a 301 gets them, `redirect_cache` hours from now
 * (no headers for 0, WordPress's no-cache headers for -1).
 */
export function redirectCache(code: number, hours: number, now: Date): Record<string, string> {
  if (code !== 301 || hours === 0) return {};
  if (hours < 0) return NO_CACHE;
  return { Expires: new Date(now.getTime() + hours * 3_600_000).toUTCString(), 'Cache-Control': `max-age=${hours * 3600}` };
}

/** A `url` or `random` action: an empty body, the target in Location as wp_redirect sanitizes it (a regex rule's target holds the decoded request). */
export async function sendRedirect(reply: FastifyReply, code: number, target: string, cache: { hours: number; now: Date }): Promise<void> {
  await reply.code(code).headers(redirectCache(code, cache.hours, cache.now)).header('X-Redirect-By', 'redirection').header('Location', wpSanitizeRedirect(target)).type(HTML).send('');
}

/** A page WordPress renders: its name and the headers every such page carries (calendarDiscovery). */
export interface PageSite {
  name: string;
  headers: Record<string, string>;
}

/** An `error` action: the not-found page under the rule's code, marked as the plugin's answer; WordPress's error pages are never cached. */
export async function sendErrorPage(reply: FastifyReply, code: number, site: PageSite): Promise<void> {
  await reply.code(code).headers(NO_CACHE).header('X-Redirect-By', 'redirection').headers(site.headers).type(HTML).send(notFoundHtml(site.name));
}

/** A request nothing answered: WordPress's 404, with its no-cache headers. */
export async function sendNotFound(reply: FastifyReply, site: PageSite): Promise<void> {
  await reply.code(404).headers(NO_CACHE).headers(site.headers).type(HTML).send(notFoundHtml(site.name));
}
