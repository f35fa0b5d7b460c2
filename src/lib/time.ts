/**
 * Site time: offsets and local wall-clock times in an IANA time zone, through Intl (no tz database
 * of our own), the store's `YYYY-MM-DD HH:MM:SS` form and PHP's `date()` formats.
 */
import { boundedLru } from './lru.ts';
import { tzlib_get_ical_block, tzlib_get_timezones } from 'timezones-ical-library';

/**
 * The fixed-offset zones the legacy site takes besides IANA names, with the abbreviation PHP's
 * `format('T')` (or, for `UTC±h`, The Events Calendar) shows: WordPress's `UTC+2`/`UTC-5:30`
 * (shown as sent), PHP's `GMT+0100`/`+2`/`+05:30` (shown `GMT+0100`), and military letters
 * (A–I +1…+9, K–M +10…+12, N–Y −1…−12, Z 0; shown as the capital letter).
 */
function fixedZone(zone: string): { minutes: number; abbr: string } | null {
  const offset = /^UTC([+-])(\d{1,2})(?::(\d\d))?$/.exec(zone) ?? /^(?:GMT)?([+-])(\d{1,2})(?::?(\d\d))?$/.exec(zone);
  if (offset) {
    const minutes = (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3] ?? 0));
    return { minutes, abbr: zone.startsWith('UTC') ? zone : `GMT${offsetText(minutes, '')}` };
  }
  if (!/^[a-ik-z]$/i.test(zone)) return null;
  const letter = zone.toUpperCase();
  const n = letter.charCodeAt(0) - 64; // A = 1
  const hours = letter === 'Z' ? 0 : n <= 9 ? n : n <= 13 ? n - 1 : 13 - n;
  return { minutes: hours * 60, abbr: letter };
}

