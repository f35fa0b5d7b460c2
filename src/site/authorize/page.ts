/**
 * The authorize-application page (`/{admin path}/authorize-application.php`): an app sends the user
 * here with `app_name`, `app_id`, `success_url` and `reject_url`; the user logs in with their login
 * password, approves or rejects, and is sent back to the app with a new application password.
 *
 * Plain HTML forms that post back to the same URL; no JavaScript. Between login and approval the
 * user holds a short-lived, single-use session token bound to a CSRF cookie (session.ts). This file is
 * the GET/POST flow; which request is accepted is in app-request.ts and redirect-policy.ts, the
 * markup in html.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Params } from '../../lib/php-params.ts';
import type { Services } from '../../services.ts';
import type { SiteHandler } from '../../http/site-handler.ts';
import { UniqueViolation } from '../../store/store.ts';
import { createAppPassword } from '../../auth/app-passwords.ts';
import { logLogin } from '../../audit/log.ts';
import { verifyLoginPassword } from '../../auth/login-passwords.ts';
import { escapeHtml } from '../../lib/html.ts';
import { checkAppRequest } from './app-request.ts';
import { approveForm, loginForm, pageReply, startAgain } from './html.ts';
import { addQuery } from './redirect-policy.ts';
import { browserCsrf, csrfAccepted, csrfCookie, csrfOfCookie, isToken, newSession, sessionBoundTo, tokenHash } from './session.ts';

/** The posted form fields; none unless the body is urlencoded. */
function formBody(req: FastifyRequest): URLSearchParams {
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  const body = req.body;
  if (!type.startsWith('application/x-www-form-urlencoded') || !Buffer.isBuffer(body)) return new URLSearchParams();
  return new URLSearchParams(body.toString('utf8'));
}

/** The page's site handler: answers its one path and passes on every other. */
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

    const existing = csrfOfCookie(req.headers.cookie);
    if (req.method !== 'POST') {
      const csrf = browserCsrf(existing);
      reply.header('Set-Cookie', csrfCookie(csrf, config.adminPath, secure));
      return page(200, 'Log in to authorize an application', loginForm(self, request, csrf));
    }

    const form = formBody(req);
    const csrf = form.get('csrf') ?? '';
    if (!csrfAccepted(existing, csrf)) {
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
      const session = newSession(user.id, csrf, request, now);
      await store.transaction((tx) => tx.authSessions.create(session.record, now));
      return page(200, 'Authorize application', approveForm(self, request, user, session.token, csrf, request.app_name));
    }

    if (action !== 'approve' && action !== 'reject') {
      return page(400, 'Unknown action', `<p>The form did not say what to do.</p>${startAgain(self)}`);
    }
    const sessionToken = form.get('session') ?? '';
    const session = isToken(sessionToken) ? await store.authSessions.find(tokenHash(sessionToken), now) : null;
    const user = session && sessionBoundTo(session, csrf, request) ? await store.users.byId(session.userId) : null;
    if (!session || !user) {
      return page(400, 'This authorization has expired', `<p>Log in again to continue; the approval step is valid for ten minutes and once only.</p>${startAgain(self)}`);
    }

    if (action === 'reject') {
      await store.transaction((tx) => tx.authSessions.take(tokenHash(sessionToken), now));
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
      created = await store.transaction(async (tx) => ((await tx.authSessions.take(tokenHash(sessionToken), now)) ? createAppPassword(tx, user.id, name, request.app_id.toLowerCase(), { user, ip: req.ip, clock, rest: false }) : null));
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

