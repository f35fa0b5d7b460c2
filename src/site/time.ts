/** Site time: offsets and local wall-clock times in an IANA time zone, through Intl (no tz database of our own). */
import { LRUCache } from 'lru-cache';

// Building a formatter costs far more than using one, and shaping an archive asks for offsets
// many times per event: one formatter per zone, kept.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's formatter for one purpose (`parts` for wall-clock fields, `abbr` for its short name). */
function formatterFor(zone: string, purpose: 'parts' | 'abbr'): Intl.DateTimeFormat {
  const key = `${purpose} ${zone}`;
  let f = formatters.get(key);
  if (!f) {
    f =
      purpose === 'abbr'
        ? new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' })
        : new Intl.DateTimeFormat('en-US', {
            timeZone: zone,
            hourCycle: 'h23',
            year: 'numeric',
            month: '2-digit',
            day: '2-digit',
            hour: '2-digit',
            minute: '2-digit',
            second: '2-digit',
          });
    formatters.set(key, f);
  }
  return f;
}

const HOUR_MS = 3_600_000;

/**
 * `compute(zone, at)` kept per zone and UTC hour: `formatToParts` costs microseconds, and an archive
 * asks for a few dozen offsets per event, nearly all in a handful of hours. An hour is kept only
 * when the value at its first and last millisecond agree, so an hour with a transition in it (a
 * zone's offset changes at most once in an hour) is computed every time.
 */
function perHour<T>(compute: (zone: string, at: Date) => T): (zone: string, at: Date) => T {
  const kept = new LRUCache<string, { value: T }>({ max: 10_000 });
  return (zone, at) => {
    const hour = Math.floor(at.getTime() / HOUR_MS);
    if (!Number.isFinite(hour)) return compute(zone, at);
    const key = `${zone} ${hour}`;
    const hit = kept.get(key);
    if (hit) return hit.value;
    const first = compute(zone, new Date(hour * HOUR_MS));
    if (first !== compute(zone, new Date((hour + 1) * HOUR_MS - 1))) return compute(zone, at);
    kept.set(key, { value: first });
    return first;
  };
}

/** The zone's short name at `at` (EST, GMT+1), "UTC" for UTC as the legacy site shows it. */
export const zoneAbbr = perHour((zone: string, at: Date): string => {
  const part = formatterFor(zone, 'abbr').formatToParts(at).find((p) => p.type === 'timeZoneName');
  return part?.value === 'GMT' && zone === 'UTC' ? 'UTC' : (part?.value ?? '');
});

/** Offset from UTC in minutes of `zone` at `at`. */
export const offsetMinutes = perHour((zone: string, at: Date): number => {
  const parts = formatterFor(zone, 'parts').formatToParts(at);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60000);
});

/** The index's `gmt_offset`: hours, fractional where the zone is (5.5). */
export function gmtOffset(zone: string, at: Date): number {
  return offsetMinutes(zone, at) / 60;
}

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
