/**
 * A forwarded call reaches the route Lintel chose for it, and no other. WordPress routes by its
 * `rest_route` query variable before the path, and reads it from the form body too (`$_POST` wins over
 * `$_GET`), so a client could name any route of the legacy site behind a forwarded namespace
 * (`/wp-json/history/v1/events?rest_route=/wp/v2/users`). Every parameter PHP could read as
 * `rest_route` is stripped from the query and a form body (and from a JSON body, which WordPress
 * ignores today), and the one Lintel routed by, if any, is put back alone; a multipart body naming it
 * is refused, since rewriting it is not worth its risk.
 */
import { errors } from '../contract/error-codes.ts';
import type { RestError } from '../contract/errors.ts';
import { headerOf, type BackendCall } from './backend.ts';
import { decodeSafe } from './rename.ts';

/**
 * Whether PHP could register a parameter name as `rest_route`: it drops leading spaces, stops at a NUL,
 * turns `.`, spaces and an unclosed `[` into `_`. Any name that spells "restroute" once its other
 * characters are gone (any case) is taken for it: none of the contract's parameters does.
 */
export function namesRestRoute(rawName: string): boolean {
  return decodeSafe(rawName).replace(/[^a-z0-9]/gi, '').toLowerCase().startsWith('restroute');
}

/** A query string (or urlencoded body) without the pairs PHP could read as `rest_route`. */
export function withoutRestRoute(query: string): string {
  if (!/r/i.test(query)) return query;
  return query
    .split('&')
    .filter((pair) => !namesRestRoute(pair.split('=', 1)[0]))
    .join('&');
}

const FORM = /^application\/x-www-form-urlencoded/i;
const MULTIPART = /^multipart\/form-data/i;
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/i;

/** The call's body without `rest_route`, or the refusal of a multipart body that names it. */
export function confinedBody(call: BackendCall): Buffer | undefined | RestError {
  const body = call.body;
  if (!body || body.length === 0) return body;
  const type = headerOf(call.headers, 'content-type') ?? '';
  const text = body.toString('latin1');
  if (type === '' || FORM.test(type)) {
    const kept = withoutRestRoute(text);
    return kept === text ? body : Buffer.from(kept, 'latin1');
  }
  if (MULTIPART.test(type)) {
    const names = [...text.matchAll(/content-disposition:[^\r\n]*?\bname="([^"]*)"/gi)].map((m) => m[1]);
    return names.some(namesRestRoute) ? errors.legacy.routeNamed() : body;
  }
  if (JSON_TYPE.test(type)) {
    try {
      const value: unknown = JSON.parse(body.toString('utf8'));
      if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).some(namesRestRoute)) {
        return Buffer.from(JSON.stringify(Object.fromEntries(Object.entries(value).filter(([k]) => !namesRestRoute(k)))));
      }
    } catch {
      // Not JSON: the origin reports that itself.
    }
  }
  return body;
}
