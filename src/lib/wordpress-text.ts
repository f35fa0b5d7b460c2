/** WordPress's text filters as the legacy answers show them. */
import { autop as wpautop } from '@wordpress/autop';

/** WordPress's `the_content`/`the_excerpt` paragraphs: `wpautop` (WordPress's own port of it), trimmed as the legacy answer is. */
export function autop(text: string): string {
  return text.trim() === '' ? '' : wpautop(text).trim();
}

/** `wptexturize` for the cases titles hit: apostrophes and ampersands. */
export function texturize(text: string): string {
  return text.replace(/&(?![#\w]+;)/g, '&#038;').replace(/(\w)'(\w)/g, '$1&#8217;$2').replace(/'/g, '&#8217;');
}
