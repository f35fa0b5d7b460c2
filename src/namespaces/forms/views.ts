/**
 * forms-views: the public submissions-table block's reads. Administrators pass; anyone else needs
 * a short-lived token scoped to forms (`X-NinjaFormsViews-Auth`), handed out by `token/refresh`
 * to pages that show the form's table. Reads are rate limited per client address and route.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { can } from '../../lib/roles.ts';
import { RequestLimiter } from '../../auth/rate-limit.ts';
import { arg } from '../../contract/args.ts';
import { errors } from '../../contract/error-codes.ts';
import type { Permission } from '../../contract/permission.ts';
import { publicAccess } from '../../contract/permission.ts';
import { z } from 'zod';
import { json } from '../../contract/reply.ts';
import { endpoint, route, type RouteDecl } from '../../contract/route.ts';
import type { RestContext } from '../../contract/context.ts';
import { randomAlnum } from '../../random.ts';
import { displayValue, valueFields } from './model.ts';

const NAMESPACE = 'forms-views';
const P = (path: string) => `/${NAMESPACE}${path}`;
const TOKEN_HEADER = 'x-ninjaformsviews-auth';
const TOKEN_SECRET = 'forms_views_token';
const TOKEN_LIFETIME_S = 900;

interface TokenPayload {
  formIds: number[];
  exp: number;
}

const secretOf = (ctx: RestContext) => ctx.store.secrets.get(TOKEN_SECRET, () => randomBytes(32).toString('hex'));
const sign = (publicKey: string, payload: string, secret: string) => createHmac('sha256', secret).update(publicKey + payload).digest('hex');

/** `base64(hmac(publicKey + payload) ":" publicKey ":" payload)`, as the legacy block's token. */
async function issueToken(ctx: RestContext, formIds: number[]): Promise<{ token: string; publicKey: string }> {
  const publicKey = randomAlnum(32);
  const payload = JSON.stringify({ formIds, exp: Math.floor(ctx.clock.now().getTime() / 1000) + TOKEN_LIFETIME_S } satisfies TokenPayload);
  const token = Buffer.from(`${sign(publicKey, payload, await secretOf(ctx))}:${publicKey}:${payload}`).toString('base64');
  return { token, publicKey };
}

/** The token's payload when it is genuine and unexpired; null when not; throws `invalid_token` when it cannot be decoded. */
async function verifyToken(ctx: RestContext, token: string): Promise<TokenPayload | null> {
  const text = Buffer.from(token, 'base64').toString('utf8');
  const [hash, publicKey] = text.split(':', 2);
  if (!/^[0-9a-f]{64}$/.test(hash ?? '') || publicKey === undefined) throw errors.forms.invalidToken();
  const payload = text.slice(hash.length + publicKey.length + 2);
  let parsed: TokenPayload;
  try {
    parsed = JSON.parse(payload) as TokenPayload;
  } catch {
    throw errors.forms.invalidToken();
  }
  const expected = Buffer.from(sign(publicKey, payload, await secretOf(ctx)));
  if (!timingSafeEqual(expected, Buffer.from(hash))) return null;
  if (!Array.isArray(parsed.formIds) || typeof parsed.exp !== 'number' || parsed.exp <= ctx.clock.now().getTime() / 1000) return null;
  return parsed;
}

const isAdmin = (ctx: RestContext) => can(ctx.user, 'manage_options');

/** The forms a request's verified token opens, kept by the permission check for the handler: the token is verified once per request. */
const tokenForms = new WeakMap<RestContext, number[]>();

/** Who may read: administrators, or a token holder (for the route's form when it has one); rate limited first. */
function viewerAccess(limiter: RequestLimiter): Permission<{ id?: number }> {
  return {
    allows: () => true,
    async check(ctx, args) {
      if (!isAdmin(ctx) && !limiter.hit(`${ctx.ip}\u0000${ctx.route}`)) return errors.forms.rateLimited();
      if (isAdmin(ctx)) return true;
      const header = ctx.headers[TOKEN_HEADER];
      const token = Array.isArray(header) ? header[0] : header;
      const payload = token ? await verifyToken(ctx, token) : null;
      if (!payload || (args.id !== undefined && !payload.formIds.includes(Number(args.id)))) return errors.core.forbidden(ctx.user !== null);
      tokenForms.set(ctx, payload.formIds.map(Number));
      return true;
    },
  };
}

/** The forms the caller may read: all for administrators, else those its token (verified by viewerAccess) opens. */
function tokenFormIds(ctx: RestContext): number[] | 'all' {
  return isAdmin(ctx) ? 'all' : (tokenForms.get(ctx) ?? []);
}

