/**
 * Time limits that scale with the machine: a limit written for a quiet 2-core machine is multiplied by
 * the run's time factor, so a busy or slow machine waits longer instead of failing a test that answers
 * right. The factor is LINTEL_TEST_TIME_FACTOR when set; otherwise vitest.config.ts measures it once per
 * run (the slower of: a fixed piece of work against its time on a quiet machine, the load per core)
 * and passes it to the workers in that variable.
 */
import os from 'node:os';

const FACTOR_ENV = 'LINTEL_TEST_TIME_FACTOR';
// The median time of measure()'s work on a quiet 2-core EPYC (the machine the limits were written on).
const QUIET_WORK_MS = 12;

function measure(): number {
  const times: number[] = [];
  for (let run = 0; run < 21; run++) {
    const start = performance.now();
    const seen = new Map<number, string>();
    let h = 0;
    for (let i = 0; i < 200_000; i++) {
      h = (h * 31 + i) | 0;
      seen.set(h & 4095, String(h));
    }
    times.push(performance.now() - start);
  }
  const median = times.sort((a, b) => a - b)[10];
  const loadPerCore = os.loadavg()[0] / os.availableParallelism();
  return Math.min(10, Math.max(1, median / QUIET_WORK_MS, loadPerCore));
}

/** This run's factor, measured on first use in a process that has none yet (and recorded for its children). */
export function timeFactor(): number {
  const given = Number(process.env[FACTOR_ENV]);
  if (given > 0) return given;
  const measured = Math.round(measure() * 10) / 10;
  process.env[FACTOR_ENV] = String(measured);
  return measured;
}

/** `ms`, a limit that holds on a quiet machine, scaled to this one. */
export function scaled(ms: number): number {
  return Math.round(ms * timeFactor());
}
