/**
 * Builds the route table: the site index and batch first (as WordPress registers them), then each
 * namespace that `mappings/` says Lintel translates (or shadows), under its own name and its aliases.
 */
import { RouteTable } from './contract/router.ts';
import type { RouteDecl } from './contract/route.ts';
import { batchRoutes } from './namespaces/batch/batch.ts';
import { translators } from './namespaces/index.ts';
import { LINTEL_NAMESPACE, shadowRoutes } from './namespaces/lintel/shadow.ts';
import { namespaceIndexRoute, siteIndexRoutes } from './namespaces/root/site-index.ts';
import type { Services } from './services.ts';

export function buildRouteTable(services: Omit<Services, 'table'>, table = new RouteTable()): RouteTable {
  const all: Services = { ...services, table };
  for (const r of siteIndexRoutes(table, services.backends.index)) table.add(r);
  for (const r of batchRoutes(all)) table.add(r);
  // Lintel's own namespace: the shadow report, when some namespace is shadowed.
  if (Object.values(services.backends.modes()).some((m) => m === 'shadow')) {
    table.add(namespaceIndexRoute(table, LINTEL_NAMESPACE));
    for (const r of shadowRoutes()) table.add(r);
  }
  for (const [namespace, mapping] of Object.entries(services.mappings.namespaces)) {
    const factory = translators[namespace];
    // Every namespace Lintel can translate is in the table whatever its mode now (shadowed ones are
    // translated too, and `lintel mode` may switch a forwarded one to translate); while a namespace is
    // forwarded its requests never reach the table (`Backends.forRoute`), and the index leaves it out.
    if (!factory) continue;
    const routes: RouteDecl[] = factory(all).map((r) => (mapping.batch ? r : refuseBatch(r)));
    for (const name of [namespace, ...mapping.aliases]) {
      const alias = name === namespace ? undefined : name;
      table.add(namespaceIndexRoute(table, name));
      for (const r of routes) table.add(r, alias);
    }
  }
  return table;
}

/** `batch: false` in mappings: the namespace's routes refuse batch/v1, as on the legacy site. */
function refuseBatch(r: RouteDecl): RouteDecl {
  return { ...r, endpoints: r.endpoints.map((e) => ({ ...e, allowBatch: false })) };
}
