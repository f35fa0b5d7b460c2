/**
 * The oEmbed document of a record of this site, as the legacy site wrote it (key order, width
 * clamp, the blockquote + iframe markup), and its XML form.
 */
import { z } from 'zod';
import { escHtml, htmlSpecialChars } from '../../lib/legacy-html.ts';
import { texturize } from '../../lib/wordpress-text.ts';
import { randomAlnum } from '../../random.ts';
import type { Embeddable } from './embeddable.ts';

export interface EmbedSite {
  name: string;
  home: string;
}

/** The secret that pairs the blockquote with its iframe: 10 random letters and digits. */
export function embedSecret(): string {
  return randomAlnum(10);
}

/**
 * PHP's absint, `abs((int) $v)`, the sanitize callback of the oEmbed widths: a string's leading
 * number (0 without one), 1 for a non-empty array; never an error.
 */
export function absint(v: unknown): number {
  let n = 0;
  if (typeof v === 'number' || typeof v === 'boolean') n = Number(v);
  else if (typeof v === 'string') n = Number(/^[ \t\n\r\v\f]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(v)?.[0].trim() ?? 0);
  else if (v !== null && typeof v === 'object') n = Object.keys(v).length ? 1 : 0;
  // PHP casts an infinite or non-numeric float to 0.
  return Number.isFinite(n) ? Math.abs(Math.trunc(n)) : 0;
}

/** Width between 200 and 600 (absint of what was asked); height 16:9 of it, at least 200. */
export function embedSize(maxwidth: unknown): { width: number; height: number } {
  const asked = absint(maxwidth);
  const width = Math.min(Math.max(200, asked), 600);
  return { width, height: Math.max(Math.ceil((width * 9) / 16), 200) };
}

/**
 * An oEmbed response (oEmbed 1.0 §2.3.4): this site's documents are `rich`; a proxied provider's
 * may be any type, with its own extra fields. With `format=xml` the same fields come as XML.
 */
export const OembedDocument = z.looseObject({
  version: z.literal('1.0'), type: z.enum(['rich', 'video', 'photo', 'link']), provider_name: z.string().optional(), provider_url: z.string().optional(),
  author_name: z.string().optional(), author_url: z.string().optional(), title: z.string().optional(),
  width: z.int().nullable().optional(), height: z.int().nullable().optional(), html: z.string().optional(), url: z.string().optional(),
  thumbnail_url: z.string().optional(), thumbnail_width: z.int().optional(), thumbnail_height: z.int().optional(),
}).meta({ id: 'OembedDocument' });

/**
 * get_post_embed_html: the link shows the title as get_the_title gives it (texturized HTML, references
 * kept), the iframe's title is esc_attr of `“title” — site`. A title holding `<` is escaped in the link
 * (oembed-title-markup): Lintel keeps titles as sent, and the html is pasted into other sites' pages.
 */
export function embedDocument(record: Embeddable, site: EmbedSite, maxwidth: unknown, secret = embedSecret()): Record<string, unknown> {
  const { width, height } = embedSize(maxwidth);
  const title = texturize(record.title);
  const linkText = title.includes('<') ? escHtml(title) : title;
  const frameTitle = escHtml(`&#8220;${title}&#8221; &#8212; ${site.name}`);
  const html =
    `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${htmlSpecialChars(record.permalink)}">${linkText}</a></blockquote>` +
    `<iframe sandbox="allow-scripts" security="restricted" src="${htmlSpecialChars(record.permalink)}embed/#?secret=${secret}" width="${width}" height="${height}" title="${frameTitle}" data-secret="${secret}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>`;
  return {
    version: '1.0',
    provider_name: site.name,
    provider_url: site.home,
    author_name: record.authorName ?? site.name,
    author_url: record.authorUrl ?? site.home,
    title,
    type: 'rich',
    width,
    height,
    html,
  };
}

/** A character as libxml writes it in text: `& < >` and a carriage return escaped, a non-ASCII one as a hex reference. */
function xmlChar(c: string): string {
  const cp = c.codePointAt(0)!;
  if (cp > 0x7f) return `&#x${cp.toString(16).toUpperCase()};`;
  return c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '\r' ? '&#13;' : c;
}

const XML_NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * A value as the legacy XML holds it: SimpleXML's addChild(esc_html(value)), written by asXML. libxml reads
 * the references esc_html leaves (XML's five names and numeric ones become characters; other names, such
 * as `&nbsp;`, stay references, which XML does not define) and writes the text back.
 */
function xmlText(value: string): string {
  return escHtml(value).replace(/&(?:(amp|lt|gt|quot|apos)|#([0-9]+)|#[xX]([0-9a-fA-F]+));|[^\p{ASCII}]|\r/gu, (m, name?: string, dec?: string, hex?: string) => {
    if (name) return xmlChar(XML_NAMED[name]);
    if (dec || hex) return xmlChar(String.fromCodePoint(dec ? Number(dec) : parseInt(hex!, 16)));
    return xmlChar(m);
  });
}

function xmlNodes(data: Record<string, unknown>): string {
  let out = '';
  for (const [k, v] of Object.entries(data)) {
    // Numeric keys (lists) are not valid element names: PHP writes them as <oembed>.
    const tag = /^\d/.test(k) ? 'oembed' : k;
    if (v !== null && typeof v === 'object') out += `<${tag}>${xmlNodes(v as Record<string, unknown>)}</${tag}>`;
    else out += `<${tag}>${xmlText(v === null || v === undefined ? '' : typeof v === 'boolean' ? (v ? '1' : '') : String(v))}</${tag}>`;
  }
  return out;
}

/** The XML form (SimpleXML's output in the legacy site). */
export function oembedXml(data: Record<string, unknown>): string {
  return `<?xml version="1.0"?>\n<oembed>${xmlNodes(data)}</oembed>\n`;
}

export const XML_TYPE = 'text/xml; charset=UTF-8';
