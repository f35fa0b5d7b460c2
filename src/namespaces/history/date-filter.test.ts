import { describe, expect, it } from 'vitest';
import { Transients } from './date-filter.ts';

describe('Transients', () => {
  it('keeps a value for an hour from when it was computed, expiry included, then computes it again', async () => {
    const kept = new Transients();
    let computed = 0;
    const value = () => Promise.resolve(++computed);
    const at = (iso: string) => new Date(iso);
    expect(await kept.get('k', at('2026-11-27T05:00:00Z'), value)).toBe(1);
    expect(await kept.get('k', at('2026-11-27T06:00:00Z'), value)).toBe(1);
    expect(await kept.get('other', at('2026-11-27T06:00:00Z'), value)).toBe(2);
    expect(await kept.get('k', at('2026-11-27T06:00:00.001Z'), value)).toBe(3);
    expect(await kept.get('k', at('2026-11-27T06:30:00Z'), value)).toBe(3);
  });
});
