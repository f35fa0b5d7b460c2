/**
 * The oEmbed document of a record of this site, as the legacy site wrote it (key order, width
 * clamp, the blockquote + iframe markup), and its XML form.
 */
import { z } from 'zod';
import { htmlSpecialChars } from '../../lib/legacy-html.ts';
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

export function embedDocument(record: Embeddable, site: EmbedSite, maxwidth: unknown, secret = embedSecret()): Record<string, unknown> {
  const { width, height } = embedSize(maxwidth);
  const title = htmlSpecialChars(record.title);
  const frameTitle = htmlSpecialChars(`\u201c${record.title}\u201d \u2014 ${site.name}`).replace(/\u201c/g, '&#8220;').replace(/\u201d/g, '&#8221;').replace(/\u2014/g, '&#8212;');
  const html =
    `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${htmlSpecialChars(record.permalink)}">${title}</a></blockquote>` +
    `<iframe sandbox="allow-scripts" security="restricted" src="${htmlSpecialChars(record.permalink)}embed/#?secret=${secret}" width="${width}" height="${height}" title="${frameTitle}" data-secret="${secret}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>`;
  return {
    version: '1.0',
    provider_name: site.name,
    provider_url: site.home,
    author_name: record.authorName ?? site.name,
    author_url: record.authorUrl ?? site.home,
    title: record.title,
    type: 'rich',
    width,
    height,
    html,
  };
}

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function xmlNodes(data: Record<string, unknown>): string {
  let out = '';
  for (const [k, v] of Object.entries(data)) {
    // Numeric keys (lists) are not valid element names: PHP writes them as <oembed>.
    const tag = /^\d/.test(k) ? 'oembed' : k;
    if (v !== null && typeof v === 'object') out += `<${tag}>${xmlNodes(v as Record<string, unknown>)}</${tag}>`;
    else out += `<${tag}>${xmlEscape(v === null || v === undefined ? '' : typeof v === 'boolean' ? (v ? '1' : '') : String(v))}</${tag}>`;
  }
  return out;
}

/** The XML form (SimpleXML's output in the legacy site). */
export function oembedXml(data: Record<string, unknown>): string {
  return `<?xml version="1.0"?>\n<oembed>${xmlNodes(data)}</oembed>\n`;
}

export const XML_TYPE = 'text/xml; charset=UTF-8';
