/**
 * The route-table-driven fuzz suite: a few thousand seeded requests over every declared endpoint,
 * the batch route and the site's pages (see requests.ts); none may answer a 5xx of its own (a forwarded
 * legacy 500 is the legacy site's answer), leak a stack trace, break the error shape, or harm the app. `npm run fuzz` runs the same generators much longer.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import type { LegacyOrigin } from '../support/legacy-origin.ts';
import { asCurl, fuzz, fuzzApp } from './harness.ts';
import { scaled } from '../support/time.ts';

const RUNS = Number(process.env.LINTEL_FUZZ_RUNS ?? 2500);
const SEED = Number(process.env.LINTEL_FUZZ_SEED ?? 20261123);

let app: TestApp;
let admin: string;
let origin: LegacyOrigin;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ app, admin, origin, close } = await fuzzApp());
});
afterAll(() => close?.());

it(`answers ${RUNS} generated requests without a 5xx, a leak or a broken error shape`, { timeout: scaled(120_000) }, async () => {
  const report = await fuzz({ app, admin, origin, runs: RUNS, seed: SEED });
  expect(report.requests).toBe(RUNS);
  const shown = report.failures.slice(0, 5).map((f) => `${f.problem} (${f.status})\n  ${asCurl(f)}\n  ${f.body}`);
  expect(shown, `seed ${SEED}`).toEqual([]);
});
