/** WordPress's URL sanitizing: esc_url_raw, as it cleans a `uri` argument before any handler reads it, and wp_redirect's. */
import { phpLtrim, phpTrim } from './legacy-html.ts';
import { rawurlencode } from './url-encoding.ts';

/** wp_allowed_protocols(). */
export const WP_ALLOWED_PROTOCOLS = ['http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp', 'feed', 'telnet', 'mms', 'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn'];

/**
 * esc_url_raw: spaces become `%20` and every character a URL may not hold is dropped (control
 * characters, a NUL byte included, quotes, `<>{}^\``), as are encoded line breaks; a URL without a
 * scheme gets `http://`; brackets after the host are percent-encoded (parse_url's reading of
 * a malformed authority, brackets and `@` together, is not copied); a scheme WordPress does not
 * allow makes the whole URL empty.
 */
export function escUrlRaw(raw: string): string {
  let url = phpLtrim(raw).replaceAll(' ', '%20');
  url = url.replace(/[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\u{10FFFF}]/giu, '');
  if (url === '') return url;
  if (!/^mailto:/i.test(url)) url = deepReplace(url, /%0[da]/gi);
  url = url.replaceAll(';//', '://');
  if (!url.includes(':') && !['/', '#', '?'].includes(url[0]!) && !/^[a-z0-9-]+?\.php/i.test(url)) url = `http://${url}`;
  if (url.includes('[') || url.includes(']')) {
    const front = /^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/?#]*/i.exec(url)?.[0] ?? '';
    url = front + url.slice(front.length).replaceAll('[', '%5B').replaceAll(']', '%5D');
  }
  return url[0] === '/' ? url : withAllowedProtocol(url);
}

/**
 * wp_sanitize_redirect, which wp_redirect applies to every Location it sends: spaces become `%20`,
 * UTF-8 characters their upper-case octets, every other character a URL may not hold is dropped
 * (control characters, line breaks and lone surrogates included, quotes, `<>{}^\`|$`), and so are
 * encoded line breaks: no header can be injected, whatever the request's address held.
 */
export function wpSanitizeRedirect(location: string): string {
  const url = location
    .replaceAll(' ', '%20')
    .replace(/[\u0080-\uD7FF\uE000-\u{10FFFF}]+/gu, rawurlencode)
    .replace(/[^a-z0-9\-~+_.?#=&;,/:%!*[\]()@]/gi, '');
  return deepReplace(url, /%0[da]/gi);
}

/** _deep_replace: removes the pattern until none is left (`%0%0dd` is not left as `%0d`). */
function deepReplace(s: string, pattern: RegExp): string {
  let out = s;
  while (pattern.test(out)) out = out.replace(pattern, '');
  return out;
}


/** esc_url's protocol check: the URL with its scheme lower-cased, or '' when a scheme is not allowed. */
function withAllowedProtocol(url: string): string {
  const good = badProtocol(url);
  return good.toLowerCase() === url.toLowerCase() ? good : '';
}

/** wp_kses_bad_protocol: the scheme check repeated until nothing changes (at most 6 times). */
function badProtocol(url: string): string {
  if (url.startsWith('https://') || url.startsWith('http://')) return url;
  let content = url;
  for (let i = 0; i < 6; i++) {
    const next = badProtocolOnce(content, 1);
    if (next === content) return next;
    content = next;
  }
  return '';
}

/** wp_kses_bad_protocol_once: the text before the first colon (or an entity for one) is a scheme, kept only if allowed. */
function badProtocolOnce(text: string, count: number): string {
  const content = text.replace(/(&#0*58(?![;0-9])|&#x0*3a(?![;a-f0-9]))/gi, '$1;');
  const split = /:|&#0*58;|&#x0*3a;|&colon;/i.exec(content);
  if (!split) return content;
  const before = content.slice(0, split.index);
  if (before.includes('/?')) return content;
  let rest = phpTrim(content.slice(split.index + split[0].length));
  const scheme = decodeNumericEntities(before).replace(/\s/g, '').replaceAll('\0', '').toLowerCase();
  const protocol = WP_ALLOWED_PROTOCOLS.includes(scheme) ? `${scheme}:` : '';
  if (protocol === 'feed:') {
    if (count > 2) return '';
    rest = badProtocolOnce(rest, count + 1);
    if (rest === '' || rest === '0') return rest;
  }
  return protocol + rest;
}

/** wp_kses_decode_entities: numeric entities only, each one byte (PHP's chr). */
function decodeNumericEntities(s: string): string {
  return s
    .replace(/&#(0*[0-9]{1,7});/g, (_, d: string) => String.fromCharCode(Number(d) % 256))
    .replace(/&#[Xx](0*[0-9A-Fa-f]{1,6});/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16) % 256));
}
