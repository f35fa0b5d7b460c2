/**
 * The one edge of a running app (its loaded rules and write queue are shared by every request).
 * Keyed by the store: the route factories and the site handlers get different services objects
 * of the same app, and a rule write must invalidate the index the site serves from.
 */
import type { Services } from '../../../services.ts';
import { createEdge, type Edge, type EdgeOptions } from './handler.ts';

const edges = new WeakMap<Services['store'], Edge>();

export function edgeFor(services: Services, opts?: EdgeOptions): Edge {
  let e = edges.get(services.store);
  if (!e) edges.set(services.store, (e = createEdge(services, opts)));
  return e;
}