/** The name Intl computes `zone` with: the zone itself, or `±HH:MM` for a fixed-offset form. */
export function intlZone(zone: string): string {
  const fixed = fixedZone(zone);
  return fixed ? offsetText(fixed.minutes) : zone;
}

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
        ? new Intl.DateTimeFormat('en-US', { timeZone: intlZone(zone), timeZoneName: 'short' })
        : new Intl.DateTimeFormat('en-US', {
            timeZone: intlZone(zone),
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
  const kept = boundedLru<string, { value: T }>({ max: 10_000 });
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

/**
 * The zone's abbreviation at `at` as PHP's `format('T')` writes it (EST, CEST, JST, `+04`): Intl's
 * own short names (the US zones', GMT) agree with the zone database; for the zones Intl names
 * `GMT+1`, the zone database's name for the offset (see `zoneName`).
 */
export const zoneAbbr = perHour((zone: string, at: Date): string => {
  const fixed = fixedZone(zone);
  if (fixed) return fixed.abbr;
  if (zone === 'UTC') return 'UTC';
  const intl = formatterFor(zone, 'abbr').formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? '';
  return /^GMT./.test(intl) ? zoneName(zone, offsetMinutes(zone, at)) : intl;
});

// The zone database's abbreviations (EST, BST, JST, +04), which Intl does not give (it names most
// zones GMT+n): read from timezones-ical-library's current VTIMEZONE rules, by the offset they switch to.
const zoneNames = new Map<string, Map<number, string>>();
let listed: Set<string> | null = null;
const libraryZones = () => (listed ??= new Set(tzlib_get_timezones() as string[]));

function namesOf(zone: string): Map<number, string> {
  let names = zoneNames.get(zone);
  if (names) return names;
  names = new Map();
  // The library knows zones by their exact names (Intl takes `europe/paris` too), and writes to the
  // console about a zone it does not know: it is asked only about those it lists.
  const known = libraryZones().has(zone) ? zone : canonicalZone(zone);
  const block = known && libraryZones().has(known) ? tzlib_get_ical_block(known) : '';
  for (const part of (Array.isArray(block) ? block[0] ?? '' : '').split(/BEGIN:(?:STANDARD|DAYLIGHT)\r\n/).slice(1)) {
    const name = /^TZNAME:(.*)$/m.exec(part)?.[1]?.trim();
    const to = /^TZOFFSETTO:([+-])(\d\d)(\d\d)/m.exec(part);
    if (name && to) names.set((to[1] === '-' ? -1 : 1) * (Number(to[2]) * 60 + Number(to[3])), name);
  }
  zoneNames.set(zone, names);
  return names;
}

function canonicalZone(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: intlZone(zone) }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The zone's abbreviation for an offset; where the zone database has none, the offset as it writes it (`+03`, `+0530`). */
export function zoneName(zone: string, offset: number): string {
  const known = namesOf(zone).get(offset);
  if (known) return known;
  const digits = offsetText(offset, '');
  return digits.endsWith('00') ? digits.slice(0, 3) : digits;
}

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
    new Intl.DateTimeFormat('en-US', { timeZone: intlZone(zone) });
    return true;
  } catch {
    return false;
  }
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `YYYY-MM-DD HH:MM:SS` of a Date read as UTC fields. */
export function fmt(d: Date): string {
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** A wall time (as a Date whose UTC fields hold it) in `zone` → the instant. */
export function wallToInstant(wall: Date, zone: string): Date {
  let t = wall.getTime() - offsetMinutes(zone, wall) * 60000;
  t = wall.getTime() - offsetMinutes(zone, new Date(t)) * 60000;
  return new Date(t);
}

export function instantToWall(at: Date, zone: string): Date {
  return new Date(at.getTime() + offsetMinutes(zone, at) * 60000);
}

/** An offset in minutes as `+HH:MM`, or `+HHMM` with no separator (iCalendar). */
export function offsetText(minutes: number, separator = ':'): string {
  const a = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(a / 60))}${separator}${pad(a % 60)}`;
}

/** ISO 8601 of a wall time (`YYYY-MM-DD HH:MM:SS`, or with a `T`) in `zone`, with the zone's offset then: as JSON-LD and the record pages show dates. */
export function isoWithOffset(wall: string, zone: string): string {
  const t = wall.replace(' ', 'T');
  return `${t}${offsetText(offsetMinutes(zone, wallToInstant(new Date(`${t}Z`), zone)))}`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** PHP `date()` of `at` in the site's time zone, for the format characters WordPress date/time options use. */
export function phpDate(format: string, at: Date, zone: string): string {
  const local = instantToWall(at, zone);
  const Y = local.getUTCFullYear(), m = local.getUTCMonth(), d = local.getUTCDate(), w = local.getUTCDay();
  const H = local.getUTCHours(), i = local.getUTCMinutes(), s = local.getUTCSeconds();
  const h12 = H % 12 || 12;
  const out: string[] = [];
  for (let k = 0; k < format.length; k++) {
    const c = format[k];
    switch (c) {
      case 'd': out.push(pad(d)); break;
      case 'j': out.push(String(d)); break;
      case 'D': out.push(DAYS[w].slice(0, 3)); break;
      case 'l': out.push(DAYS[w]); break;
      case 'S': out.push(d % 10 === 1 && d !== 11 ? 'st' : d % 10 === 2 && d !== 12 ? 'nd' : d % 10 === 3 && d !== 13 ? 'rd' : 'th'); break;
      case 'F': out.push(MONTHS[m]); break;
      case 'M': out.push(MONTHS[m].slice(0, 3)); break;
      case 'm': out.push(pad(m + 1)); break;
      case 'n': out.push(String(m + 1)); break;
      case 'Y': out.push(String(Y)); break;
      case 'y': out.push(pad(Y % 100)); break;
      case 'a': out.push(H < 12 ? 'am' : 'pm'); break;
      case 'A': out.push(H < 12 ? 'AM' : 'PM'); break;
      case 'g': out.push(String(h12)); break;
      case 'h': out.push(pad(h12)); break;
      case 'G': out.push(String(H)); break;
      case 'H': out.push(pad(H)); break;
      case 'i': out.push(pad(i)); break;
      case 's': out.push(pad(s)); break;
      case '\\': k++; if (k < format.length) out.push(format[k]); break;
      default: out.push(c);
    }
  }
  return out.join('');
}
