/**
 * The site's redirect edge: requests outside the REST prefix are matched against the enabled
 * redirects of the WordPress module, as the legacy plugin does on every front-end request. A
 * request nothing answers is a 404 (and a 404 log row), or goes to `unmatched` when one is given
 * (the hook for forwarding to the legacy origin).
 */
import { parseCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../auth/basic.ts';
import { RestError } from '../contract/errors.ts';
import { safeDecode } from '../contract/url-encoding.ts';
import { can, type Capability, type User } from '../auth/roles.ts';
import type { Services } from '../services.ts';
import type { SiteHandler } from '../site/site-handler.ts';
import { escapeHtml } from '../site/html.ts';
import { SITE_MODULE } from '../namespaces/redirection/records.ts';
import { FLAG_QUERY, type NewNotFoundRow, type RedirectionSettings, type SourceFlags } from '../store/redirection/rows.ts';
import { defaultRedirectionSettings } from '../store/redirection/settings.ts';
import { upstreamFetcher } from '../upstream/fetch.ts';
import { matchRequest, type EdgeDecision, type EdgeRequest } from './match.ts';
import { RuleIndex, siteRule } from './rules.ts';
import { WriteQueue } from './writes.ts';

export interface EdgeOptions {
  /** How long a loaded rule set is used before it is reloaded, so replicas converge (ms). */
  ttlMs?: number;
  /** Answers a request no rule handles; the default is the site's 404 page. */
  unmatched?: (req: FastifyRequest, reply: FastifyReply, url: string) => Promise<void>;
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

/** What the edge obeys of the plugin settings. */
interface EdgeSettings {
  flags: SourceFlags;
  expireRedirect: number;
  expire404: number;
  trackHits: boolean;
  ipLogging: number;
  logHeader: boolean;
}

interface Loaded {
  index: RuleIndex;
  settings: EdgeSettings;
  at: number;
}

const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : d);

/**
 * The settings as the edge obeys them. A setting the stored value lacks reads as the plugin's
 * default, as the API reads it; one of the wrong type (an imported legacy value) too.
 */
function edgeSettings(s: RedirectionSettings): EdgeSettings {
  const d = defaultRedirectionSettings;
  return {
    flags: {
      flag_query: (FLAG_QUERY as readonly unknown[]).includes(s.flag_query) ? s.flag_query : d.flag_query,
      flag_case: typeof s.flag_case === 'boolean' ? s.flag_case : d.flag_case,
      flag_trailing: typeof s.flag_trailing === 'boolean' ? s.flag_trailing : d.flag_trailing,
      flag_regex: typeof s.flag_regex === 'boolean' ? s.flag_regex : d.flag_regex,
    },
    expireRedirect: num(s.expire_redirect, d.expire_redirect),
    expire404: num(s.expire_404, d.expire_404),
    trackHits: s.track_hits !== false,
    ipLogging: num(s.ip_logging, d.ip_logging),
    logHeader: s.log_header === true,
  };
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);
const HOUR = 3_600_000;
const DAY = 86_400_000;

export function notFoundHtml(siteName: string): string {
  const esc = escapeHtml(siteName);
  return `<!DOCTYPE html>\n<html lang="en-US">\n<head>\n<meta charset="UTF-8" />\n<title>Page not found &#8211; ${esc}</title>\n</head>\n<body>\n<h1>Page not found</h1>\n</body>\n</html>\n`;
}

const clip = (s: string | undefined, n: number) => (s === undefined ? null : s.slice(0, n));

function anonymise(ip: string): string {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(ip)) return ip.replace(/\.\d+$/, '.0');
  return ip.replace(/:[0-9a-f]*$/i, ':0');
}

const edges = new WeakMap<Services['store'], Edge>();

/**
 * The one edge of a running app (its loaded rules and write queue are shared by every request).
 * Keyed by the store: the route factories and the site handlers get different services objects
 * of the same app, and a rule write must invalidate the index the site serves from.
 */
export function edgeFor(services: Services, opts?: EdgeOptions): Edge {
  let e = edges.get(services.store);
  if (!e) edges.set(services.store, (e = createEdge(services, opts)));
  return e;
}

