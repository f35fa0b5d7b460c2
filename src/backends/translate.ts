/**
 * The translate backend: Lintel's own REST pipeline (parse, authenticate, plan, run, shape) as a
 * backend, so that shadow mode can run it beside the legacy origin. Requests of translated
 * namespaces do not go through it: the server calls the pipeline directly.
 */
import { parseQueryString } from '../lib/php-params.ts';
import { errors } from '../contract/error-codes.ts';
import { answerRest } from '../http/rest-handler.ts';
import { locateRest } from '../http/rest-request.ts';
import { restFailure } from './failure.ts';
import type { Services } from '../services.ts';
import type { Backend } from './backend.ts';

/** `services` is read at call time: the backends are built before the route table they answer from. */
export function translateBackend(services: () => Services): Backend {
  return async (call) => {
    const s = services();
    const query = parseQueryString(call.query);
    const loc = locateRest(call.path, query, { restPrefix: s.config.restPrefix, locales: s.mappings.locales });
    if (!loc) return restFailure(s.config)(errors.core.noRoute());
    const input = { method: call.method, headers: call.headers, body: call.body, ip: call.client.ip, log: call.log, comparison: call.comparison };
    const shaped = await answerRest(s, input, loc, query);
    return { status: shaped.status, headers: shaped.headers, body: typeof shaped.body === 'string' ? Buffer.from(shaped.body) : shaped.body };
  };
}
