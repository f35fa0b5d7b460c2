/**
 * What the site's redirect edge reads and writes (kept apart from the management repository):
 * the rules of the WordPress module with their effective flags, the plugin settings it obeys,
 * hit counting, and the redirect and 404 log rows with their expiry.
 */
import { installFlags, type RedirectJson, type SourceFlags } from '../namespaces/redirection/io/shapes.ts';
import { FLAG_QUERY } from '../namespaces/redirection/records.ts';
import type { Sql } from './sql.ts';

export interface EdgeSettings {
  flags: SourceFlags;
  expireRedirect: number;
  expire404: number;
  trackHits: boolean;
  ipLogging: number;
  logHeader: boolean;
}

export interface LogRow {
  url: string;
  domain: string;
  agent: string | null;
  referrer: string | null;
  ip: string;
  httpCode: number;
  method: string;
  requestData: unknown;
}

const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : d);

export class RedirectionEdgeRepo {
  constructor(private readonly sql: Sql) {}

  async settings(): Promise<EdgeSettings> {
    const [row] = await this.sql.query<{ value: Record<string, unknown> | null }>(`select value from options where name = 'redirection'`);
    const s = row?.value ?? {};
    return {
      flags: {
        flag_query: ((FLAG_QUERY as readonly unknown[]).includes(s.flag_query) ? s.flag_query : installFlags.flag_query) as SourceFlags['flag_query'],
        flag_case: typeof s.flag_case === 'boolean' ? s.flag_case : installFlags.flag_case,
        flag_trailing: typeof s.flag_trailing === 'boolean' ? s.flag_trailing : installFlags.flag_trailing,
        flag_regex: typeof s.flag_regex === 'boolean' ? s.flag_regex : installFlags.flag_regex,
      },
      expireRedirect: num(s.expire_redirect, 7),
      expire404: num(s.expire_404, 7),
      trackHits: s.track_hits !== false,
      ipLogging: num(s.ip_logging, 0),
      logHeader: s.log_header === true,
    };
  }

  /**
   * The enabled redirects of enabled WordPress-module groups, with the stored flags merged over the
   * global ones, in position then id order.
   */
  async siteRules(flags: SourceFlags): Promise<RedirectJson[]> {
    const rows = await this.sql.query<{
      id: number; url: string; match_url: string; match_data: { source?: Partial<SourceFlags>; options?: { log_exclude?: boolean } } | null;
      regex: boolean; position: number; group_id: number; action_type: string; action_code: number; action_data: Record<string, unknown> | null;
      match_type: string; title: string | null; hits: number;
    }>(
      `select i.id, i.url, i.match_url, i.match_data, i.regex, i.position, i.group_id, i.action_type, i.action_code, i.action_data, i.match_type, i.title, i.hits
         from redirection_items i join redirection_groups g on g.id = i.group_id
        where i.enabled and g.enabled and g.module_id = 1
        order by i.position, i.id`,
    );
    return rows.map((r) => {
      const source = { ...flags, ...(r.match_data?.source ?? {}), flag_regex: r.match_data?.source?.flag_regex ?? r.regex };
      return {
        id: r.id, url: r.url, match_url: r.match_url,
        match_data: { source, ...(r.match_data?.options?.log_exclude ? { options: { log_exclude: true as const } } : {}) },
        action_code: r.action_code, action_type: r.action_type, action_data: r.action_data, match_type: r.match_type,
        title: r.title ?? '', hits: r.hits, regex: source.flag_regex, group_id: r.group_id, position: r.position, last_access: '-', enabled: true,
      };
    });
  }

  async hit(id: number, at: Date): Promise<void> {
    await this.sql.query(`update redirection_items set hits = hits + 1, last_access = $2 where id = $1`, [id, at]);
  }

  async logRedirect(row: LogRow & { sentTo: string; redirectionId: number }, at: Date): Promise<void> {
    await this.sql.query(
      `insert into redirection_logs (created, url, domain, sent_to, agent, referrer, http_code, request_method, request_data, redirect_by, redirection_id, ip)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'redirection', $10, $11)`,
      [at, row.url, row.domain, row.sentTo, row.agent, row.referrer, row.httpCode, row.method, row.requestData === null ? null : JSON.stringify(row.requestData), row.redirectionId, row.ip],
    );
  }

  async log404(row: LogRow, at: Date): Promise<void> {
    await this.sql.query(
      `insert into redirection_404 (created, url, domain, agent, referrer, http_code, request_method, request_data, ip) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [at, row.url, row.domain, row.agent, row.referrer, row.httpCode, row.method, row.requestData === null ? null : JSON.stringify(row.requestData), row.ip],
    );
  }

  /** Deletes log rows older than the configured days (0 keeps them forever). */
  async expire(settings: EdgeSettings, now: Date): Promise<void> {
    const day = 86_400_000;
    if (settings.expireRedirect > 0) await this.sql.query(`delete from redirection_logs where created < $1`, [new Date(now.getTime() - settings.expireRedirect * day)]);
    if (settings.expire404 > 0) await this.sql.query(`delete from redirection_404 where created < $1`, [new Date(now.getTime() - settings.expire404 * day)]);
  }
}