export function createEdge(services: Services, opts: EdgeOptions = {}): Edge {
  const { settings: pluginSettings, redirects, logs } = services.store.redirection;
  const writes = new WriteQueue(services.log);
  // Pass-through targets are outbound fetches like any other: the same SSRF guard, size cap and time limit.
  const fetchUpstream = upstreamFetcher(services.config);
  const ttl = opts.ttlMs ?? 2_000;
  let loaded: Loaded | null = null;
  let loading: Promise<Loaded> | null = null;
  let expiredAt = 0;

  async function rules(): Promise<Loaded> {
    if (loaded && Date.now() - loaded.at < ttl) return loaded;
    // One reload at a time; concurrent requests share it.
    loading ??= (async () => {
      const settings = edgeSettings(await pluginSettings.get());
      const index = new RuleIndex((await redirects.ofModule(SITE_MODULE)).map((r) => siteRule(r, settings.flags)));
      loaded = { index, settings, at: Date.now() };
      return loaded;
    })().finally(() => {
      loading = null;
    });
    return loading;
  }

  async function userOf(req: FastifyRequest): Promise<User | null> {
    try {
      return await authenticate(services, req.headers.authorization, req.ip);
    } catch {
      return null;
    }
  }

  function logRow(req: FastifyRequest, settings: EdgeSettings, url: string, code: number, at: Date): NewNotFoundRow {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const ip = settings.ipLogging === 0 ? '' : settings.ipLogging === 2 ? anonymise(req.ip) : req.ip;
    const method = req.method.toUpperCase();
    return {
      created: at,
      url: url.slice(0, 2000),
      domain: `${req.protocol}://${host}`.slice(0, 255),
      agent: clip(req.headers['user-agent'], 255),
      referrer: clip(req.headers.referer, 255),
      ip: ip.slice(0, 45),
      httpCode: code,
      requestMethod: METHODS.has(method) ? method : '',
      requestData: settings.logHeader ? { headers: req.headers } : null,
    };
  }

  function sideEffects(req: FastifyRequest, settings: EdgeSettings, url: string, d: EdgeDecision): void {
    // As the plugin counts: only actions that need a target (url, pass) record a visit.
    if (d.action !== 'url' && d.action !== 'pass') return;
    const now = services.clock.now();
    if (settings.trackHits) writes.push('hit', () => redirects.recordHit(d.rule.redirect.id, now));
    if (settings.expireRedirect !== -1 && !d.rule.logExclude) {
      const row = { ...logRow(req, settings, url, d.code, now), sentTo: d.target, redirectBy: 'redirection', redirectionId: d.rule.redirect.id };
      writes.push('log', async () => void (await logs.insertLog(row)));
    }
    expire(settings, now);
  }

  function expire(settings: EdgeSettings, now: Date): void {
    if (Date.now() - expiredAt < HOUR) return;
    expiredAt = Date.now();
    // Log rows older than the configured days go (0 keeps them forever).
    writes.push('expire', async () => {
      if (settings.expireRedirect > 0) await logs.expire('log', new Date(now.getTime() - settings.expireRedirect * DAY));
      if (settings.expire404 > 0) await logs.expire('404', new Date(now.getTime() - settings.expire404 * DAY));
    });
  }

  async function notFound(req: FastifyRequest, reply: FastifyReply, settings: EdgeSettings, url: string, log: boolean): Promise<void> {
    // A request handed on is the legacy site's to answer (and to log as a 404 if it is one).
    if (opts.unmatched) return opts.unmatched(req, reply, url);
    if (log && settings.expire404 !== -1) {
      const now = services.clock.now();
      const row = logRow(req, settings, url, 404, now);
      writes.push('404', async () => void (await logs.insert404(row)));
      expire(settings, now);
    }
    const site = await services.store.options.site();
    await reply.code(404).type('text/html; charset=UTF-8').send(notFoundHtml(site.name));
  }

  async function errorPage(reply: FastifyReply, code: number): Promise<void> {
    const site = await services.store.options.site();
    await reply.code(code).header('X-Redirect-By', 'redirection').type('text/html; charset=UTF-8').send(notFoundHtml(site.name));
  }

  async function pass(req: FastifyRequest, reply: FastifyReply, settings: EdgeSettings, target: string): Promise<void> {
    if (/^https?:\/\//i.test(target)) {
      // An external target is fetched and its body echoed, as the plugin's pass-through does.
      try {
        const res = await fetchUpstream(target);
        await reply.code(res.status).type(res.headers['content-type'] ?? 'text/html; charset=UTF-8').send(res.body);
      } catch (e) {
        if (!(e instanceof RestError)) throw e;
        services.log.warn({ target, code: e.code }, 'pass-through target refused or unreachable');
        await reply.code(502).type('text/html; charset=UTF-8').send(notFoundHtml((await services.store.options.site()).name));
      }
      return;
    }
    // An internal target is served as if it had been requested.
    await notFound(req, reply, settings, target, true);
  }

  const handler: SiteHandler = async (req, reply, pathname) => {
    const { index, settings } = await rules();
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
    sideEffects(req, settings, url, d);
    switch (d.action) {
      case 'url':
        await reply.code(d.code).header('X-Redirect-By', 'redirection').header('Location', d.target).type('text/html; charset=UTF-8').send('');
        break;
      case 'random': {
        const target = opts.randomTarget ? await opts.randomTarget() : '/';
        await reply.code(d.code).header('X-Redirect-By', 'redirection').header('Location', target).type('text/html; charset=UTF-8').send('');
        break;
      }
      case 'error':
        await errorPage(reply, d.code);
        break;
      case 'pass':
        await pass(req, reply, settings, d.target);
        break;
      default:
        // `nothing`: the request goes on as if no rule existed, but is not logged as a 404.
        await notFound(req, reply, settings, url, false);
    }
    return true;
  };

  return {
    handler,
    invalidate: () => {
      loaded = null;
    },
    flush: () => writes.flush(),
  };
}
