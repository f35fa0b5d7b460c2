/** SQL pieces the redirection repositories share: WHERE clauses, LIKE patterns and sort directions. */
import type { Direction, Selection } from './rows.ts';

/** A parameterized WHERE clause under construction. */
export class Where {
  readonly parts: string[] = [];
  constructor(readonly params: unknown[] = []) {}
  add(sqlWithPlaceholder: (p: string) => string, value: unknown): this {
    this.params.push(value);
    this.parts.push(sqlWithPlaceholder(`$${this.params.length}`));
    return this;
  }
  raw(sql: string): this {
    this.parts.push(sql);
    return this;
  }
  toString(): string {
    return this.parts.length ? `where ${this.parts.join(' and ')}` : '';
  }
  next(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}

export const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
export const dir = (d: Direction) => (d === 'asc' ? 'asc' : 'desc');

export function selectionWhere<F>(sel: Selection<F>, byFilter: (f: F, w: Where) => Where, idColumn = 'id'): Where {
  const w = new Where();
  if ('ids' in sel) return w.add((p) => `${idColumn} = any(${p}::int8[])`, sel.ids);
  return byFilter(sel.filter, w);
}
