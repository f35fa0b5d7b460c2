import { describe, expect, it } from 'vitest';
import type { User } from '../lib/roles.ts';
import { onEntries, onText, saveFiltered } from './save-filters.ts';

const user = (role: User['role']): User => ({ id: 1, login: role, email: '', displayName: role, role });
const upper = onText((s) => s.toUpperCase());

describe('saveFiltered', () => {
  it("runs an endpoint's filters on the arguments it names, and leaves the others; a text filter leaves non-text values", () => {
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

describe('onEntries', () => {
  const venue = onEntries({ venue: upper });
  it('filters the named fields of one entry or of each entry of a list, and nothing else', () => {
    expect(venue({ venue: 'v', city: 'c' })).toEqual({ venue: 'V', city: 'c' });
    expect(venue({ 0: { venue: 'a' }, 1: { venue: 'b', id: 3 } })).toEqual({ 0: { venue: 'A' }, 1: { venue: 'B', id: 3 } });
    expect(venue([{ venue: 'a' }, '7'])).toEqual([{ venue: 'A' }, '7']);
    expect(venue('7,8')).toBe('7,8');
  });
});
