/**
 * The forwarded mode of the conformance runner: history/v1 forwarded (as `simple-history/v1`) to
 * the recorded legacy origin, so its captures are served through Lintel's forward backend and
 * renaming, and count against floors of their own.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { countByGroup, countIndexRoutes, groupOf, loadCaptures, runConformance, type Report } from './lib.ts';

const floors = JSON.parse(readFileSync(new URL('./floors.json', import.meta.url), 'utf8')) as {
  forwarded: { captures: Record<string, number>; index: Record<string, number> };
};

let report: Report;
beforeAll(async () => {
  // The forwarded namespace's captures and the recorded index (042): the rest is Lintel's own and covered by conformance.test.ts.
  const captures = loadCaptures().filter((c) => c.seq === '042' || groupOf(c, ['history/v1']) === 'history/v1');
  report = await runConformance({ captures, forward: ['history/v1'] });
}, 120_000);

describe('conformance with history/v1 forwarded to the recorded legacy origin', () => {
  it('serves every history/v1 capture', () => {
    const history = report.outcomes.filter((o) => o.group === 'history/v1');
    expect(history.length).toBeGreaterThan(40);
    expect(history.some((o) => o.verdict === 'not served')).toBe(false);
  });

  it.each(Object.entries(floors.forwarded.captures))('holds the floor of matched captures for %s (%i)', (group, floor) => {
    expect(countByGroup(report.outcomes).get(group)?.matched ?? 0).toBeGreaterThanOrEqual(floor);
  });

  it.each(Object.entries(floors.forwarded.index))('holds the floor of matched index routes for %s (%i)', (group, floor) => {
    expect(countIndexRoutes(report.indexRoutes).get(group)?.matched ?? 0).toBeGreaterThanOrEqual(floor);
  });
});
