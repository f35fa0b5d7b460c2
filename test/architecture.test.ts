/**
 * The house's floors (scripts/floors.json, docs/architecture.md): every import in `src/` points to
 * its own floor or below, save the exceptions the plan lists and the architecture page justifies.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { excepted, floorOf, imports, measure, plan } from '../scripts/floors.ts';

const m = measure();
const page = readFileSync(new URL('../docs/architecture.md', import.meta.url), 'utf8');

describe('floors', () => {
  it('finds the imports of every kind', () => {
    const all = imports();
    expect(all.some((i) => i.file === 'app.ts' && i.target === 'services.ts')).toBe(true);
    expect(all.some((i) => i.typeOnly)).toBe(true);
  });

  it('counts an import to a higher floor as an arrow running up, and rooms importing each other as a pair', () => {
    const t = measure([
      { file: 'store/users.ts', target: 'auth/basic.ts', typeOnly: false },
      { file: 'auth/basic.ts', target: 'store/users.ts', typeOnly: false },
      { file: 'namespaces/forms/model.ts', target: 'namespaces/redirection/io/writers.ts', typeOnly: false },
    ]);
    expect(t.up.map((a) => `${a.from} → ${a.to}`)).toEqual(['store → auth']);
    expect(t.mutual).toEqual([['auth', 'store']]);
    expect(t.knots).toEqual([['auth', 'store']]);
    expect(t.borrowings).toHaveLength(1);
  });

  it('puts every room of src/ on one floor', () => {
    expect(m.rooms.filter((r) => floorOf(r) < 0)).toEqual([]);
    const listed = plan.floors.flat();
    expect(listed.filter((r, i) => listed.indexOf(r) !== i)).toEqual([]);
  });

  it('lets every arrow point down, save the justified exceptions', () => {
    const unjustified = m.up.filter((a) => !excepted(a)).flatMap((a) => a.via.map((i) => `${i.file} → ${i.target}${i.typeOnly ? ' (type)' : ''}`));
    expect(unjustified).toEqual([]);
  });

  it('lists only exceptions still needed, each justified on the architecture page', () => {
    for (const e of plan.exceptions) {
      expect(m.up.some((a) => a.from === e.from && a.to === e.to), `${e.from} → ${e.to} no longer runs up`).toBe(true);
      expect(page, `docs/architecture.md names ${e.from} → ${e.to}`).toContain(`${e.from}\` → \`${e.to}`);
    }
  });

  it('has no namespace borrowing from another', () => {
    expect(m.borrowings.map((i) => `${i.file} → ${i.target}`)).toEqual([]);
  });

  it('names every room on the architecture page', () => {
    for (const r of m.rooms) expect(page, r).toContain(`\`${r}`);
  });
});
