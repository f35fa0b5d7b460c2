/**
 * Calendar date handling: PHP's strtotime as clients use it, the archive's day rounding and the
 * date parts events show (zone conversions are site time, src/lib/time.ts).
 */
import { strtotime } from 'locutus/php/datetime/strtotime';
import { phpTrim } from './legacy-html.ts';

// locutus's strtotime reads and writes the process's local time: the process runs in UTC, as
// WordPress runs PHP (bin/lintel.js, vitest.config.ts).

/** Where each step's count adds, [field, factor], over [year, month, day, hour, minute, second]. */
const UNITS: Record<string, [number, number]> = { sec: [5, 1], second: [5, 1], min: [4, 1], minute: [4, 1], hour: [3, 1], day: [2, 1], week: [2, 7], month: [1, 1], year: [0, 1] };

/**
 * The zone abbreviations PHP's strtotime reads (DateTimeZone::listAbbreviations: the military letters
 * but `j` among them), with the UTC offset in seconds PHP gives each (`s` is -06:00, `est` -05:00).
 */
const ZONE_OFFSETS: Record<string, number> = { acdt: 37800, acst: 34200, addt: -7200, adt: -10800, aedt: 39600, aest: 36000, ahdt: -32400, ahst: -36000, akdt: -28800, akst: -32400, amt: -13840, apt: -10800, ast: -14400, awdt: 32400, awst: 28800, awt: -10800, bdst: 7200, bdt: -36000, bmt: -14309, bst: 3600, cast: 34200, cat: 7200, cddt: -14400, cdt: -18000, cemt: 10800, cest: 7200, cet: 3600, cmt: -15408, cpt: -18000, cst: -21600, cwt: -18000, chst: 36000, dmt: -1521, eat: 10800, eddt: -10800, edt: -14400, eest: 10800, eet: 7200, emt: -26248, ept: -14400, est: -18000, ewt: -14400, ffmt: -14660, fmt: -4056, gdt: 39600, gmt: 0, gst: 36000, hdt: -34200, hkst: 32400, hkt: 28800, hmt: -19776, hpt: -34200, hst: -36000, hwt: -34200, iddt: 14400, idt: 10800, imt: 25025, ist: 7200, jdt: 36000, jmt: 8440, jst: 32400, kdt: 36000, kmt: 5736, kst: 30600, lst: 9394, mddt: -18000, mdst: 16279, mdt: -21600, mest: 7200, met: 3600, mmt: 9017, mpt: -21600, msd: 14400, msk: 10800, mst: -25200, mwt: -21600, nddt: -5400, ndt: -9052, npt: -9000, nst: -12600, nwt: -9000, nzdt: 46800, nzmt: 41400, nzst: 43200, pddt: -21600, pdt: -25200, pkst: 21600, pkt: 18000, plmt: 25590, pmt: -13236, ppmt: -17340, ppt: -25200, pst: -28800, pwt: -25200, qmt: -18840, rmt: 5794, sast: 7200, sdmt: -16800, sjmt: -20173, smt: -13884, sst: -39600, tbmt: 10751, tmt: 12344, uct: 0, utc: 0, wast: 7200, wat: 3600, wemt: 7200, west: 3600, wet: 0, wib: 25200, wita: 28800, wit: 32400, wmt: 5040, yddt: -25200, ydt: -28800, ypt: -28800, yst: -32400, ywt: -28800, a: 3600, b: 7200, c: 10800, d: 14400, e: 18000, f: 21600, g: 25200, h: 28800, i: 32400, k: 36000, l: 39600, m: 43200, n: -3600, o: -7200, p: -10800, q: -14400, r: -18000, s: -21600, t: -25200, u: -28800, v: -32400, w: -36000, x: -39600, y: -43200, z: 0 };
/** A zone strtotime reads after a date or alone: an abbreviation, a UTC offset (`+2`, `-05:00`), or one after `utc`/`gmt` (`utc+2`). */
const ZONE = `((?:utc|gmt)?[+-]\\d{1,2}(?::?\\d{2})?|${Object.keys(ZONE_OFFSETS).join('|')})`;
// timelib's white space between tokens is a space or a tab (and PHP reads a no-break space as one); JavaScript's \s is also U+FEFF, U+2028, U+3000...
const DATE_TIME = new RegExp(`^(\\d{4})-(\\d{1,2})-(\\d{1,2})(?:[t \\t\\u00a0]+(\\d{1,2}):(\\d{2})(?::(\\d{2}))?(?:\\.\\d+)?)?[ \\t\\u00a0]*${ZONE}?$`);
const LONE_ZONE = new RegExp(`^${ZONE}$`);