/** The site path the Referer names, when it is a page of this site. */
function refererPath(ctx: RestContext, referer: string): string | null {
  let u: URL;
  try {
    u = new URL(referer);
  } catch {
    return null;
  }
  const base = new URL(ctx.urls.base);
  if (u.origin !== base.origin) return null;
  const p = u.pathname.replace(/\/+$/, '');
  return p === '' ? '/' : `${p}/`;
}

async function refreshToken(ctx: RestContext) {
  const p = ctx.params;
  if (Array.isArray(p.formIds) && p.formIds.length > 1) throw errors.forms.tooManyFormIds();
  const raw = p.formID ?? (Array.isArray(p.formIds) ? p.formIds[0] : undefined);
  const formId = typeof raw === 'number' || (typeof raw === 'string' && /^\d+$/.test(raw)) ? Number(raw) : 0;
  if (!Number.isSafeInteger(formId) || formId <= 0) throw errors.forms.invalidFormId();
  if (!(await ctx.store.forms.form(formId))) throw errors.forms.formNotFound();
  const referer = ctx.headers.referer;
  if (typeof referer !== 'string' || referer === '') throw errors.forms.noReferer();
  const page = refererPath(ctx, referer);
  const onPage = page ? await ctx.store.forms.formsOnPage(page) : [];
  if (onPage.length === 0) throw errors.forms.refererNotSubmissionsPage();
  if (!onPage.some((f) => f.id === formId)) throw errors.forms.formNotOnReferer();
  const { token, publicKey } = await issueToken(ctx, [formId]);
  return { token, publicKey, expiresIn: TOKEN_LIFETIME_S, formID: formId };
}

const FormSummary = z.object({ formID: z.int(), formTitle: z.string() });

export function formsViewsRoutes(): RouteDecl[] {
  const access = viewerAccess(new RequestLimiter(60, 60));
  const refreshLimiter = new RequestLimiter(50, 300);
  const id = { id: arg.integer({ required: true }) };
  return [
    route(NAMESPACE, P('/forms'), endpoint({
      methods: ['GET'],
      args: {},
      response: json(z.union([z.array(FormSummary), z.record(z.string(), FormSummary)])),
      permission: access,
      handler: async (ctx) => {
        const allowed = tokenFormIds(ctx);
        const forms = await ctx.store.forms.forms(allowed === 'all' ? undefined : allowed);
        const list = forms.map((f) => ({ formID: f.id, formTitle: f.title }));
        // Administrators get an object keyed by form ID, token holders a list (as the legacy route).
        return { body: allowed === 'all' ? Object.fromEntries(list.map((f) => [f.formID, f])) : list };
      },
    })),
    route(NAMESPACE, P('/forms/(?P<id>\\d+)/fields'), endpoint({
      methods: ['GET'],
      args: id,
      response: json(z.array(z.object({ id: z.int(), label: z.string(), type: z.string() }))),
      permission: access,
      handler: async (ctx, a) => ({ body: valueFields(await ctx.store.forms.fields(a.id)).map((f) => ({ id: f.id, label: f.label, type: f.type })) }),
    })),
    route(NAMESPACE, P('/forms/(?P<id>\\d+)/submissions'), endpoint({
      methods: ['GET'],
      args: { ...id, perPage: arg.integer({ minimum: 1, maximum: 100 }), page: arg.integer({ default: 1, minimum: 1 }) },
      response: json(z.array(z.record(z.string(), z.unknown()).meta({ description: 'Field ID to displayed value' }))),
      permission: access,
      handler: async (ctx, a) => {
        const fields = valueFields(await ctx.store.forms.fields(a.id));
        const subs = await ctx.store.forms.submissions({
          formId: a.id, status: 'active', ...(a.perPage ? { limit: a.perPage, offset: (a.page - 1) * a.perPage } : {}),
        });
        return { body: subs.map((s) => Object.fromEntries(fields.map((f) => [f.id, displayValue(s.values[String(f.id)])]))) };
      },
    })),
    route(NAMESPACE, P('/token/refresh'), endpoint({
      methods: ['POST'],
      args: {},
      response: json(z.object({ token: z.string(), publicKey: z.string(), expiresIn: z.int(), formID: z.int() })),
      permission: {
        ...publicAccess,
        check: (ctx) => (refreshLimiter.hit(ctx.ip) ? true : errors.forms.rateLimited()),
      },
      handler: async (ctx) => ({ body: await refreshToken(ctx) }),
    })),
  ];
}
