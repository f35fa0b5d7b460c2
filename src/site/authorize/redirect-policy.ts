/**
 * Where the authorize page may send the user back to. The success URL receives a new application
 * password in its query, so only destinations that cannot leak it to a third party are accepted.
 */
import { rawurlencode } from '../../lib/url-encoding.ts';

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Where the page may send the user (with a password in the query): https, an app's own scheme, or
 * http to this machine. The raw text is checked before parsing, because URL parsing silently drops
 * tabs and newlines (`java\nscript:` would become `javascript:`).
 */
export function redirectUrlProblem(raw: string): string | null {
  if (raw === '') return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u0020\u007f]/.test(raw) || !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(raw)) return 'must be a full URL with a scheme and a host';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be a full URL with a scheme and a host';
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'javascript' || scheme === 'data' || scheme === 'vbscript') return `may not use the ${scheme}: scheme`;
  if (!url.hostname) return 'must be a full URL with a scheme and a host';
  if (url.username || url.password) return 'may not contain a user name or password';
  if (scheme === 'http' && !LOOPBACK.has(url.hostname)) {
    return 'must be served over a secure connection (https, an app\'s own scheme, or http to 127.0.0.1, [::1] or localhost)';
  }
  return null;
}

/** The URL with `pairs` added to its query (before any fragment). */
export function addQuery(target: string, pairs: [string, string][]): string {
  const url = new URL(target);
  const hash = url.hash;
  url.hash = '';
  const base = url.href;
  const sep = url.search ? '&' : base.endsWith('?') ? '' : '?';
  return base + sep + pairs.map(([k, v]) => `${k}=${rawurlencode(v)}`).join('&') + hash;
}