/** A lower-case roman numeral beside a day or year (`7v`, `v2`, `5 x 2026`), which only locutus reads as a month. */
const LOWER_ROMAN_MONTH = /\d[ .\t-]*(i[vx]|vi{0,3}|xi{0,2}|i{1,3})(?![a-z])|(^|[^a-z])(i[vx]|vi{0,3}|xi{0,2}|i{1,3})[ .\t-]*\d/;

/**
 * Longer text is no date, refused before any parsing: locutus's tokenizer takes time superlinear in the
 * length (120,000 characters block the event loop for seconds), and PHP's longest forms
 * (`Saturday, 28 November 2026 10:00:00.000000 America/Argentina/ComodRivadavia`, `+1 year +2 months
 * +3 weeks +4 days +5 hours +6 minutes +7 seconds`) stay well under it.
 */
const MAX_DATE_LENGTH = 128;

/** The relative texts timelib reads before a unit, with their amount; `this` alone keeps today for its weekday (behavior 1). */
const RELATIVE_TEXT: Record<string, number> = { last: -1, previous: -1, this: 0, first: 1, next: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eight: 8, eighth: 8, ninth: 9, tenth: 10, eleventh: 11, twelfth: 12 };
/** The day names timelib reads, by their first three letters, Sunday first. */
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
/** Any day name timelib reads after a relative text (`tues`, `thurs` too). */
const DAY_NAME = '(sun(day)?|mon(day)?|tue(s|sday)?|wed(nes|nesday)?|thu(r|rs|rsday)?|fri(day)?|sat(urday)?)';
/** A day name or its abbreviation, as the forms below read it. */
const WEEKDAY = `(sunday|monday|tuesday|wednesday|thursday|friday|saturday|${WEEKDAYS.join('|')})`;
/** `next saturday`, `last sun`, `third friday`: a relative text and a day alone, computed as timelib does. */
const RELATIVE_WEEKDAY = new RegExp(`^(${Object.keys(RELATIVE_TEXT).join('|')})[ \\t\\u00a0]+${WEEKDAY}$`);
/** `saturday next week`, `next week saturday`, `sun this week`: a day of a relative week (Monday to Sunday), computed as timelib does. */
const WEEKDAY_OF_WEEK = new RegExp(`^(?:${WEEKDAY}[ \\t\\u00a0]+(this|next|last|previous)[ \\t\\u00a0]+week|(this|next|last|previous)[ \\t\\u00a0]+week[ \\t\\u00a0]+${WEEKDAY})$`);
const MONTH_NAME = '(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t|tember)?|oct(ober)?|nov(ember)?|dec(ember)?)';
/** What may follow a signed number that is a step's count (`+2 days`), not a zone. */
const NOT_A_COUNT = '(?![\\d:]|[ \\t]*(sec|second|min|minute|hour|day|week|fortnight|month|year)s?(?![a-z]))';
/**
 * Text locutus reads wrongly, refused before it: `weekday` steps (locutus ignores them; PHP skips
 * weekends by an intricate rule), a day name after a relative text or number (`next sat 10:00`,
 * `+2 mon`: locutus counts today as the first such day, and Sunday as day 7) or beside `this|next|last
 * week` (`saturday next week 10:00`: locutus misplaces every day but Monday when today is a Sunday), and an
 * upper-case roman numeral month glued to a day and a letter (`X5P`, `IV 5B`), which PHP reads as no date.
 */
