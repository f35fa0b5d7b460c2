/** WordPress's filters on the arguments an endpoint stores (Endpoint's `saveFilters`). */
import { can, type User } from '../lib/roles.ts';
import type { Endpoint } from './route.ts';

/** The validated arguments with the text of those the endpoint filters for this caller as its filters leave it. */
export function saveFiltered(e: Pick<Endpoint, 'saveFilters'>, validated: Record<string, unknown>, user: User | null): Record<string, unknown> {
  if (!e.saveFilters || (e.saveFilters.unlessUnfilteredHtml && can(user, 'unfiltered_html'))) return validated;
  const out = { ...validated };
  for (const [name, filter] of Object.entries(e.saveFilters.args)) {
    const v = out[name];
    if (typeof v === 'string') out[name] = filter(v);
  }
  return out;
}
