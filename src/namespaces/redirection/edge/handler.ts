/**
 * The site's redirect edge: requests outside the REST prefix are matched against the enabled
 * redirects of the WordPress module, as the legacy plugin does on every front-end request. A
 * request nothing answers is a 404 (and a 404 log row), or goes to `unmatched` when one is given
 * (the hook for forwarding to the legacy origin).
 */
import { parseCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../../../auth/basic.ts';
import { safeDecode } from '../../../lib/url-encoding.ts';
import { can, type Capability, type User } from '../../../lib/roles.ts';
import type { Services } from '../../../services.ts';
import type { SiteHandler } from '../../../http/site-handler.ts';
import { HitLog } from './hit-log.ts';
import { matchRequest, type EdgeRequest } from './match.ts';
import { createPassThrough, isExternalTarget } from './pass-through.ts';
import { sendErrorPage, sendNotFound, sendRedirect } from './responses.ts';
import { calendarDiscovery } from '../../../http/calendar-discovery.ts';
import { RuleCache } from './rule-cache.ts';
import type { EdgeSettings } from './settings.ts';

export interface EdgeOptions {
  /** How long a loaded rule set is used before it is reloaded, so replicas converge (ms). */
  ttlMs?: number;
  /** Answers a request no rule handles and returns true, or returns false to leave it to the site's 404 page. */
  unmatched?: (req: FastifyRequest, reply: FastifyReply, url: string) => Promise<boolean>;
  /** The target of a `random` action (the plugin picks a random published post). */
  randomTarget?: () => Promise<string>;
}

export interface Edge {
  handler: SiteHandler;
  /** Drops the loaded rules so the next request reloads them (after a change in this process). */
  invalidate(): void;
  /** Waits for queued hits and log rows. */
  flush(): Promise<void>;
}

export function createEdge(services: Services, opts: EdgeOptions = {}): Edge {
  const rules = new RuleCache(services.store.redirection, opts.ttlMs ?? 2_000);
  const hits = new HitLog(services);
  const passThrough = createPassThrough(services);

  const discovery = calendarDiscovery(services.config);
  const pageSite = async () => ({ name: (await services.store.options.site()).name, headers: discovery });

  async function userOf(req: FastifyRequest): Promise<User | null> {
    try {
      return await authenticate(services, req.headers.authorization, req.ip);
    } catch {
      return null;
    }
  }

  async function notFound(req: FastifyRequest, reply: FastifyReply, settings: EdgeSettings, url: string, log: boolean): Promise<void> {
    // A request handed on is the legacy site's to answer (and to log as a 404 if it is one).
    if (opts.unmatched && (await opts.unmatched(req, reply, url))) return;
    if (log) hits.notFound(req, settings, url);
    await sendNotFound(reply, await pageSite());
  }

  const handler: SiteHandler = async (req, reply, pathname) => {
    const { index, settings } = await rules.get();
    const q = req.url.indexOf('?');
    const rawQuery = q < 0 ? '' : req.url.slice(q + 1);
    // The "original" URL of the logs: the decoded path plus the raw query.
    const decoded = safeDecode(pathname);
    const url = rawQuery === '' ? decoded : `${decoded}?${rawQuery}`;
    const needsUser = index.size > 0;
    const user = needsUser && req.headers.authorization ? await userOf(req) : null;
    const cookies = parseCookie(req.headers.cookie ?? '');
    const edgeReq: EdgeRequest = {
      method: req.method,
      path: pathname,
      query: rawQuery,
      host: req.headers.host ?? '',
      ip: req.ip,
      header: (name) => {
        const v = req.headers[name.toLowerCase()];
        return Array.isArray(v) ? v.join(', ') : v;
      },
      cookie: (name) => cookies[name],
      loggedIn: user !== null,
      hasRole: (role) => user !== null && (user.role === role || can(user, role as Capability)),
    };
    const d = matchRequest(index, edgeReq);
    if (!d) {
      await notFound(req, reply, settings, url, true);
      return true;
    }
    hits.visit(req, settings, url, d);
    const cache = { hours: settings.redirectCacheHours, now: services.clock.now() };
    switch (d.action) {
      case 'url':
        await sendRedirect(reply, d.code, d.target, cache);
        break;
      case 'random':
        await sendRedirect(reply, d.code, opts.randomTarget ? await opts.randomTarget() : '/', cache);
        break;
      case 'error':
        await sendErrorPage(reply, d.code, await pageSite());
        break;
      case 'pass':
        if (isExternalTarget(d.target)) await passThrough(reply, d.target);
        // An internal target is served as if it had been requested.
        else await notFound(req, reply, settings, d.target, true);
        break;
      default:
        // `nothing`: the request goes on as if no rule existed, but is not logged as a 404.
        await notFound(req, reply, settings, url, false);
    }
    return true;
  };

  return {
    handler,
    invalidate: () => rules.invalidate(),
    flush: () => hits.flush(),
  };
}
