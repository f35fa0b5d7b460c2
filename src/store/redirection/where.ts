/** SQL pieces the redirection repositories share: selections and sort directions (WHERE clauses and LIKE patterns: ../where.ts). */
import { Where } from '../where.ts';
import type { Direction, Selection } from './rows.ts';

export const dir = (d: Direction) => (d === 'asc' ? 'asc' : 'desc');

/**
 * A text column as the legacy tables sort it (MySQL's utf8mb4_unicode_520_ci: case and accents
 * equal, punctuation before digits before letters; migration 084). Equal keys are ties, which the
 * legacy site lists in ID order whatever the direction unless an index of the column is read.
 */
export const legacyOrder = (column: string) => `mysql_ci_key(${column}) collate "C"`;

export function selectionWhere<F>(sel: Selection<F>, byFilter: (f: F, w: Where) => Where, idColumn = 'id'): Where {
  const w = new Where();
  if ('ids' in sel) return w.add((p) => `${idColumn} = any(${p}::int8[])`, sel.ids);
  return byFilter(sel.filter, w);
}
