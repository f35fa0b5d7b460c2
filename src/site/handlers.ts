/**
 * Requests to the site outside the REST prefix, tried in order until one answers: the
 * authorize-application page, then event pages, edge redirects and the legacy origin.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authorizePage } from './authorize/page.ts';
import type { EmbeddableLookup } from '../namespaces/oembed/embeddable.ts';
import type { Services } from '../services.ts';
import { callOf, clientSignal } from '../backends/backend.ts';
import { sendAnswer } from '../backends/send.ts';
import { edgeFor } from '../namespaces/redirection/edge/registry.ts';
import { isRecordPage } from '../http/record-paths.ts';
import { recordPages } from './pages/handler.ts';
import { icalFeeds, isFeed } from './pages/ical.ts';
import { CALENDAR } from '../backends/select.ts';
import { exportFiles } from '../namespaces/forms/files.ts';
import { downloadLinks } from '../namespaces/downloads/links.ts';
import { homePage } from './pages/home.ts';
import type { SiteHandler } from '../http/site-handler.ts';

/** `embeddables`: the records the event pages show (the app wires the namespaces' lookup). */
export function siteHandlers(services: Services, embeddables: EmbeddableLookup): SiteHandler[] {
  // The redirect edge answers every request that reaches it (a redirect, or a logged 404): it is last.
  const forward = services.backends.site;
  // With `site.forwardUnmatched`, what no page or redirect answers is the legacy origin's.
  // Without it, the site root is Lintel's home page (clients such as wpapi discover the API there).
  const unmatched = forward
    ? async (req: FastifyRequest, reply: FastifyReply) => {
        await sendAnswer(reply, await forward(callOf(req), clientSignal(reply)));
        return true;
      }
    : homePage(services);
  return [
    authorizePage(services),
    calendarOnOrigin(services),
    icalFeeds(services),
    recordPages(services, embeddables),
    exportFiles(services),
    downloadLinks(services),
    edgeFor(services, { unmatched }).handler,
  ];
}

/** The calendar's pages and iCal feeds follow the calendar's mode: while the origin answers the calendar, they are the origin's. */
function calendarOnOrigin(services: Services): SiteHandler {
  return async (req, reply, pathname, query) => {
    if (!(isFeed(pathname, query) || isRecordPage(pathname)) || services.backends.forRoute(`/${CALENDAR}`)?.answeredBy !== 'legacy') return false;
    await sendAnswer(reply, await services.backends.pages(callOf(req), clientSignal(reply)));
    return true;
  };
}
