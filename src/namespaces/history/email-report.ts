/**
 * The weekly email report: an HTML summary of the last 7 days (the preview renders it), and a
 * test send of it to the reader through the configured SMTP server (LINTEL_SMTP_URL); without one, the
 * send fails as the legacy one does where mail cannot be sent (500 email_send_failed).
 */
import { fmt } from '../../lib/time.ts';
import type { Config } from '../../config.ts';
import { errors } from '../../contract/error-codes.ts';
import type { RestContext } from '../../contract/context.ts';
import type { RestResult } from '../../contract/route.ts';
import { htmlSpecialChars } from '../../lib/legacy-html.ts';
import { sendMail } from '../../upstream/mail.ts';
import { LOGGERS } from '../../audit/loggers.ts';

async function reportHtml(ctx: RestContext): Promise<string> {
  const site = await ctx.store.options.site();
  const now = ctx.clock.now();
  const from = fmt(new Date(now.getTime() - 7 * 86_400_000));
  const counts = await ctx.store.history.counts(from, fmt(now));
  const byLogger = new Map<string, number>();
  for (const [k, n] of counts.byMessage) byLogger.set(k.split(':')[0], (byLogger.get(k.split(':')[0]) ?? 0) + n);
  const rows = [...byLogger]
    .toSorted((a, b) => b[1] - a[1])
    .map(([logger, n]) => `<tr><td>${htmlSpecialChars(LOGGERS[logger]?.name ?? logger)}</td><td style="text-align:right">${n}</td></tr>`)
    .join('\n');
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>${htmlSpecialChars(site.name)} – weekly activity</title></head>
<body style="font-family:sans-serif">
<h1>${htmlSpecialChars(site.name)}</h1>
<p>Activity from ${from.slice(0, 10)} to ${fmt(now).slice(0, 10)} (GMT): <strong>${counts.total}</strong> events.</p>
<table>${rows || '<tr><td>No events</td></tr>'}</table>
<p><a href="${htmlSpecialChars(`${ctx.urls.admin}/admin.php?page=simple_history_admin_menu_page`)}">View the full history</a></p>
</body></html>`;
}

export async function htmlPreview(ctx: RestContext): Promise<RestResult> {
  // The plugin's preview prints the page and exits: no envelope wraps it.
  return { body: await reportHtml(ctx), raw: { contentType: 'text/html; charset=UTF-8', printed: true } };
}

export async function emailPreview(ctx: RestContext, config: Pick<Config, 'smtpUrl' | 'mailFrom'>): Promise<RestResult> {
  const to = ctx.user!.email;
  const message = { to, subject: `Weekly activity summary – ${(await ctx.store.options.site()).name}`, html: await reportHtml(ctx) };
  try {
    await sendMail(config, message);
  } catch (e) {
    // Without a mail server (mail_not_configured, logged) the send fails as wp_mail's does on a site that cannot send mail.
    ctx.log.warn({ err: e }, 'history email report: send failed');
    throw errors.history.emailSendFailed();
  }
  return { body: { success: true, message: `Test email sent successfully to ${to}.` } };
}
