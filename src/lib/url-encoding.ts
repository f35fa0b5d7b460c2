/** Percent-encoding as PHP does it, one place for each way. */

/** PHP's rawurlencode: RFC 3986, so spaces are %20 and !'()* are escaped too. */
export const rawurlencode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Percent-decoding that keeps a malformed sequence (`%`, `%zz`) as written instead of throwing. */
export function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
