/** Terms as the legacy lookups find them by ID, slug or name (term_exists), and term names as stored. */
import type { RestContext } from '../../contract/context.ts';
import { slugify } from '../../lib/slug.ts';
import type { Taxonomy, TermRow } from '../../store/calendar.ts';

/**
 * A term name as WordPress stores it (the `pre_term_name` filters): tags stripped, runs of white space
 * one space, and `&`, `<`, `>` that are not already entities escaped (`Sports & Games` is stored and
 * answered as `Sports &amp; Games`).
 */
export function termName(raw: string): string {
  return raw
    .replace(/<[^>]*>/g, '')
    .replace(/[\r\n\t ]+/g, ' ')
    .trim()
    .replace(/&(?!#?\w+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** PHP's trim() characters. */
const TRIMMED = new Set([' ', '\t', '\n', '\r', '\0', '\v']);
function phpTrim(s: string): string {
  let from = 0;
  let to = s.length;
  while (from < to && TRIMMED.has(s[from]!)) from++;
  while (to > from && TRIMMED.has(s[to - 1]!)) to--;
  return s.slice(from, to);
}

/**
 * term_exists for one list_to_array item: a whole number is a term ID (its absolute value, as
 * get_terms reads `include`; 0 none), anything else, trimmed, the term's slug as sanitize_title
 * makes it, or else its name.
 */
export async function termOf(ctx: RestContext, taxonomy: Taxonomy, item: string | number): Promise<TermRow | null> {
  // IDs beyond 2^53 name no record (see core-integer-range); the store is not asked.
  if (typeof item === 'number' && Number.isInteger(item)) return item === 0 || !Number.isSafeInteger(item) ? null : ctx.store.calendar.term(taxonomy, Math.abs(item));
  const text = phpTrim(String(item));
  if (text === '') return null;
  return (await ctx.store.calendar.termBySlugOrName(taxonomy, slugify(text))) ?? ctx.store.calendar.termBySlugOrName(taxonomy, termName(text));
}
