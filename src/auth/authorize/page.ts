/**
 * The authorize-application page (`/{admin path}/authorize-application.php`): an app sends the user
 * here with `app_name`, `app_id`, `success_url` and `reject_url`; the user logs in with their login
 * password, approves or rejects, and is sent back to the app with a new application password.
 *
 * Plain HTML forms that post back to the same URL; no JavaScript. Between login and approval the
 * user holds a short-lived, single-use session token (a hidden field; only its hash is stored, so
 * any replica can finish the flow) bound to a CSRF token that is also in an HttpOnly, SameSite=Strict
 * cookie, so another site can neither post the forms nor replay them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { parseCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Params } from '../../contract/php-params.ts';
import { rawurlencode } from '../../contract/url-encoding.ts';
import type { Services } from '../../services.ts';
import type { SiteHandler } from '../../site/site-handler.ts';
import { UniqueViolation } from '../../store/store.ts';
import type { UserRecord } from '../../store/users.ts';
import { createAppPassword } from '../app-passwords.ts';
import { sameSecret } from '../secrets.ts';
import { logLogin } from '../../namespaces/history/log.ts';
import { verifyLoginPassword } from '../login-passwords.ts';
import { escapeHtml } from '../../site/html.ts';

const SESSION_TTL_MS = 10 * 60 * 1000;
const CSRF_COOKIE = 'lintel_csrf';
const TOKEN = /^[A-Za-z0-9_-]{43}$/; // 32 random bytes, base64url
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the app asked for; '' where a parameter was not given. */
export interface AppRequest {
  app_name: string;
  app_id: string;
  success_url: string;
  reject_url: string;
}

const FIELDS = ['app_name', 'app_id', 'success_url', 'reject_url'] as const;

/** The request, or every reason it is refused (the legacy page lists them all). */
export function checkAppRequest(query: Params): { request: AppRequest } | { errors: string[] } {
  const errors: string[] = [];
  const request = { app_name: '', app_id: '', success_url: '', reject_url: '' };
  for (const f of FIELDS) {
    const v = query[f];
    if (typeof v === 'string') request[f] = v;
    else if (v !== undefined) errors.push(`The ${f} parameter must be given once, as a single value.`);
  }
  if (request.app_id && !UUID.test(request.app_id)) errors.push('The app_id must be a UUID.');
  for (const f of ['success_url', 'reject_url'] as const) {
    const problem = redirectUrlProblem(request[f]);
    if (problem) errors.push(`The ${f} ${problem}.`);
  }
  return errors.length ? { errors } : { request };
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Where the page may send the user (with a password in the query): https, an app's own scheme, or
 * http to this machine. The raw text is checked before parsing, because URL parsing silently drops
 * tabs and newlines (`java\nscript:` would become `javascript:`).
 */
export function redirectUrlProblem(raw: string): string | null {
  if (raw === '') return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u0020\u007f]/.test(raw) || !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(raw)) return 'must be a full URL with a scheme and a host';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be a full URL with a scheme and a host';
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'javascript' || scheme === 'data' || scheme === 'vbscript') return `may not use the ${scheme}: scheme`;
  if (!url.hostname) return 'must be a full URL with a scheme and a host';
  if (url.username || url.password) return 'may not contain a user name or password';
  if (scheme === 'http' && !LOOPBACK.has(url.hostname)) {
    return 'must be served over a secure connection (https, an app\'s own scheme, or http to 127.0.0.1, [::1] or localhost)';
  }
  return null;
}

