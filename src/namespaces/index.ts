/**
 * The translated namespaces. Each module declares its routes from the services it needs; which
 * ones are served, under which aliases, is decided by `mappings/namespaces.json`.
 */
import type { RouteDecl } from '../contract/route.ts';
import type { Services } from '../services.ts';
import { blocksRoutes } from './blocks/routes.ts';
import { formsSubmissionsRoutes } from './forms/submissions.ts';
import { formsViewsRoutes } from './forms/views.ts';
import { downloadsRoutes } from './downloads/routes.ts';
import { widgetsAiRoutes } from './widgets-ai/routes.ts';
import { calendarRoutes } from './calendar/routes.ts';
import { historyRoutes } from './history/routes.ts';
import { calendarEmbeddables } from './oembed/calendar-records.ts';
import type { EmbeddableLookup } from './oembed/embeddable.ts';
import { oembedNamespace } from './oembed/routes.ts';
import { ioRoutes } from './redirection/io/routes.ts';
import { redirectionRoutes } from './redirection/index.ts';

/** The one wiring point for oEmbed and the record pages: the calendar's events, venues and organizers. */
export const siteEmbeddables: EmbeddableLookup = calendarEmbeddables;

export type NamespaceFactory = (services: Services) => RouteDecl[];

export const translators: Record<string, NamespaceFactory> = {};
translators['calendar/events/v1'] = calendarRoutes;
// Import/export routes live apart from the management routes (io/); the factory takes both.
translators['redirection/v1'] = (services) => [...redirectionRoutes(services), ...ioRoutes(services)];
translators['oembed/1.0'] = oembedNamespace(siteEmbeddables);
translators['blocks/v3'] = (services) => blocksRoutes(services);
translators['forms-submissions'] = (services) => formsSubmissionsRoutes(services);
translators['forms-views'] = () => formsViewsRoutes();
translators.downloads = (services) => downloadsRoutes(services);
translators['widgets/ai/v1'] = (services) => widgetsAiRoutes(services);
translators['history/v1'] = (services) => historyRoutes(services);

/**
 * The change-feed topics (migration 070) that a namespace's anonymous answers read: those
 * answers may be served from the response cache until a write to one of them commits. A
 * namespace absent here (private reads, or tables the feed does not watch) is never cached;
 * '' is the site index.
 */
export const publicTopics: Record<string, readonly string[]> = {
  // `modes`: a namespace switched with `lintel mode` changes who answers (and the index's routes).
  '': ['options', 'modes'],
  'calendar/events/v1': ['calendar', 'options', 'users', 'modes'],
  // oembed/1.0 is left out: every embed answer draws a new secret, as on the legacy site.
};