const LOCUTUS_WRONG = new RegExp(
  [
    '(^|[^a-z])weekdays?(?![a-z])',
    `(^|[^a-z])(${Object.keys(RELATIVE_TEXT).join('|')}|\\d)[ \\t]*${DAY_NAME}(?![a-z])`,
    `(^|[^a-z])${DAY_NAME}(?![a-z]).*(^|[^a-z])(this|next|last|previous)[ \\t]+week(?![a-z])`,
    `(^|[^a-z])(this|next|last|previous)[ \\t]+week(?![a-z]).*(^|[^a-z])${DAY_NAME}(?![a-z])`,
    '(^|[^a-z])[ivx]+[ .\\t-]*\\d+[a-z](?![a-z])',
    // Combinations locutus reads otherwise than PHP (found by comparing random ones with PHP): a
    // timestamp or an ISO week with anything else; `ago` (PHP turns every relative part read before
    // it); a signed number but a step's count or a four-digit zone after a time (PHP reads `+1` as a
    // zone, locutus as minutes); `today`/`tomorrow`/`yesterday`/`midnight` after a step, and
    // `tomorrow`/`yesterday` after another (PHP drops the steps read before them); a month name or
    // roman numeral before an ISO date or a time; an hour 24; an ISO date after anything; `first|last
    // day of` but alone or of a relative month or year or a named month; a day or month name with a
    // month or year step (PHP moves to the day first).
    '.@|^@(?!-?\\d+$)',
    '^(?!\\d{4}-?w\\d{2}(-?\\d)?$).*\\d{4}-?w\\d',
    '(^|[^a-z])ago(?![a-z])',
    `(^|[^a-z\\d:])[+-](\\d{1,3}|\\d{5,})${NOT_A_COUNT}|(?<!\\d:\\d\\d(:\\d\\d)?[ \\t]*)(^|[^a-z\\d:])[+-]\\d{4}${NOT_A_COUNT}`,
    '(\\d|(^|[^a-z])(next|last|this|previous|first|third))[^a-z]*[a-z]*.*(^|[^a-z])(today|tomorrow|yesterday|midnight)(?![a-z])',
    '(tomorrow|yesterday)(?![a-z]).*(^|[^a-z])(tomorrow|yesterday)(?![a-z])',
    `(^|[^a-z])([ivx]+|${MONTH_NAME})[ .\\t,]+(\\d{4}-|\\d{1,2}:)\\d`,
    '(^|\\D)24:\\d',
    '[a-z\\d].*\\d{4}-\\d',
    `^(?!(first|last) day of( (next|last|this|previous) (month|year)| ${MONTH_NAME}( \\d{4})?)?$).*(first|last) day of`,
    `(^|[^a-z])${MONTH_NAME}(?![a-z]).*(month|year)|(month|year).*(^|[^a-z])${MONTH_NAME}(?![a-z])`,
    `(^|[^a-z])${DAY_NAME}(?![a-z]).*(month|year)|(month|year).*(^|[^a-z])${DAY_NAME}(?![a-z])`,
  ].join('|'),
);

/** The offset PHP reads a zone at: an abbreviation's own, `±H[H][[:]MM]`, and none after `utc`/`gmt` (PHP drops `utc+2`'s `+2`). */
function zoneOffset(zone: string | undefined): number {
  if (zone === undefined || /^(utc|gmt)[+-]/.test(zone)) return 0;
  const m = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(zone);
  if (!m) return ZONE_OFFSETS[zone] ?? 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60);
}

/**
 * strtotime read as wall time where `now` is the current wall time: dates with optional time (a
 * trailing zone is ignored, as the legacy site does), a UNIX timestamp (UTC), `now`/`today`/
 * `tomorrow`/`yesterday` with an optional time, `±N unit` steps, a zone alone (now) and relative
 * weekdays (`next monday`, `saturday next week`), as Lintel reads them; any other text as locutus's
 * port of PHP's strtotime reads it (`tomorrow noon`, `@1700000000`, `2026W05`, `Jan 5 2027`, `last
 * day of next month`), but what locutus reads otherwise than PHP (LOCUTUS_WRONG) and text over
 * MAX_DATE_LENGTH. The rest of PHP's grammar, which takes much random text for a date (see
 * DEVIATIONS.md calendar-strtotime), is no date: an answer is PHP's or none.
 */
export function parseWall(input: string, nowWall: Date): Date | null {
  return inRange(readWall(input, nowWall)?.wall);
}

