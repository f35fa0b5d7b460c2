/**
 * The recorded legacy answers, replayed: what must hold now, and per namespace a floor of matched
 * captures (floors.json) that may only rise.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { diffJson } from '../../src/compare/diff.ts';
import { countByGroup, countIndexRoutes, loadCaptures, loadDeviations, runConformance, type Report } from './lib.ts';

const floors = JSON.parse(readFileSync(new URL('./floors.json', import.meta.url), 'utf8')) as {
  captures: Record<string, number>;
  index: Record<string, number>;
};

let report: Report;
beforeAll(async () => {
  report = await runConformance();
}, 120_000);

const outcome = (seq: string) => report.outcomes.find((o) => o.capture.seq === seq)!;

describe('conformance with the recorded legacy site', () => {
  it('replays every capture, the seed first', () => {
    expect(report.outcomes).toHaveLength(loadCaptures().length);
    expect(report.outcomes.slice(0, 41).map((o) => Number(o.capture.seq))).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
  });

  it('serves the site index with the recorded top-level keys', () => {
    expect(report.indexKeys.actual).toEqual(report.indexKeys.expected);
    expect(report.indexRoutes.find((r) => r.pattern === '/')?.differences).toEqual([]);
  });

  it('answers an unknown route with rest_no_route exactly as recorded (050)', () => {
    expect(outcome('050')).toMatchObject({ group: 'core', verdict: 'matched' });
  });

  it('counts ?rest_route= (044) under the namespace of its route', () => {
    expect(outcome('044').group).toBe('calendar/events/v1');
  });

  it('serves history/v1 (translated), and counts listed deviations as deviations', () => {
    const history = report.outcomes.filter((o) => o.group === 'history/v1');
    expect(history.length).toBeGreaterThan(0);
    expect(history.some((o) => o.verdict === 'not served')).toBe(false);
    expect(loadDeviations().get('042')).toContain('core-namespaces');
    expect(outcome('042').verdict).toBe('deviation');
  });

  it.each(Object.entries(floors.captures))('holds the floor of matched captures for %s (%i)', (group, floor) => {
    expect(countByGroup(report.outcomes).get(group)?.matched ?? 0).toBeGreaterThanOrEqual(floor);
  });

  it.each(Object.entries(floors.index))('holds the floor of matched index routes for %s (%i)', (group, floor) => {
    expect(countIndexRoutes(report.indexRoutes).get(group)?.matched ?? 0).toBeGreaterThanOrEqual(floor);
  });
});

describe('normalising what legitimately differs', () => {
  const opts = { aliases: { 'tribe/events/v1': 'calendar/events/v1' } };

  it('reads antispambot-obfuscated emails as the email, and nothing else as entities', () => {
    expect(diffJson({ email: '&#105;nfo&#64;ex&#x61;mple.com' }, { email: 'info@example.com' }, opts)).toEqual([]);
    expect(diffJson({ cost: '$20 &#8211; $40' }, { cost: '$20 – $40' }, opts)).toHaveLength(1);
  });

  it('ignores the oEmbed secret and the few seconds of a moving timestamp, not more', () => {
    const html = (s: string) => `<blockquote data-secret="${s}"></blockquote><iframe src="/embed/#?secret=${s}">`;
    expect(diffJson({ html: html('abc123') }, { html: html('zzz999') }, opts)).toEqual([]);
    expect(diffJson({ date: '2026-11-21 07:06:34' }, { date: '2026-11-21 07:06:36' }, opts)).toEqual([]);
    expect(diffJson({ date: '2026-11-21 07:06:34' }, { date: '2026-11-21 08:06:34' }, opts)).toHaveLength(1);
    expect(diffJson({ start_date: '2026-11-21 07:06:34' }, { start_date: '2026-11-21 07:06:35' }, opts)).toHaveLength(1);
  });

  it('compares JSON by value with key order ignored, and names each difference by its path', () => {
    expect(diffJson({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, opts)).toEqual([]);
    expect(diffJson({ a: { 'x-y': [1] }, href: 'http://h/wp-json/tribe/events/v1/events' }, { a: { 'x-y': [2] }, c: 3, href: 'http://h/wp-json/calendar/events/v1/events' }, opts)).toEqual([
      { path: '$.a["x-y"][0]', expected: 1, actual: 2 },
      { path: '$.c', expected: undefined, actual: 3 },
    ]);
  });
});
