/**
 * Calendar date handling: the subset of PHP's strtotime that clients send, the archive's day
 * rounding and the date parts events show (zone conversions are site time, src/lib/time.ts).
 */

const UNITS: Record<string, (d: Date, n: number) => void> = {
  second: (d, n) => d.setUTCSeconds(d.getUTCSeconds() + n),
  minute: (d, n) => d.setUTCMinutes(d.getUTCMinutes() + n),
  hour: (d, n) => d.setUTCHours(d.getUTCHours() + n),
  day: (d, n) => d.setUTCDate(d.getUTCDate() + n),
  week: (d, n) => d.setUTCDate(d.getUTCDate() + 7 * n),
  month: (d, n) => d.setUTCMonth(d.getUTCMonth() + n),
  year: (d, n) => d.setUTCFullYear(d.getUTCFullYear() + n),
};

/** The zone abbreviations PHP's strtotime reads (DateTimeZone::listAbbreviations: the military letters but `j` among them). */
const ZONE_ABBREVIATIONS =
  'acdt acst addt adt aedt aest ahdt ahst akdt akst amt apt ast awdt awst awt bdst bdt bmt bst cast cat cddt cdt cemt cest cet cmt cpt cst cwt chst dmt eat eddt edt eest eet emt ept est ewt ffmt fmt gdt gmt gst hdt hkst hkt hmt hpt hst hwt iddt idt imt ist jdt jmt jst kdt kmt kst lst mddt mdst mdt mest met mmt mpt msd msk mst mwt nddt ndt npt nst nwt nzdt nzmt nzst pddt pdt pkst pkt plmt pmt ppmt ppt pst pwt qmt rmt sast sdmt sjmt smt sst tbmt tmt uct utc wast wat wemt west wet wib wita wit wmt yddt ydt ypt yst ywt a b c d e f g h i k l m n o p q r s t u v w x y z';
/** A zone strtotime reads after a date or alone: an abbreviation, a UTC offset (`+2`, `-05:00`), or one after `utc`/`gmt` (`utc+2`). */
const ZONE = `(?:(?:utc|gmt)?[+-]\\d{1,2}(?::?\\d{2})?|${ZONE_ABBREVIATIONS.replaceAll(' ', '|')})`;
const DATE_TIME = new RegExp(`^(\\d{4})-(\\d{1,2})-(\\d{1,2})(?:[t\\s]+(\\d{1,2}):(\\d{2})(?::(\\d{2}))?(?:\\.\\d+)?)?\\s*${ZONE}?$`);
const LONE_ZONE = new RegExp(`^${ZONE}$`);

/**
 * strtotime for the forms clients use, read as wall time where `now` is the current wall time:
 * dates with optional time (a trailing zone is ignored, as the legacy site does), a UNIX
 * timestamp (UTC), `now`/`today`/`tomorrow`/`yesterday` with an optional time, `±N unit` steps,
 * and a zone alone (now).
 */
export function parseWall(input: string, nowWall: Date): Date | null {
  const d = readWall(input, nowWall);
  // Only the years a DATETIME holds (a huge timestamp or `+99999999 years` is no date).
  return d && !Number.isNaN(d.getTime()) && d.getUTCFullYear() >= 1 && d.getUTCFullYear() <= 9999 ? d : null;
}

function readWall(input: string, nowWall: Date): Date | null {
  const s = input.trim().toLowerCase();
  // A timestamp is taken as UTC wall time, as the legacy site does.
  if (/^\d{9,}$/.test(s)) return new Date(Number(s) * 1000);
  if (LONE_ZONE.test(s)) return new Date(nowWall);
  const m = DATE_TIME.exec(s);
  if (m) {
    const [y, mo, d, h = '0', mi = '0', se = '0'] = m.slice(1).map((x) => x ?? undefined) as string[];
    const date = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +se));
    if (date.getUTCMonth() !== +mo - 1 || +h > 23 || +mi > 59 || +se > 59) return null;
    return date;
  }
  const words = /^(now|today|midnight|tomorrow|yesterday)?(?:\s*(\d{1,2})(?::(\d{2}))?\s*(am|pm)?)?((?:\s*[+-]?\d+\s*(?:sec|second|min|minute|hour|day|week|month|year)s?)*)\s*(ago)?$/.exec(s);
  if (!words || s === '') return null;
  const [, base, hh, mm, ampm, steps, ago] = words;
  const d = new Date(nowWall);
  if (base && base !== 'now') d.setUTCHours(0, 0, 0, 0);
  if (base === 'tomorrow') d.setUTCDate(d.getUTCDate() + 1);
  if (base === 'yesterday') d.setUTCDate(d.getUTCDate() - 1);
  if (hh !== undefined) {
    if (!base && !ampm && mm === undefined) return null;
    let h = Number(hh) % (ampm ? 12 : 24);
    if (ampm === 'pm') h += 12;
    d.setUTCHours(h, Number(mm ?? 0), 0, 0);
  }
  for (const step of steps.matchAll(/([+-]?\d+)\s*(sec|second|min|minute|hour|day|week|month|year)s?/g)) {
    const unit = { sec: 'second', min: 'minute' }[step[2]] ?? step[2];
    UNITS[unit](d, Number(step[1]) * (ago ? -1 : 1));
  }
  if (!base && hh === undefined && !steps.trim()) return null;
  return d;
}

export const startOfDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
export const endOfDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 23, 59, 59));

export function details(wall: string) {
  const [, y, mo, d, h, mi, s] = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})/.exec(wall) ?? [];
  return { year: y, month: mo, day: d, hour: h, minutes: mi, seconds: s };
}
