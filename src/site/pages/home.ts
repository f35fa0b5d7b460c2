/**
 * The site root when no legacy origin serves it: a 200 page naming the site and where its API
 * is (the legacy site answers its front page there, and API clients such as wpapi discover the
 * REST root from that answer's `Link` header, which every site answer carries).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../services.ts';
import { escapeHtml } from '../../lib/html.ts';

export function homePage(services: Pick<Services, 'config' | 'store'>) {
  const { baseUrl, restPrefix } = services.config;
  return async (req: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    const q = req.url.indexOf('?');
    if ((q < 0 ? req.url : req.url.slice(0, q)) !== '/' || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
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
