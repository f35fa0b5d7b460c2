/** SQL pieces the repositories share: a parameterized WHERE clause and LIKE patterns. */

/** A parameterized WHERE clause under construction. */
export class Where {
  readonly parts: string[] = [];
  readonly params: unknown[];
  constructor(params: unknown[] = []) {
    this.params = params;
  }
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

/** The text as a LIKE pattern matches it literally (`\\`, `%` and `_` escaped). */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
/** A LIKE pattern for values holding the text anywhere. */
export const like = (s: string) => `%${likeLiteral(s)}%`;
/** A LIKE pattern for values that begin with the text (esc_like . '%'). */
export const likePrefix = (s: string) => `${likeLiteral(s)}%`;
