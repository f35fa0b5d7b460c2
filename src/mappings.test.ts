import { describe, expect, it } from 'vitest';
import { mappingsDir } from '../test/support/mappings.ts';
import { loadMappings } from './mappings.ts';

function load(namespaces: Record<string, object>, site?: object) {
  const m = mappingsDir(namespaces, site);
  try {
    return loadMappings(m.dir);
  } finally {
    m.remove();
  }
}

describe('mappings/namespaces.json', () => {
  it('reads forward and shadow entries, with shadow defaults and the site switch', () => {
    const m = load({ 'history/v1': { mode: 'forward', upstream: 'simple-history/v1' }, 'calendar/events/v1': { mode: 'shadow' } }, { forwardUnmatched: true });
    expect(m.namespaces['history/v1']).toMatchObject({ mode: 'forward', upstream: 'simple-history/v1', aliases: [] });
    expect(m.namespaces['calendar/events/v1']).toMatchObject({ mode: 'shadow', primary: 'legacy', sample: 1 });
    expect(m.site).toEqual({ forwardUnmatched: true });
    expect(load({}).site).toEqual({ forwardUnmatched: false });
  });

  it('refuses what it cannot follow, naming the entry and the reason', () => {
    expect(() => load({ 'history/v1': { mode: 'proxy' } })).toThrow(/namespaces\.history\/v1\.mode/);
    expect(() => load({ 'history/v1': { mode: 'forward', primary: 'lintel' } })).toThrow(/primary is only read in "shadow" mode/);
    expect(() => load({ 'history/v1': { mode: 'shadow', sample: 2 } })).toThrow(/namespaces\.history\/v1\.sample/);
    expect(() => load({ 'history/v1': { mode: 'forward', upstream: 'Simple History' } })).toThrow(/expected a namespace name/);
    expect(() => load({}, { forwardUnmatched: 'yes' })).toThrow(/site\.forwardUnmatched/);
  });

  it('loads the shipped mappings', () => {
    const shipped = loadMappings(new URL('../mappings', import.meta.url).pathname);
    expect(shipped.namespaces['calendar/events/v1'].mode).toBe('translate');
  });
});
