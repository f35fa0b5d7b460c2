/** `redirection/v1`: redirect, group, log, setting and plugin routes (import/export live in `io/`). */
import type { RouteDecl } from '../../contract/route.ts';
import { groupRoutes } from './groups.ts';
import { logRoutes } from './logs.ts';
import { pluginRoutes } from './plugin.ts';
import { redirectRoutes } from './redirects.ts';
import { settingRoutes } from './settings.ts';

export function redirectionRoutes(): RouteDecl[] {
  return [...redirectRoutes(), ...groupRoutes(), ...logRoutes(), ...settingRoutes(), ...pluginRoutes()];
}
