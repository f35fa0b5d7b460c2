/**
 * Lintel's own markup: its pages' escaping and the error page. PHP's and WordPress's escaping and
 * decoding (htmlspecialchars, esc_html, html_entity_decode) are in legacy-html.ts.
 */

/** Text and attribute values in Lintel's own pages (no legacy counterpart), escaped as numeric character references. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The site's page for a failure outside the REST prefix (the REST API answers its JSON error body instead). */
export function errorPage(status: number, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error ${status}</title></head><body><h1>Error ${status}</h1><p>${escapeHtml(message)}</p></body></html>`;
}
