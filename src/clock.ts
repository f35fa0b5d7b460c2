/** "Now", pinnable for tests and the conformance runner (LINTEL_CLOCK); a pinned clock still ticks. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function pinnedClock(iso: string): Clock {
  const offset = Date.parse(iso) - Date.now();
  return { now: () => new Date(Date.now() + offset) };
}

/** A pinned clock that can be moved (the conformance runner replays each capture at its own instant). */
export function adjustableClock(iso: string): Clock & { set(iso: string): void } {
  let offset = Date.parse(iso) - Date.now();
  return {
    now: () => new Date(Date.now() + offset),
    set(at: string) {
      offset = Date.parse(at) - Date.now();
    },
  };
}
