/**
 * Requests to the site outside the REST prefix, tried in order until one answers: the
 * authorize-application page, then (later) event pages, edge redirects and the legacy origin.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authorizePage } from '../auth/authorize-page.ts';
import type { Params } from '../contract/php-params.ts';
import { siteEmbeddables } from '../namespaces/oembed/embeddable.ts';
import type { Services } from '../services.ts';
import { edgeFor } from '../edge/handler.ts';
import { recordPages } from './pages/handler.ts';

/** Answers the request and returns true, or returns false to let the next handler try. */
export type SiteHandler = (req: FastifyRequest, reply: FastifyReply, pathname: string, query: Params) => Promise<boolean>;

export function siteHandlers(services: Services): SiteHandler[] {
  // The redirect edge answers every request that reaches it (a redirect, or a logged 404): it is last.
  return [authorizePage(services), recordPages(services, siteEmbeddables), edgeFor(services).handler];
}
