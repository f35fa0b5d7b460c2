/**
 * `GET /lintel/migration`: where the cut-over stands, for administrators (HTTP Basic, as the API).
 * Per namespace its mode; the shadow match rate per route, in total and per hour over the last
 * day; the data differences seen most often with an example; credential refusals apart from data
 * differences; the last import or sync. Server-rendered HTML without script or outside resources.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../../auth/basic.ts';
import { can, type User } from '../../lib/roles.ts';
import { asRestError } from '../../http/dispatch.ts';
import type { Services } from '../../services.ts';
import type { Store } from '../../store/store.ts';
import type { ShadowHour } from '../../store/shadow.ts';
import { escapeHtml } from '../../lib/html.ts';

export const MIGRATION_PATH = '/lintel/migration';
const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const HOURS = 24;

/** One resource of the last import or sync. */
export interface ImportStep {
  source: string;
  resource: string;
  /** Pages written (of 100 or `--batch-size` records). */
  pages: number;
  done: boolean;
  at: Date;
}

/**
 * The last import or sync, per resource: what `lintel import` records (its checkpoints), for the
 * source imported most recently. The one place that reads them, so it follows what the import keeps.
 */
export async function readLastImport(store: Store): Promise<ImportStep[]> {
  const rows = await store.sql.query<{ source: string; resource: string; last_page: number; done: boolean; updated_at: Date }>(
    `select source, resource, last_page, done, updated_at from import_checkpoints
      where source = (select source from import_checkpoints order by updated_at desc limit 1) order by resource`,
  );
  return rows.map((r) => ({ source: r.source, resource: r.resource, pages: Number(r.last_page), done: r.done, at: new Date(r.updated_at) }));
}

export async function migrationPage(services: Services, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  let user: User | null;
  try {
    user = await authenticate(services, req.headers.authorization, req.ip);
  } catch (e) {
    const err = asRestError(e, req.log);
    return page(reply, err.status, 'Not allowed', `<p>${escapeHtml(err.message)}</p>`);
  }
  if (!user) {
    reply.header('WWW-Authenticate', 'Basic realm="Lintel migration", charset="UTF-8"');
    return page(reply, 401, 'Sign in', '<p>This page is for administrators: sign in with your login and an application password.</p>');
  }
  if (!can(user, 'manage_options')) return page(reply, 403, 'Not allowed', '<p>This page is for administrators.</p>');
  const now = services.clock.now();
  const since = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000 - (HOURS - 1) * 3_600_000);
  const [report, hourly, differences, imported] = await Promise.all([
    services.store.shadow.report(),
    services.store.shadow.hourly(since),
    services.store.shadow.topDataDifferences(20),
    readLastImport(services.store),
  ]);
  const hours = Array.from({ length: HOURS }, (_, i) => new Date(since.getTime() + i * 3_600_000));
  const body = [
    section('Namespaces', table(['namespace', 'mode'], Object.entries(services.backends.modes()).map(([ns, mode]) => [code(ns), `<span class="mode ${mode}">${mode}</span>`]))),
    section(
      'Shadow match rate per route',
      report.routes.length === 0
        ? '<p>No read has been compared yet: shadow a namespace (<code>lintel mode &lt;namespace&gt; shadow</code>).</p>'
        : table(
            ['namespace', 'route', 'compared', 'matched', 'rate', `last ${HOURS} hours (oldest first)`],
            report.routes.map((r) => [
              code(r.namespace),
              code(r.route),
              String(r.compared),
              String(r.matched),
              percent(r.rate),
              timeline(
                hours,
                hourly.filter((h) => h.namespace === r.namespace && h.route === r.route),
              ),
            ]),
          ),
    ),
    section(
      'Data differences seen most often',
      differences.length === 0
        ? '<p>None.</p>'
        : table(
            ['route', 'JSON path', 'times', 'example'],
            differences.map((d) => [code(d.route), code(d.path), String(d.count), `${code(d.url)}<br>expected ${code(JSON.stringify(d.expected) ?? 'nothing')}<br>got ${code(JSON.stringify(d.actual) ?? 'nothing')}`]),
          ),
    ),
    section('Credential refusals', authTable(hourly)),
    section('Last import or sync', importTable(imported)),
  ].join('\n');
  return page(reply, 200, 'Migration', body);
}

function authTable(hourly: ShadowHour[]): string {
  const byRoute = new Map<string, number>();
  for (const h of hourly) if (h.authMismatches) byRoute.set(`${h.namespace}\0${h.route}`, (byRoute.get(`${h.namespace}\0${h.route}`) ?? 0) + h.authMismatches);
  if (byRoute.size === 0) return `<p>No compared read was refused by one side only in the last ${HOURS} hours.</p>`;
  return (
    `<p>Compared reads one side refused (401/403) and the other answered, in the last ${HOURS} hours: a credential difference, not a data one.</p>` +
    table(
      ['namespace', 'route', 'refused by one side'],
      [...byRoute].map(([key, n]) => {
        const [ns, route] = key.split('\0');
        return [code(ns), code(route), String(n)];
      }),
    )
  );
}

function importTable(steps: ImportStep[]): string {
  if (steps.length === 0) return '<p>Nothing imported yet (<code>lintel import --from URL ...</code>).</p>';
  return (
    `<p>From ${code(steps[0].source)}.</p>` +
    table(
      ['resource', 'pages written', 'finished', 'at'],
      steps.map((s) => [code(s.resource), String(s.pages), s.done ? 'yes' : 'no', s.at.toISOString()]),
    )
  );
}

/** One cell per hour: the rate, shaded by it; an hour without comparisons is blank. */
function timeline(hours: Date[], rows: ShadowHour[]): string {
  const at = new Map(rows.map((r) => [r.hour.getTime(), r]));
  const cells = hours.map((h) => {
    const r = at.get(h.getTime());
    if (!r) return `<span class="hour none" title="${h.toISOString()}: nothing compared"></span>`;
    const rate = r.matched / r.compared;
    return `<span class="hour" style="background:hsl(${Math.round(rate * 120)} 70% 45%)" title="${h.toISOString()}: ${r.matched}/${r.compared} (${percent(rate)})" data-rate="${rate}"></span>`;
  });
  return `<span class="timeline">${cells.join('')}</span>`;
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;
const code = (s: string) => `<code>${escapeHtml(s)}</code>`;
const section = (title: string, inner: string) => `<section><h2>${escapeHtml(title)}</h2>\n${inner}</section>`;

/** Cells are HTML already escaped by their makers. */
function table(head: string[], rows: string[][]): string {
  const th = head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('');
  return `<table><thead><tr>${th}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

function page(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Lintel</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1d2327}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}th,td{border-bottom:1px solid #dcdcde;padding:.3rem .6rem;text-align:left;vertical-align:top}
code{font-size:13px;word-break:break-all}.mode{font-weight:600}.forward{color:#8a2424}.shadow{color:#996800}.translate{color:#00733b}
.timeline{display:inline-flex;gap:1px}.hour{display:inline-block;width:8px;height:18px}.hour.none{background:#f0f0f1}
</style></head><body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>`;
  return reply.code(status).type('text/html; charset=UTF-8').header('Content-Security-Policy', CSP).header('Cache-Control', 'no-store').send(html);
}
