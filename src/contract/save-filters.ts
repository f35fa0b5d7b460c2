/** WordPress's filters on the arguments an endpoint stores (Endpoint's `saveFilters`). */
import { isPhpList } from '../lib/php-params.ts';
import { can, type User } from '../lib/roles.ts';
import type { Endpoint } from './route.ts';

/** A filter on an argument's value as sent (a string, or the object or list a form's brackets make). */
export type SaveFilter = (value: unknown) => unknown;

/** A filter on text: other values pass as they are. */
export const onText =
  (filter: (text: string) => string): SaveFilter =>
  (v) => (typeof v === 'string' ? filter(v) : v);

/**
 * Filters on the fields of an entry (`venue[venue]=...`) or of each entry of a list of them
 * (`venue[0][venue]=...`), as a plugin inserts each entry as a post of its own; other values pass.
 */
export function onEntries(fields: Readonly<Record<string, SaveFilter>>): SaveFilter {
  const entry = (v: unknown) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const out: Record<string, unknown> = { ...v };
    for (const [key, filter] of Object.entries(fields)) if (Object.hasOwn(out, key)) out[key] = filter(out[key]);
    return out;
  };
  return (v) => {
    if (Array.isArray(v)) return v.map(entry);
    if (typeof v !== 'object' || v === null) return v;
    return isPhpList(v) ? Object.fromEntries(Object.entries(v).map(([k, item]) => [k, entry(item)])) : entry(v);
  };
}

/** The validated arguments with the values of those the endpoint filters for this caller as its filters leave them. */
export function saveFiltered(e: Pick<Endpoint, 'saveFilters'>, validated: Record<string, unknown>, user: User | null): Record<string, unknown> {
  if (!e.saveFilters || (e.saveFilters.unlessUnfilteredHtml && can(user, 'unfiltered_html'))) return validated;
  const out = { ...validated };
  for (const [name, filter] of Object.entries(e.saveFilters.args)) if (out[name] !== undefined) out[name] = filter(out[name]);
  return out;
}