/**
 * A date read as PHP's `new DateTime($input)` reads it with UTC as the default zone (Tribe's
 * localize_date to UTC): as parseWall, but a zone after the date, or alone, is applied (`s` is
 * now at -06:00, six hours ahead in UTC). A number alone (`+2`) is never read as a zone: it is now.
 */
export function parseUtc(input: string, nowUtc: Date): Date | null {
  const read = readWall(input, nowUtc);
  if (!read) return null;
  const offset = /^[+-]?\d+$/.test(input.trim()) ? 0 : zoneOffset(read.zone);
  return inRange(new Date(read.wall.getTime() - offset * 1000));
}

/**
 * A number as Tribe's localize_date reads it (UTC): a whole one (is_timestamp) is a UNIX timestamp when
 * PHP's `@` form takes it as written (`5`, `-5`, `5.0`, not `+5`, ` 5` or `1e3`); `h.mm` is that time
 * today; any other number is no date (null).
 */
export function numericDate(value: string, nowUtc: Date): Date | null {
  const n = Number(value.trim());
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return /^-?\d+(\.\d+)?[ \t\n\r\v\f]*$/.test(value) ? inRange(new Date(n * 1000)) : null;
  const time = /^(\d{1,2})\.(\d{1,2})$/.exec(value);
  if (!time || Number(time[1]) > 23 || Number(time[2]) > 59) return null;
  const d = new Date(nowUtc);
  d.setUTCHours(Number(time[1]), Number(time[2]), 0, 0);
  return d;
}

/** Only the years a DATETIME holds (a huge timestamp or `+99999999 years` is no date). */
function inRange(d: Date | undefined): Date | null {
  return d && !Number.isNaN(d.getTime()) && d.getUTCFullYear() >= 1 && d.getUTCFullYear() <= 9999 ? d : null;
}

