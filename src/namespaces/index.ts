/**
 * The translated namespaces. Each module declares its routes from the services it needs; which
 * ones are served, under which aliases, is decided by `mappings/namespaces.json`.
 */
import type { RouteDecl } from '../contract/route.ts';
import type { Services } from '../services.ts';
import { calendarRoutes } from './calendar/routes.ts';
import { siteEmbeddables } from './oembed/embeddable.ts';
import { oembedNamespace } from './oembed/routes.ts';
import { ioRoutes } from './redirection/io/routes.ts';
import { redirectionRoutes } from './redirection/index.ts';

export type NamespaceFactory = (services: Services) => RouteDecl[];

export const translators: Record<string, NamespaceFactory> = {};
translators['calendar/events/v1'] = (services) => calendarRoutes(services);
// Import/export routes live apart from the management routes (io/); the factory takes both.
translators['redirection/v1'] = (services) => [...redirectionRoutes(services), ...ioRoutes(services)];
translators['oembed/1.0'] = oembedNamespace(siteEmbeddables);
