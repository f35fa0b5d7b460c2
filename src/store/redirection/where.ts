/** SQL pieces the redirection repositories share: selections and sort directions (WHERE clauses and LIKE patterns: ../where.ts). */
import { Where } from '../where.ts';
import type { Direction, Selection } from './rows.ts';

export const dir = (d: Direction) => (d === 'asc' ? 'asc' : 'desc');

export function selectionWhere<F>(sel: Selection<F>, byFilter: (f: F, w: Where) => Where, idColumn = 'id'): Where {
  const w = new Where();
  if ('ids' in sel) return w.add((p) => `${idColumn} = any(${p}::int8[])`, sel.ids);
  return byFilter(sel.filter, w);
}
