/** A `pass` action's external target: fetched and its body echoed, as the plugin's pass-through does. */
import type { FastifyReply } from 'fastify';
import { RestError } from '../../../contract/errors.ts';
import type { Services } from '../../../services.ts';
import { upstreamFetcher } from '../../../upstream/fetch.ts';
import { HTML, notFoundHtml } from './responses.ts';

/** Only an http(s) URL leaves the site; any other target is one of its own paths. */
export const isExternalTarget = (target: string) => /^https?:\/\//i.test(target);

export type PassThrough = (reply: FastifyReply, target: string) => Promise<void>;

export function createPassThrough(services: Services): PassThrough {
  // Pass-through targets are outbound fetches like any other: the same SSRF guard, size cap and time limit.
  const fetchUpstream = upstreamFetcher(services.config);
  return async (reply, target) => {
    try {
      const res = await fetchUpstream(target);
      await reply.code(res.status).type(res.headers['content-type'] ?? HTML).send(res.body);
    } catch (e) {
      if (!(e instanceof RestError)) throw e;
      services.log.warn({ target, code: e.code }, 'pass-through target refused or unreachable');
      await reply.code(502).type(HTML).send(notFoundHtml((await services.store.options.site()).name));
    }
  };
}
