/**
 * The forwarded mode of the conformance runner: history/v1 forwarded (as `simple-history/v1`) to
 * the recorded legacy origin, so its captures are served through Lintel's forward backend and
 * renaming; each must come back as recorded (outside what DEVIATIONS.md allows).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { groupOf, loadCaptures, runConformance, type Report } from './lib.ts';
import { scaled } from '../support/time.ts';

// The forwarded namespace's captures and the recorded index (042): the rest is Lintel's own and covered by conformance.test.ts.
const captures = loadCaptures().filter((c) => c.seq === '042' || groupOf(c, ['history/v1']) === 'history/v1');

let report: Report;
beforeAll(async () => {
  report = await runConformance({ captures, forward: ['history/v1'] });
}, scaled(120_000));

describe('conformance with history/v1 forwarded to the recorded legacy origin', () => {
  it('serves every history/v1 capture', () => {
    expect(report.outcomes.filter((o) => o.group === 'history/v1').length).toBeGreaterThan(40);
    expect(report.outcomes.some((o) => o.verdict === 'not served')).toBe(false);
  });

  it.each(captures.map((c) => [c.file]))('%s differs only where DEVIATIONS.md allows', (file) => {
    expect(report.outcomes.find((o) => o.capture.file === file)?.unexpected).toEqual([]);
  });
});
