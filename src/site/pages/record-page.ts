/**
 * The public page of an event, venue or organizer, and its `embed/` variant (what the oEmbed
 * iframe loads): plain HTML with inline CSS, no JavaScript, readable from phone to desktop.
 */
import { htmlSpecialChars } from '../../lib/legacy-html.ts';
import type { Embeddable } from '../../namespaces/oembed/embeddable.ts';
import { intlZone, isoWithOffset, wallToInstant, zoneAbbr } from '../../lib/time.ts';

/** Start and end as readers expect them, in the event's own zone (with its abbreviation). */
export function eventWhen(r: Pick<Embeddable, 'start' | 'end' | 'timezone' | 'allDay'>): { text: string; start: string; end: string | null } | null {
  if (!r.start) return null;
  const zone = r.timezone ?? 'UTC';
  const day: Intl.DateTimeFormatOptions = { timeZone: intlZone(zone), weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' };
  const clock: Intl.DateTimeFormatOptions = { timeZone: intlZone(zone), hour: 'numeric', minute: '2-digit' };
  const instant = (wall: string) => wallToInstant(new Date(`${wall}Z`), zone);
  const start = instant(r.start);
  const end = r.end ? instant(r.end) : null;
  const fmt = (d: Date, o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-US', o).format(d);
  // The time with the zone's abbreviation as the event's `timezone_abbr` gives it (CET, JST, UTC+2).
  const time = (d: Date) => `${fmt(d, clock)} ${zoneAbbr(zone, d)}`;
  const sameDay = end !== null && fmt(start, day) === fmt(end, day);
  let text: string;
  if (r.allDay) text = end && !sameDay ? `${fmt(start, day)} – ${fmt(end, day)}` : fmt(start, day);
  else if (!end) text = `${fmt(start, day)}, ${time(start)}`;
  else if (sameDay) text = `${fmt(start, day)}, ${fmt(start, clock)} – ${time(end)}`;
  else text = `${fmt(start, day)}, ${time(start)} – ${fmt(end, day)}, ${time(end)}`;
  return { text, start: isoWithOffset(r.start, zone), end: r.end ? isoWithOffset(r.end, zone) : null };
}

const STYLE = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d1d1f;background:#fafafa}
main{max-width:44rem;margin:0 auto;padding:1.5rem 1rem 3rem}
.kind{margin:0;font-size:.8rem;letter-spacing:.08em;text-transform:uppercase;color:#5a5a60}
h1{margin:.25rem 0 1rem;font-size:clamp(1.6rem,5vw,2.4rem);line-height:1.2;overflow-wrap:anywhere}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem;margin:0 0 1.5rem;padding:1rem;background:#fff;border:1px solid #e3e3e8;border-radius:.5rem}
dt{font-weight:600}
dd{margin:0;overflow-wrap:anywhere}
.description{overflow-wrap:anywhere}
.description img,.description iframe,.description video{max-width:100%;height:auto}
.description pre{white-space:pre-wrap}
.description table{display:block;max-width:100%;overflow-x:auto}
footer{margin-top:2rem;font-size:.85rem;color:#5a5a60}
a{color:#0b57d0}
@media (max-width:30rem){dl{grid-template-columns:1fr}dt{margin-top:.35rem}}
.embed main{padding:1rem;max-width:none}
.embed h1{font-size:1.4rem;margin-bottom:.5rem}
.embed .description{max-height:8.5em;overflow:hidden}
`;

const KIND = { event: 'Event', venue: 'Venue', organizer: 'Organizer' } as const;

export interface PageOptions {
  siteName: string;
  /** The `embed/` variant: compact, links open in the embedding page's window. */
  embed: boolean;
  /** The page's language (BCP 47), from the locale it was asked under. */
  lang: string;
}

export function recordPage(r: Embeddable, o: PageOptions): string {
  const when = r.kind === 'event' ? eventWhen(r) : null;
  const facts: string[] = [];
  if (when) facts.push(`<dt>When</dt><dd><time datetime="${when.start}">${htmlSpecialChars(when.text)}</time></dd>`);
  if (r.venueName) facts.push(`<dt>Venue</dt><dd>${htmlSpecialChars(r.venueName)}</dd>`);
  if (r.organizerNames?.length) facts.push(`<dt>${r.organizerNames.length > 1 ? 'Organizers' : 'Organizer'}</dt><dd>${r.organizerNames.map(htmlSpecialChars).join(', ')}</dd>`);
  const title = htmlSpecialChars(r.title);
  return `<!doctype html>
<html lang="${htmlSpecialChars(o.lang)}"${o.embed ? ' class="embed"' : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} – ${htmlSpecialChars(o.siteName)}</title>
<link rel="canonical" href="${htmlSpecialChars(r.permalink)}">
${o.embed ? '<meta name="robots" content="noindex">\n<base target="_top">\n' : ''}<style>${STYLE}</style>
</head>
<body${o.embed ? ' class="embed"' : ''}>
<main>
<p class="kind">${KIND[r.kind]}</p>
<h1>${o.embed ? `<a href="${htmlSpecialChars(r.permalink)}">${title}</a>` : title}</h1>
${facts.length ? `<dl>${facts.join('')}</dl>` : ''}
<div class="description">${r.descriptionHtml}</div>
<footer>${o.embed ? `<a href="${htmlSpecialChars(r.permalink)}">${htmlSpecialChars(o.siteName)}</a>` : htmlSpecialChars(o.siteName)}</footer>
</main>
</body>
</html>
`;
}
