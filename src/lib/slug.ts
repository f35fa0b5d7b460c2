/**
 * Slugs as WordPress's sanitize_title makes them on save (remove_accents, then
 * sanitize_title_with_dashes): "Café Oto" is `cafe-oto`, "Rock & Roll" `rock-roll`, and letters
 * outside Latin are kept percent-encoded ("Киев" is `%d0%ba%d0%b8%d0%b5%d0%b2`), for every record and term.
 */

/** remove_accents' table (en_US), by replacement: every character of a value becomes its key. */
const ACCENTS: Record<string, string> = {
  'a': 'ªàáâãäåāăąầằảẩẳẫẵấắạậặɑǎ',
  'o': 'ºòóôõöøōŏőơồờỏổởỗỡốớọộợǒ',
  'A': 'ÀÁÂÃÄÅĀĂĄẦẰẢẨẲẪẴẤẮẠẬẶǍ',
  'AE': 'Æ',
  'C': 'ÇĆĈĊČ',
  'E': 'ÈÉÊËĒĔĖĘĚƏ€ỀẺỂẼỄẾẸỆ',
  'I': 'ÌÍÎÏĨĪĬĮİỈỊǏ',
  'D': 'ÐĎĐ',
  'N': 'ÑŃŅŇŊ',
  'O': 'ÒÓÔÕÖØŌŎŐƠỒỜỎỔỞỖỠỐỚỌỘỢǑ',
  'U': 'ÙÚÛÜŨŪŬŮŰŲƯỪỦỬỮỨỤỰǕǗǓǙǛ',
  'Y': 'ÝŶŸỲỶỸỴ',
  'TH': 'Þ',
  's': 'ßśŝşšſș',
  'ae': 'æ',
  'c': 'çćĉċč',
  'e': 'èéêëēĕėęěǝềẻểẽễếẹệ',
  'i': 'ìíîïĩīĭįıỉịǐ',
  'd': 'ðďđ',
  'n': 'ñńņňŉŋ',
  'u': 'ùúûüũūŭůűųưừủửữứụựǖǘǔǚǜ',
  'y': 'ýÿŷỳỷỹỵ',
  'th': 'þ',
  'G': 'ĜĞĠĢ',
  'g': 'ĝğġģ',
  'H': 'ĤĦ',
  'h': 'ĥħ',
  'IJ': 'Ĳ',
  'ij': 'ĳ',
  'J': 'Ĵ',
  'j': 'ĵ',
  'K': 'Ķ',
  'k': 'ķĸ',
  'L': 'ĹĻĽĿŁ',
  'l': 'ĺļľŀł',
  'OE': 'Œ',
  'oe': 'œ',
  'R': 'ŔŖŘ',
  'r': 'ŕŗř',
  'S': 'ŚŜŞŠȘ',
  'T': 'ŢŤŦȚ',
  't': 'ţťŧț',
  'W': 'Ŵ',
  'w': 'ŵ',
  'Z': 'ŹŻŽ',
  'z': 'źżž',
  '': '£',
};
const ACCENT_OF = new Map(Object.entries(ACCENTS).flatMap(([to, from]) => [...from].map((c) => [c, to] as const)));

/** remove_accents: the text in NFC, each listed Latin letter replaced. */
export function removeAccents(text: string): string {
  if (!/[^\p{ASCII}]/u.test(text)) return text;
  return [...text.normalize('NFC')].map((c) => ACCENT_OF.get(c) ?? c).join('');
}

/** utf8_uri_encode: non-ASCII characters as lowercase %xx octets, stopping before `max` encoded characters would be exceeded. */
function utf8UriEncode(text: string, max: number): string {
  let out = '';
  for (const c of text) {
    const encoded = c.charCodeAt(0) < 128 ? c : [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16)}`).join('');
    if (out.length + encoded.length > max) break;
    out += encoded;
  }
  return out;
}

/**
 * The slug a record URL's path segment names, in the form slugs are stored: percent-escapes read, non-ASCII
 * characters as lowercase %xx octets and ASCII lowercased, as WordPress's sanitize_title_for_query leaves
 * the segment (`caf%C3%A9` and `café` both name `caf%c3%a9`); a segment whose escapes are not UTF-8 as sent.
 */
export function slugInPath(segment: string): string {
  try {
    return utf8UriEncode(decodeURIComponent(segment), Infinity).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}

/** Characters sanitize_title_with_dashes drops on save (soft hyphen, quotes, ©, ™, zero-width and direction marks, ...), as octets. */
const DROPPED = ['%c2%ad', '%c2%a1', '%c2%bf', '%c2%ab', '%c2%bb', '%e2%80%b9', '%e2%80%ba', '%e2%80%98', '%e2%80%99', '%e2%80%9c', '%e2%80%9d', '%e2%80%9a', '%e2%80%9b', '%e2%80%9e', '%e2%80%9f', '%e2%80%a2', '%c2%a9', '%c2%ae', '%c2%b0', '%e2%80%a6', '%e2%84%a2', '%c2%b4', '%cb%8a', '%cc%81', '%cd%81', '%cc%80', '%cc%84', '%cc%8c', '%e2%80%8b', '%e2%80%8c', '%e2%80%8d', '%e2%80%8e', '%e2%80%8f', '%e2%80%aa', '%e2%80%ab', '%e2%80%ac', '%e2%80%ad', '%e2%80%ae', '%ef%bb%bf', '%ef%bf%bc'];
/** Spaces that have a width: a hyphen. */
const SPACES = ['%e2%80%80', '%e2%80%81', '%e2%80%82', '%e2%80%83', '%e2%80%84', '%e2%80%85', '%e2%80%86', '%e2%80%87', '%e2%80%88', '%e2%80%89', '%e2%80%8a', '%e2%80%a8', '%e2%80%a9', '%e2%80%af'];
const HYPHENS = ['%c2%a0', '%e2%80%91', '%e2%80%93', '%e2%80%94', '&nbsp;', '&#8209;', '&#160;', '&ndash;', '&#8211;', '&mdash;', '&#8212;', '/'];
const replaceAll = (s: string, from: string[], to: string) => from.reduce((acc, f) => acc.replaceAll(f, to), s);

/** PHP's strip_tags, closely enough for titles: a `<` that opens a tag (not one before white space) drops everything to its `>`, or to the end. */
const stripTags = (s: string) => s.replace(/<(?!\s)[^>]*(>|$)/g, '');

/** sanitize_title_with_dashes, in the `save` context unless told `query` (which keeps the special hyphens, quotes and spaces). */
export function sanitizeTitleWithDashes(title: string, context: 'save' | 'query' = 'save'): string {
  let t = stripTags(title).replace(/%([a-fA-F0-9][a-fA-F0-9])/g, '---$1---').replaceAll('%', '').replace(/---([a-fA-F0-9][a-fA-F0-9])---/g, '%$1');
  t = utf8UriEncode(t.toLowerCase(), 200).toLowerCase();
  if (context === 'save') t = replaceAll(replaceAll(replaceAll(t, HYPHENS, '-'), DROPPED, ''), SPACES, '-').replaceAll('%c3%97', 'x');
  return t
    .replace(/&.+?;/g, '')
    .replaceAll('.', '-')
    .replace(/[^%a-z0-9 _-]/g, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** sanitize_title on save: remove_accents, then sanitize_title_with_dashes. */
export function slugify(title: string): string {
  return sanitizeTitleWithDashes(removeAccents(title));
}

/** A user's user_nicename as wp_insert_user makes it of the login (sanitize_title of its first 50 characters): the author archive's `/author/{nicename}/`. */
export const userNicename = (login: string) => slugify(login.slice(0, 50));
