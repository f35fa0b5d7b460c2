/**
 * The `html` of a remote oEmbed document reaches an editor's browser: only links, blockquotes and
 * iframes survive, with a short list of attributes, http(s) addresses, and iframes sandboxed
 * (the legacy site's wp_filter_oembed_result keeps the same three elements).
 */
import { escapeHtml } from './document.ts';

const ALLOWED: Record<string, readonly string[]> = {
  a: ['href', 'title', 'target'],
  blockquote: ['cite', 'class', 'lang'],
  iframe: ['src', 'width', 'height', 'title', 'frameborder', 'marginwidth', 'marginheight', 'scrolling', 'class', 'allow', 'allowfullscreen', 'referrerpolicy'],
};
const URL_ATTRS = new Set(['href', 'src', 'cite']);
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>\/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*)\s*\/?>/g;
const ATTR = /([^\s"'>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

function decodeEntities(s: string): string {
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

function attributes(tag: string, raw: string): string {
  const allowed = ALLOWED[tag];
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

export function sanitizeEmbedHtml(html: string): string {
  // Script and style bodies go with their tags; other removed tags keep their text.
  const noCode = html.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '').replace(/<!--[\s\S]*?-->/g, '');
  let out = '';
  let last = 0;
  for (const m of noCode.matchAll(TAG)) {
    out += escapeText(noCode.slice(last, m.index));
    last = m.index + m[0].length;
    const tag = m[2].toLowerCase();
    if (!(tag in ALLOWED)) continue;
    out += m[1] ? `</${tag}>` : `<${tag}${attributes(tag, m[3])}>`;
  }
  return out + escapeText(noCode.slice(last));
}

/** Text between tags: stray `<` and `>` are escaped, entities already there are kept. */
function escapeText(s: string): string {
  return s.replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
