/**
 * HTML escaping and entity decoding in the two ways the site writes markup: Lintel's own pages, and
 * the legacy site's markup reproduced (oEmbed documents, record pages, the history's messages).
 */

/** Text and attribute values in Lintel's own pages (no legacy counterpart), escaped as numeric character references. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The site's page for a failure outside the REST prefix (the REST API answers its JSON error body instead). */
export function errorPage(status: number, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error ${status}</title></head><body><h1>Error ${status}</h1><p>${escapeHtml(message)}</p></body></html>`;
}

/** WordPress's esc_html() and esc_attr() (alike for plain text): `&<>"'` as `&amp; &lt; &gt; &quot; &#039;`. */
export function escHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
}

/** PHP's html_entity_decode for what WordPress writes: `&amp; &quot; &lt; &gt; &#039;` and numeric references. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x?[0-9a-f]+|amp|quot|lt|gt|#039);/gi, (m, e: string) => {
    const l = e.toLowerCase();
    if (l === 'amp') return '&';
    if (l === 'quot') return '"';
    if (l === 'lt') return '<';
    if (l === 'gt') return '>';
    const n = l.startsWith('#x') ? parseInt(l.slice(2), 16) : parseInt(l.slice(1), 10);
    return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : m;
  });
}
