/** `redirection/v1`: redirect, group, log, setting and plugin routes (import/export live in `io/`). */
import type { RouteDecl } from '../../contract/route.ts';
import type { Services } from '../../services.ts';
import { groupRoutes } from './groups.ts';
import { logRoutes } from './logs.ts';
import { pluginRoutes } from './plugin.ts';
import { redirectRoutes } from './redirects.ts';
import { settingRoutes } from './settings.ts';

export function redirectionRoutes(services: Services): RouteDecl[] {
  return [...redirectRoutes(services), ...groupRoutes(services), ...logRoutes(), ...settingRoutes(services), ...pluginRoutes()];
}
