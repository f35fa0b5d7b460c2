/** Lintel's own failures as backend answers: the JSON error body on the REST API, an error page on the site. */
import type { Config } from '../config.ts';
import type { RestError } from '../contract/errors.ts';
import { restHeaders } from '../http/shape.ts';
import { errorPage } from '../lib/html.ts';
import type { BackendAnswer } from './backend.ts';

export function restFailure(config: Pick<Config, 'baseUrl' | 'restPrefix'>) {
  return (e: RestError): BackendAnswer => ({ status: e.status, headers: restHeaders(`${config.baseUrl}/${config.restPrefix}/`), body: Buffer.from(JSON.stringify(e.toBody())) });
}

export function siteFailure(e: RestError): BackendAnswer {
  return { status: e.status, headers: { 'content-type': 'text/html; charset=UTF-8' }, body: Buffer.from(errorPage(e.status, e.message)) };
}
