import { describe, expect, it } from 'vitest';
import type { User } from '../lib/roles.ts';
import { saveFiltered } from './save-filters.ts';

const user = (role: User['role']): User => ({ id: 1, login: role, email: '', displayName: role, role });
const upper = (s: string) => s.toUpperCase();

describe('saveFiltered', () => {
  it("runs an endpoint's filters on the text of the arguments it names, and leaves the others and non-text values", () => {
    const e = { saveFilters: { args: { name: upper, description: upper } } };
    expect(saveFiltered(e, { name: 'a', description: ['b'], slug: 'c' }, null)).toEqual({ name: 'A', description: ['b'], slug: 'c' });
  });

  it("skips kses_init's filters for a caller with unfiltered_html (editors, administrators) only", () => {
    const e = { saveFilters: { args: { title: upper }, unlessUnfilteredHtml: true as const } };
    expect(saveFiltered(e, { title: 't' }, user('editor')).title).toBe('t');
    expect(saveFiltered(e, { title: 't' }, user('administrator')).title).toBe('t');
    expect(saveFiltered(e, { title: 't' }, user('author')).title).toBe('T');
    expect(saveFiltered(e, { title: 't' }, user('contributor')).title).toBe('T');
  });
});
