/**
 * HTML from others reaches readers' browsers only through sanitize-html (a maintained parser, not a
 * pattern): the `html` of a remote oEmbed document keeps the legacy wp_filter_oembed_result's three
 * elements (links, blockquotes, iframes) with a short list of attributes, http(s) addresses, and
 * iframes sandboxed; an event's description keeps what the legacy site's wp_kses_post allows
 * (`kses-post.json`, read from WordPress 7.0.4's kses.php: its tags and attributes, `style` left out
 * since WordPress filters its CSS, which an attribute list cannot), with WordPress's URL schemes.
 */
import sanitize from 'sanitize-html';
import ksesPost from './kses-post.json' with { type: 'json' };
import { WP_ALLOWED_PROTOCOLS } from '../../lib/esc-url.ts';

const EMBED: sanitize.IOptions = {
  allowedTags: ['a', 'blockquote', 'iframe'],
  allowedAttributes: {
    a: ['href', 'title', 'target'],
    blockquote: ['cite', 'class', 'lang'],
    // sandbox and security are Lintel's own, set below over any the provider sent.
    iframe: ['src', 'width', 'height', 'title', 'frameborder', 'marginwidth', 'marginheight', 'scrolling', 'class', 'allow', 'allowfullscreen', 'referrerpolicy', 'sandbox', 'security'],
  },
  allowedSchemes: ['http', 'https'],
  allowProtocolRelative: false,
  transformTags: {
    iframe: (tagName, attribs) => ({ tagName, attribs: { ...attribs, sandbox: 'allow-scripts allow-same-origin allow-popups', security: 'restricted' } }),
  },
};

const DESCRIPTION: sanitize.IOptions = {
  allowedTags: Object.keys(ksesPost),
  allowedAttributes: ksesPost as Record<string, string[]>,
  allowedSchemes: WP_ALLOWED_PROTOCOLS,
  allowProtocolRelative: false,
};

export const sanitizeEmbedHtml = (html: string) => sanitize(html, EMBED);
export const sanitizeDescriptionHtml = (html: string) => sanitize(html, DESCRIPTION);
