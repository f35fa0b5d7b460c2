/**
 * The translated namespaces. Each module declares its routes from the services it needs; which
 * ones are served, under which aliases, is decided by `mappings/namespaces.json`.
 */
import type { RouteDecl } from '../contract/route.ts';
import type { Services } from '../services.ts';
import { calendarRoutes } from './calendar/routes.ts';

export type NamespaceFactory = (services: Services) => RouteDecl[];

export const translators: Record<string, NamespaceFactory> = {};

translators['calendar/events/v1'] = () => calendarRoutes();
