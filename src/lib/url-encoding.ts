/** Percent-encoding as PHP does it, one place for each way. */

/** PHP's rawurlencode: RFC 3986, so spaces are %20 and !'()* are escaped too. */
export const rawurlencode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A query whose bytes are to be kept as parse_str keeps them, UTF-8 or not (`%FF` stays that byte): each
 * escaped byte over 0x7F becomes the escaped character of that code point (U+00FF), which
 * rawurlencodeBytes writes back as the byte.
 */
export const byteWise = (query: string) => query.replace(/%([89a-f][0-9a-f])/gi, (_, hex: string) => encodeURIComponent(String.fromCharCode(Number.parseInt(hex, 16))));
/** PHP's rawurlencode of text read byteWise (every character under U+0100: a request line holds no raw non-ASCII), a byte each. */
export const rawurlencodeBytes = (text: string) =>
  [...Buffer.from(text, 'latin1')].map((b) => (/[\w.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

/** Percent-decoding that keeps a malformed sequence (`%`, `%zz`) as written instead of throwing. */
export function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** PHP's urldecode: `+` is a space, %XX any byte, a malformed escape kept as written. */
export function urldecode(s: string): string {
  const raw = Buffer.from(s.replace(/\+/g, ' '));
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const hex = raw[i] === 0x25 ? raw.subarray(i + 1, i + 3).toString('latin1') : '';
    if (/^[0-9a-f]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(raw[i]!);
  }
  return Buffer.from(bytes).toString('utf8');
}