/** The URL with `pairs` added to its query (before any fragment). */
export function addQuery(target: string, pairs: [string, string][]): string {
  const url = new URL(target);
  const hash = url.hash;
  url.hash = '';
  const base = url.href;
  const sep = url.search ? '&' : base.endsWith('?') ? '' : '?';
  return base + sep + pairs.map(([k, v]) => `${k}=${rawurlencode(v)}`).join('&') + hash;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');
const newToken = () => randomBytes(32).toString('base64url');

function formBody(req: FastifyRequest): URLSearchParams {
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  const body = req.body;
  if (!type.startsWith('application/x-www-form-urlencoded') || !Buffer.isBuffer(body)) return new URLSearchParams();
  return new URLSearchParams(body.toString('utf8'));
}

export function authorizePage(services: Services): SiteHandler {
  const { config, store, clock, throttle } = services;
  const path = `/${config.adminPath}/authorize-application.php`;
  const secure = config.baseUrl.startsWith('https:');

  const redirect = (reply: FastifyReply, target: string) => reply.code(303).header('Location', target).header('Cache-Control', 'no-store').send();

  const answer = async (req: FastifyRequest, reply: FastifyReply, query: Params) => {
    const page = pageReply(reply);
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') {
      return page(405, 'Method not allowed', '<p>This page answers GET and POST only.</p>').header('Allow', 'GET, HEAD, POST');
    }
    const checked = checkAppRequest(query);
    if ('errors' in checked) {
      return page(400, 'The Authorize Application request is not allowed.', `<ul>${checked.errors.map((e) => `<li>${escapeHtml(e)}</li>`).join('')}</ul>`);
    }
    const request = checked.request;
    const self = req.url;

    const existing = parseCookie(req.headers.cookie ?? '')[CSRF_COOKIE];
    if (req.method !== 'POST') {
      // One CSRF token per browser, kept while valid so that two open tabs both work.
      const csrf = existing && TOKEN.test(existing) ? existing : newToken();
      reply.header(
        'Set-Cookie',
        `${CSRF_COOKIE}=${csrf}; Path=/${config.adminPath}/; Max-Age=3600; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`,
      );
      return page(200, 'Log in to authorize an application', loginForm(self, request, csrf));
    }

    const form = formBody(req);
    const csrf = form.get('csrf') ?? '';
    if (!existing || !TOKEN.test(csrf) || !sameSecret(existing, csrf)) {
      return page(403, 'This form has expired', `<p>The form was sent without its security token (cookies must be enabled), or from another site.</p>${startAgain(self)}`);
    }
    const action = form.get('action');
    const now = clock.now();

    if (action === 'login') {
      const login = (form.get('log') ?? '').trim();
      const password = form.get('pwd') ?? '';
      const user = login ? ((await store.users.byLogin(login)) ?? (login.includes('@') ? await store.users.byEmail(login) : null)) : null;
      // Counted against the user's own login, so that login and e-mail share one count.
      const attempt = await throttle.attempt(req.ip, user?.login ?? login);
      if (attempt.wait) {
        reply.header('Retry-After', String(attempt.wait));
        return page(429, 'Too many failed login attempts', `<p>Too many failed login attempts. Try again in ${attempt.wait} seconds.</p>`);
      }
      // Verified even for an unknown user (against a dummy hash), so timing does not reveal logins.
      if (!(await verifyLoginPassword(user?.passwordHash ?? null, password)) || !user) {
        await attempt.fail();
        await logLogin(store, { user: null, ip: req.ip, clock, rest: false }, login, user ? 'wrong_password' : 'unknown_user');
        return page(200, 'Log in to authorize an application', loginForm(self, request, csrf, login, 'Unknown user name or incorrect password.'));
      }
      await attempt.succeed();
      await logLogin(store, { user, ip: req.ip, clock, rest: false }, login, 'ok');
      const session = newToken();
      await store.transaction((tx) =>
        tx.authSessions.create({ tokenHash: sha256(session), userId: user.id, csrfHash: sha256(csrf), request: { ...request }, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) }, now),
      );
      return page(200, 'Authorize application', approveForm(self, request, user, session, csrf, request.app_name));
    }

    if (action !== 'approve' && action !== 'reject') {
      return page(400, 'Unknown action', `<p>The form did not say what to do.</p>${startAgain(self)}`);
    }
    const sessionToken = form.get('session') ?? '';
    const session = TOKEN.test(sessionToken) ? await store.authSessions.find(sha256(sessionToken), now) : null;
    const user = session && sameSecret(session.csrfHash, sha256(csrf)) && sameRequest(session.request, request) ? await store.users.byId(session.userId) : null;
    if (!session || !user) {
      return page(400, 'This authorization has expired', `<p>Log in again to continue; the approval step is valid for ten minutes and once only.</p>${startAgain(self)}`);
    }

    if (action === 'reject') {
      await store.transaction((tx) => tx.authSessions.take(sha256(sessionToken), now));
      const target = request.reject_url || (request.success_url && addQuery(request.success_url, [['success', 'false']]));
      if (target) return redirect(reply, target);
      return page(200, 'Application not authorized', `<p>You did not authorize ${escapeHtml(request.app_name || 'the application')}. No password was created.</p>`);
    }

    const name = (form.get('app_name') ?? '').trim();
    const retry = (message: string) => page(200, 'Authorize application', approveForm(self, request, user, sessionToken, csrf, name, message));
    if (!name) return retry('Enter a name for the new application password.');
    const taken = (await store.users.appPasswords(user.id)).some((p) => p.name.toLowerCase() === name.toLowerCase());
    if (taken) return retry('Each application name should be unique.');
    let created: { password: string } | null;
    try {
      created = await store.transaction(async (tx) => ((await tx.authSessions.take(sha256(sessionToken), now)) ? createAppPassword(tx, user.id, name, request.app_id.toLowerCase(), { user, ip: req.ip, clock, rest: false }) : null));
    } catch (e) {
      // Two approvals racing for one name: the unique index refuses the second (and keeps its session).
      if (e instanceof UniqueViolation && e.constraint === 'application_passwords_name') return retry('Each application name should be unique.');
      throw e;
    }
    if (!created) {
      return page(400, 'This authorization has expired', `<p>This approval was already used. Log in again to create another password.</p>${startAgain(self)}`);
    }
    const { password } = created;
    if (request.success_url) {
      const target = addQuery(request.success_url, [
        ['site_url', config.baseUrl],
        ['user_login', user.login],
        ['password', password],
      ]);
      return redirect(reply, target);
    }
    return page(
      200,
      'Application password created',
      `<p>Your new password for <strong>${escapeHtml(name)}</strong> is:</p><p><code id="password">${escapeHtml(password)}</code></p>` +
        '<p>Save it in a safe place now: it is shown only once and cannot be retrieved later. Use it with your user name over HTTP Basic authentication.</p>',
    );
  };

  return async (req, reply, pathname, query) => {
    if (pathname !== path) return false;
    await answer(req, reply, query);
    return true;
  };
}

function sameRequest(a: Record<string, string>, b: AppRequest): boolean {
  return FIELDS.every((f) => a[f] === b[f]);
}


function pageReply(reply: FastifyReply) {
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

function loginForm(action: string, request: AppRequest, csrf: string, login = '', error?: string): string {
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

function approveForm(action: string, request: AppRequest, user: UserRecord, session: string, csrf: string, name: string, error?: string): string {
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

function startAgain(self: string): string {
  return `<p><a href="${escapeHtml(self)}">Start again</a></p>`;
}