function readWall(input: string, nowWall: Date): { wall: Date; zone?: string } | null {
  if (input.length > MAX_DATE_LENGTH) return null;
  // timelib skips spaces, tabs, commas and dots between tokens and ends at a newline: a text of those alone is now.
  if (/^[ \t\n,.]+$/.test(input)) return { wall: new Date(nowWall) };
  // PHP's trim and timelib's ASCII-only case folding: JavaScript's would also take U+FEFF or U+3000 off the ends and fold the Kelvin sign into `k`.
  const s = phpTrim(input).replace(/[A-Z]+/g, (m) => m.toLowerCase());
  // A timestamp is taken as UTC wall time, as the legacy site does.
  if (/^\d{9,}$/.test(s)) return { wall: new Date(Number(s) * 1000) };
  if (LONE_ZONE.test(s)) return { wall: new Date(nowWall), zone: s };
  const m = DATE_TIME.exec(s);
  if (m) {
    const [y, mo, d, h = '0', mi = '0', se = '0', zone] = m.slice(1).map((x) => x ?? undefined) as string[];
    const date = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +se));
    if (date.getUTCMonth() !== +mo - 1 || +h > 23 || +mi > 59 || +se > 59) return null;
    return { wall: date, zone };
  }
  const words = /^(now|today|midnight|tomorrow|yesterday)?(?:[ \t\u00a0]*(\d{1,2})(?::(\d{2}))?[ \t\u00a0]*(am|pm)?)?((?:[ \t\u00a0]*[+-]?\d+[ \t\u00a0]*(?:sec|second|min|minute|hour|day|week|month|year)s?)*)[ \t\u00a0]*(ago)?$/.exec(s);
  if (s === '') return null;
  if (!words) {
    // PHP reads roman numeral months (`5 X 2026`) in upper case only; locutus in any case.
    if (LOWER_ROMAN_MONTH.test(input)) return null;
    const relative = RELATIVE_WEEKDAY.exec(s);
    if (relative) return { wall: relativeWeekday(RELATIVE_TEXT[relative[1]], weekdayNumber(relative[2]), nowWall) };
    const ofWeek = WEEKDAY_OF_WEEK.exec(s);
    if (ofWeek) return { wall: weekdayOfWeek(RELATIVE_TEXT[ofWeek[2] ?? ofWeek[3]], weekdayNumber(ofWeek[1] ?? ofWeek[4]), nowWall) };
    // locutus reads JavaScript's white space (U+FEFF, U+3000, ...) where timelib reads none: only ASCII (and the no-break space) goes to it.
    if (LOCUTUS_WRONG.test(s) || /[^\p{ASCII}\u00a0]/u.test(s)) return null;
    const at = strtotime(phpTrim(input), Math.floor(nowWall.getTime() / 1000));
    return at === false ? null : { wall: new Date(at * 1000) };
  }
  const [, base, hh, mm, ampm, steps, ago] = words;
  const d = new Date(nowWall);
  if (base && base !== 'now') d.setUTCHours(0, 0, 0, 0);
  if (hh !== undefined) {
    // PHP reads an hour alone only before am/pm (`today 5` is no date).
    if (!ampm && mm === undefined) return null;
    const h = Number(hh);
    const minutes = Number(mm ?? 0);
    // PHP's hours run from 1 to 12 before am/pm and to 24 without (`24:00` is the next day's midnight); minutes to 59.
    if (minutes > 59 || (ampm ? h < 1 || h > 12 : h > 24)) return null;
    d.setUTCHours(ampm ? (h % 12) + (ampm === 'pm' ? 12 : 0) : h, minutes, 0, 0);
  }
  // As timelib: `tomorrow`/`yesterday` and the steps add up to one relative date, `ago` turns all of it
  // (`yesterday 2 days ago` is tomorrow's yesterday), and it is added to every field at once
  // (`+1 week +100 months` is 100 months then a week on, whatever the order).
  const relative = [0, 0, base === 'tomorrow' ? 1 : base === 'yesterday' ? -1 : 0, 0, 0, 0];
  for (const step of steps.matchAll(/([+-]?\d+)[ \t\u00a0]*(sec|second|min|minute|hour|day|week|month|year)s?/g)) {
    const [field, factor] = UNITS[step[2]];
    relative[field] += Number(step[1]) * factor;
  }
  const [y, mo, dd, h, mi, se] = relative.map((n) => (ago ? -n : n));
  d.setUTCFullYear(d.getUTCFullYear() + y, d.getUTCMonth() + mo, d.getUTCDate() + dd);
  d.setUTCHours(d.getUTCHours() + h, d.getUTCMinutes() + mi, d.getUTCSeconds() + se);
  if (!base && hh === undefined && !steps.trim()) return null;
  return { wall: d };
}

/**
 * timelib's relative weekday (do_adjust_for_weekday): midnight, `amount - 1` weeks on (`amount` back
 * when negative), then on to the weekday, today counting only for `this` (`next saturday` on a
 * Saturday is a week ahead) and, going back, never later than today.
 */
function relativeWeekday(amount: number, weekday: number, nowWall: Date): Date {
  const days = (amount > 0 ? amount - 1 : amount) * 7;
  let difference = weekday - nowWall.getUTCDay();
  if ((days < 0 && difference < 0) || (days >= 0 && difference <= (amount === 0 ? -1 : 0))) difference += 7;
  return new Date(Date.UTC(nowWall.getUTCFullYear(), nowWall.getUTCMonth(), nowWall.getUTCDate() + difference + days));
}

/**
 * timelib's day of a relative week (weekday behavior 2): midnight of that day in the week from Monday
 * to Sunday holding today, `amount` weeks on.
 */
function weekdayOfWeek(amount: number, weekday: number, nowWall: Date): Date {
  const fromMonday = (day: number) => (day === 0 ? 7 : day);
  const days = fromMonday(weekday) - fromMonday(nowWall.getUTCDay()) + 7 * amount;
  return new Date(Date.UTC(nowWall.getUTCFullYear(), nowWall.getUTCMonth(), nowWall.getUTCDate() + days));
}

const weekdayNumber = (name: string) => WEEKDAYS.indexOf(name.slice(0, 3));

export const startOfDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
export const endOfDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 23, 59, 59));

export function details(wall: string) {
  const [, y, mo, d, h, mi, s] = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})/.exec(wall) ?? [];
  return { year: y, month: mo, day: d, hour: h, minutes: mi, seconds: s };
}
