/** Terms as the legacy lookups find them by ID, slug or name (term_exists), and term names as stored. */
import type { RestContext } from '../../contract/context.ts';
import { ksesNoNull, phpTrim, sanitizeTextField } from '../../lib/legacy-html.ts';
import { sanitizeTitleWithDashes, slugify } from '../../lib/slug.ts';
import { urldecode } from '../../lib/url-encoding.ts';
import type { LinkedKind, OrganizerRow, StoredEvent, Taxonomy, TermRow, VenueRow } from '../../store/calendar.ts';

/**
 * A term name as WordPress stores it (the `pre_term_name` filters): sanitize_text_field (tags
 * stripped, runs of white space one space, trimmed, %xx octets removed) on the slashed name, where a
 * NUL byte is `\0` and not trimmed, then wp_filter_kses's wp_kses_no_null (control characters
 * dropped, after the trim: `\x05 x` and `\0 x` keep their space), then `&`,
 * `<`, `>` that are not already entities escaped (`Sports & Games` is stored and answered as
 * `Sports &amp; Games`).
 */
export function termName(raw: string): string {
  return ksesNoNull(sanitizeTextField(raw, { slashed: true }))
    .replace(/&(?!#?\w+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * term_exists for one list_to_array item: a whole number is a term ID (its absolute value, as
 * get_terms reads `include`; 0 none), anything else, trimmed, the term's slug as sanitize_title
 * makes it, or else its name. A text whose slug is empty (`*`, `/`, `[]`) leaves get_terms without a
 * slug to filter by: it finds the taxonomy's first term, if it has any.
 */
export async function termExists(ctx: RestContext, taxonomy: Taxonomy, item: string | number): Promise<TermRow | null> {
  if (typeof item === 'string' && phpTrim(item) !== '' && slugify(phpTrim(item)) === '') return ctx.store.calendar.firstTerm(taxonomy);
  return termOf(ctx, taxonomy, item);
}

/**
 * The term an item names by its ID, slug or name; null for an item whose slug is empty, which the
 * events archive's own lookup (get_term_by by slug, then by ID) finds no term for.
 */
export async function termOf(ctx: RestContext, taxonomy: Taxonomy, item: string | number): Promise<TermRow | null> {
  // IDs beyond 2^53 name no record (see core-integer-range); the store is not asked.
  if (typeof item === 'number' && Number.isInteger(item)) return item === 0 || !Number.isSafeInteger(item) ? null : ctx.store.calendar.term(taxonomy, Math.abs(item));
  const text = phpTrim(String(item));
  const slug = slugify(text);
  if (slug === '') return null;
  // A name holding a NUL byte names no term (and PostgreSQL text cannot hold one); its slug has none.
  if (text.includes('\0')) return ctx.store.calendar.termBySlugOrName(taxonomy, slug);
  return (await ctx.store.calendar.termBySlugOrName(taxonomy, slug)) ?? ctx.store.calendar.termBySlugOrName(taxonomy, termName(text));
}

/**
 * The post name get_page_by_path looks for: the path URL-decoded (`+` a space), cut at `/` (an outer
 * one trimmed) and each part made a slug as sanitize_title_for_query does, every byte but a letter,
 * digit, `-`, `_`, `.` or `~` as a %xx octet first (rawurlencode). Calendar records have no parent
 * page, so a path of several parts names none: null.
 */
function pageName(path: string): string | null {
  const parts = urldecode(path).replace(/^\/+|\/+$/g, '').split('/');
  if (parts.length !== 1) return null;
  let encoded = '';
  for (const b of Buffer.from(parts[0]!)) {
    const c = String.fromCharCode(b);
    encoded += /[\w.~ -]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  const name = sanitizeTitleWithDashes(encoded, 'query');
  return name === '' ? null : name;
}

/** The event, venue or organizer a by-slug path names (get_page_by_path), or null. */
export function recordByPath(ctx: RestContext, kind: 'event', path: string): Promise<StoredEvent | null>;
export function recordByPath(ctx: RestContext, kind: LinkedKind, path: string): Promise<VenueRow | OrganizerRow | null>;
export async function recordByPath(ctx: RestContext, kind: 'event' | LinkedKind, path: string) {
  const name = pageName(path);
  if (name === null) return null;
  return kind === 'event' ? ctx.store.calendar.eventBySlug(name) : ctx.store.calendar.linkedBySlug(kind, name);
}
