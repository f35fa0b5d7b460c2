/**
 * What an edge request records, as the plugin does: a redirect's hit and log row, a 404 row, and
 * the hourly expiry of old rows. All of it goes through the write queue, off the request path.
 */
import type { FastifyRequest } from 'fastify';
import type { Services } from '../../../services.ts';
import type { NewNotFoundRow } from '../../../store/redirection/rows.ts';
import type { EdgeDecision } from './match.ts';
import type { EdgeSettings } from './settings.ts';
import { WriteQueue } from './writes.ts';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);
const HOUR = 3_600_000;
const DAY = 86_400_000;

const clip = (s: string | undefined, n: number) => (s === undefined ? null : s.slice(0, n));

function anonymise(ip: string): string {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(ip)) return ip.replace(/\.\d+$/, '.0');
  return ip.replace(/:[0-9a-f]*$/i, ':0');
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

export class HitLog {
  private readonly writes: WriteQueue;
  private readonly redirection: Services['store']['redirection'];
  private expiredAt = 0;

  private readonly services: Services;
  constructor(services: Services) {
    this.services = services;
    this.writes = new WriteQueue(services.log);
    this.redirection = services.store.redirection;
  }

  /** A matched rule's visit. */
  visit(req: FastifyRequest, settings: EdgeSettings, url: string, d: EdgeDecision): void {
    // As the plugin counts: only actions that need a target (url, pass) record a visit.
    if (d.action !== 'url' && d.action !== 'pass') return;
    const { redirects, logs } = this.redirection;
    const now = this.services.clock.now();
    if (settings.trackHits) this.writes.push('hit', () => redirects.recordHit(d.rule.redirect.id, now));
    if (settings.expireRedirect !== -1 && !d.rule.logExclude) {
      const row = { ...logRow(req, settings, url, d.code, now), sentTo: d.target, redirectBy: 'redirection', redirectionId: d.rule.redirect.id };
      this.writes.push('log', async () => void (await logs.insertLog(row)));
    }
    this.expire(settings, now);
  }

  /** A request nothing answered, unless the 404 log is off. */
  notFound(req: FastifyRequest, settings: EdgeSettings, url: string): void {
    if (settings.expire404 === -1) return;
    const { logs } = this.redirection;
    const now = this.services.clock.now();
    const row = logRow(req, settings, url, 404, now);
    this.writes.push('404', async () => void (await logs.insert404(row)));
    this.expire(settings, now);
  }

  /** Waits for queued hits and log rows. */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  private expire(settings: EdgeSettings, now: Date): void {
    if (Date.now() - this.expiredAt < HOUR) return;
    this.expiredAt = Date.now();
    const { logs } = this.redirection;
    // Log rows older than the configured days go (0 keeps them forever).
    this.writes.push('expire', async () => {
      if (settings.expireRedirect > 0) await logs.expire('log', new Date(now.getTime() - settings.expireRedirect * DAY));
      if (settings.expire404 > 0) await logs.expire('404', new Date(now.getTime() - settings.expire404 * DAY));
    });
  }
}
