/**
 * The slug of a title, as WordPress's sanitize_title makes it (remove_accents, then
 * sanitize_title_with_dashes): "Café Oto" is `cafe-oto` for every record and term.
 */
export function slugify(title: string): string {
  return title.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/['’]/g, '').replace(/[^a-z0-9_-]+/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '');
}
