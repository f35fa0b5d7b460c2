import { describe, expect, it } from 'vitest';
import { lintelRole, userOfLegacy } from './roles.ts';

describe('a legacy user as a Lintel user', () => {
  it("takes the legacy user's first role Lintel has, else subscriber", () => {
    expect(lintelRole(['tribe_manager', 'author'])).toBe('author');
    expect(lintelRole(['shop_manager'])).toBe('subscriber');
  });

  it('keeps its ID, login, e-mail and name', () => {
    expect(userOfLegacy({ id: 7, username: 'ed', email: 'ed@example.test', name: 'Ed Itor', roles: ['editor'] })).toEqual({ id: 7, login: 'ed', email: 'ed@example.test', displayName: 'Ed Itor', role: 'editor' });
  });
});
