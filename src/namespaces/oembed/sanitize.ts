/**
 * HTML from others reaches readers' browsers through an allow-list: the `html` of a remote oEmbed
 * document keeps only links, blockquotes and iframes, with a short list of attributes, http(s)
 * addresses, and iframes sandboxed (the legacy site's wp_filter_oembed_result keeps the same three
 * elements); a record's description on its page keeps the usual post formatting.
 */
import { escapeHtml } from './document.ts';

type AllowList = Record<string, readonly string[]>;

const EMBED_ALLOWED: AllowList = {
  a: ['href', 'title', 'target'],
  blockquote: ['cite', 'class', 'lang'],
  iframe: ['src', 'width', 'height', 'title', 'frameborder', 'marginwidth', 'marginheight', 'scrolling', 'class', 'allow', 'allowfullscreen', 'referrerpolicy'],
};

const plain = (tags: string[]): AllowList => Object.fromEntries(tags.map((t) => [t, []]));
const DESCRIPTION_ALLOWED: AllowList = {
  ...plain(['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'small', 'sub', 'sup', 'ul', 'ol', 'li', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'code', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'figure', 'figcaption', 'span', 'div']),
  a: ['href', 'title'],
  blockquote: ['cite'],
  img: ['src', 'alt', 'width', 'height'],
};
const URL_ATTRS = new Set(['href', 'src', 'cite']);
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*)\s*\/?>/g;
const ATTR = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

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

function attributes(tag: string, raw: string, allowed: readonly string[]): string {
  let out = '';
  for (const m of raw.matchAll(ATTR)) {
    const name = m[1].toLowerCase();
    if (!allowed.includes(name)) continue;
    const value = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
    if (URL_ATTRS.has(name) && !/^https?:\/\//i.test(value.trim())) continue;
    out += ` ${name}="${escapeHtml(value)}"`;
  }
  if (tag === 'iframe') out += ' sandbox="allow-scripts allow-same-origin allow-popups" security="restricted"';
  return out;
}

export const sanitizeEmbedHtml = (html: string) => sanitizeHtml(html, EMBED_ALLOWED);
export const sanitizeDescriptionHtml = (html: string) => sanitizeHtml(html, DESCRIPTION_ALLOWED);

function sanitizeHtml(html: string, allowed: AllowList): string {
  // Script and style bodies go with their tags; other removed tags keep their text.
  const noCode = html.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '').replace(/<!--[\s\S]*?-->/g, '');
  let out = '';
  let last = 0;
  for (const m of noCode.matchAll(TAG)) {
    out += escapeText(noCode.slice(last, m.index));
    last = m.index + m[0].length;
    const tag = m[2].toLowerCase();
    if (!Object.hasOwn(allowed, tag)) continue;
    out += m[1] ? `</${tag}>` : `<${tag}${attributes(tag, m[3], allowed[tag])}>`;
  }
  return out + escapeText(noCode.slice(last));
}

/** Text between tags: stray `<` and `>` are escaped, entities already there are kept. */
function escapeText(s: string): string {
  return s.replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
