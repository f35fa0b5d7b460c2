/** Lintel's own failures as backend answers: the JSON error body on the REST API, an error page on the site. */
import type { Config } from '../config.ts';
import type { RestError } from '../contract/errors.ts';
import { isJsonMediaType } from '../http/rest-request.ts';
import { NO_CACHE, restHeaders } from '../http/shape.ts';
import { errorPage } from '../lib/html.ts';
import type { BackendAnswer } from './backend.ts';

export function restFailure(config: Pick<Config, 'baseUrl' | 'restPrefix'>) {
  return (e: RestError): BackendAnswer => ({ status: e.status, headers: restHeaders(`${config.baseUrl}/${config.restPrefix}/`), body: Buffer.from(JSON.stringify(e.toBody())) });
}

export function siteFailure(e: RestError): BackendAnswer {
  return { status: e.status, headers: { 'content-type': 'text/html; charset=UTF-8' }, body: Buffer.from(errorPage(e.status, e.message)) };
}

/**
 * An error WordPress raises with wp_die() before it knows the request is a REST one (parse_request):
 * its JSON handler answers a client that accepts or sends JSON (wp_is_json_request), the HTML page any other.
 */
export function earlyFailure(e: RestError, accept: string | undefined, contentType: string | undefined): BackendAnswer {
  if (!isJsonMediaType(accept) && !isJsonMediaType(contentType)) return siteFailure(e);
  return { status: e.status, headers: { 'content-type': 'application/json; charset=UTF-8', ...NO_CACHE }, body: Buffer.from(JSON.stringify(e.toBody())) };
}
