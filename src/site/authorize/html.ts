/** The authorize page's markup: one self-contained HTML page per answer, with no scripts. */
import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../../lib/html.ts';
import type { UserRecord } from '../../store/users.ts';
import type { AppRequest } from './app-request.ts';

/** Answers with a whole page, kept out of caches, frames and referrers. */
export function pageReply(reply: FastifyReply) {
  return (status: number, title: string, body: string) =>
    reply
      .code(status)
      .headers({
        'content-type': 'text/html; charset=UTF-8',
        'cache-control': 'no-store',
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        // No scripts at all; no form-action, because browsers would apply it to the redirect to the app.
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
      })
      .send(layout(title, body));
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;background:#f0f0f1;color:#1d2327;margin:0}
main{max-width:28rem;margin:3rem auto;padding:1.5rem 2rem;background:#fff;border:1px solid #c3c4c7;border-radius:4px}
h1{font-size:1.4rem;margin-top:0}label{display:block;font-weight:600;margin-top:1rem}
input[type=text],input[type=password]{box-sizing:border-box;width:100%;padding:.5rem;font-size:1rem;border:1px solid #8c8f94;border-radius:4px}
button{margin:1.25rem .5rem 0 0;padding:.5rem 1rem;font-size:1rem;border-radius:4px;border:1px solid #2271b1;background:#2271b1;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#2271b1}
:focus-visible{outline:3px solid #72aee6;outline-offset:2px}
.error{border-left:4px solid #d63638;background:#fcf0f1;padding:.5rem 1rem}
code{font-size:1.2rem;background:#f6f7f7;padding:.25rem .5rem;word-break:break-all}
</style></head>
<body><main><h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>`;
}

function appLine(request: AppRequest): string {
  const name = request.app_name ? `<strong>${escapeHtml(request.app_name)}</strong>` : 'An application';
  const to = request.success_url ? ` You will then be sent back to <code>${escapeHtml(new URL(request.success_url).host)}</code>.` : '';
  return `<p>${name} would like to connect to your account.${to}</p>`;
}

function errorBox(message: string | undefined): string {
  return message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : '';
}

/** The first step: log in with the login password. */
export function loginForm(action: string, request: AppRequest, csrf: string, login = '', error?: string): string {
  return `${appLine(request)}${errorBox(error)}
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="action" value="login">
<label for="log">User name or email address</label>
<input type="text" id="log" name="log" value="${escapeHtml(login)}" autocomplete="username" required autofocus>
<label for="pwd">Password</label>
<input type="password" id="pwd" name="pwd" autocomplete="current-password" required>
<button type="submit">Log in</button>
</form>`;
}

/** The second step: name the new application password and approve, or reject. */
export function approveForm(action: string, request: AppRequest, user: UserRecord, session: string, csrf: string, name: string, error?: string): string {
  return `${appLine(request)}
<p>Would you like to give it access to your account, <strong>${escapeHtml(user.login)}</strong>? It will be able to do everything you can do on this site.</p>
${errorBox(error)}
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="session" value="${session}">
<label for="app_name">Name of the new application password</label>
<input type="text" id="app_name" name="app_name" value="${escapeHtml(name)}" maxlength="200" required>
<button type="submit" name="action" value="approve">Yes, I approve of this connection</button>
<button type="submit" name="action" value="reject" class="secondary">No, I do not approve of this connection</button>
</form>`;
}

/** A link back to the first step, with the app's parameters. */
export function startAgain(self: string): string {
  return `<p><a href="${escapeHtml(self)}">Start again</a></p>`;
}
