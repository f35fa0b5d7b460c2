/**
 * downloads: the download manager's public helpers. Packages may be locked by passwords (several,
 * each with its own usage count and limit) or by a captcha; either unlock hands out an expiring
 * download link with a use limit, which Lintel serves itself (`links.ts`). Errors travel in the
 * body with status 200, as the legacy handlers answer with wp_send_json.
 */
import { LoginThrottle } from '../../auth/rate-limit.ts';
import { sameSecret } from '../../lib/secrets.ts';
import { z } from 'zod';
import { publicAccess } from '../../contract/permission.ts';
import { json } from '../../contract/reply.ts';
import { endpoint, route, type RestResult, type RouteDecl } from '../../contract/route.ts';
import type { RestContext } from '../../contract/context.ts';
import { randomAlnum } from '../../random.ts';
import type { Services } from '../../services.ts';
import type { DownloadPackage } from '../../store/downloads.ts';
import type { Store } from '../../store/store.ts';
import { upstreamFetcher, type Fetcher } from '../../upstream/fetch.ts';
import { downloadLink } from './links.ts';

const NAMESPACE = 'downloads';
const P = (path: string) => `/${NAMESPACE}${path}`;
/** How often and how long a download link may be used (the legacy private-link defaults). */
const KEY_USES = 3;
const KEY_LIFETIME_S = 3600;
/** The search's page size (WordPress's default posts_per_page). */
const SEARCH_LIMIT = 10;
const POST_TYPE = 'download_package';

const CAPTCHA_FAILED = { error: 'Captcha Verification Failed!' };
const WRONG_PASSWORD = 'Wrong Password! &nbsp;<span class="color-red">Try Again</span>';

const packageId = (v: unknown): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : 0;
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
};

/** Makes a download key for the package and answers its link. */
async function issueLink(ctx: RestContext, store: Store, pkg: DownloadPackage): Promise<string> {
  const key = randomAlnum(32);
  await store.downloads.createKey(key, pkg.id, new Date(ctx.clock.now().getTime() + KEY_LIFETIME_S * 1000), KEY_USES);
  return downloadLink(ctx.urls.base, pkg, key);
}

/** The stored password equal to `given`, compared in constant time against every one (no early exit). */
export function matchPassword(passwords: string[], given: string): string | null {
  let found: string | null = null;
  for (const p of passwords) if (sameSecret(p, given) && found === null) found = p;
  return found;
}

async function validatePassword(throttle: LoginThrottle, ctx: RestContext): Promise<RestResult> {
  const id = packageId(ctx.params.__wpdm_ID);
  const password = ctx.params.password;
  if (!id || typeof password !== 'string' || password === '') return { body: { msg: 'Invalid request!', success: false } };
  // Guesses are counted per client and package, per client, and per package over all clients (the login throttle's counters).
  const attempt = await throttle.attempt(ctx.ip, String(id));
  if (attempt.wait) {
    return { status: 429, headers: { 'Retry-After': String(attempt.wait) }, body: { success: false, message: `Too many wrong passwords. Try again in ${attempt.wait} seconds.` } };
  }
  const answer = await ctx.store.transaction(async (store) => {
    // The row stays locked until the use is counted, so two requests cannot both take the last use.
    const pkg = await store.downloads.get(id, true);
    if (!pkg || !pkg.passwordLock || pkg.passwords.length === 0) return { success: false, message: 'Invalid request!' };
    const match = matchPassword(pkg.passwords, password);
    if (match === null) return { success: false, message: WRONG_PASSWORD };
    if (pkg.passwordUsageLimit > 0 && (pkg.passwordUsage[match] ?? 0) >= pkg.passwordUsageLimit) return { success: false, message: 'Password usages limit exceeded' };
    await store.downloads.countUse(pkg.id, match);
    return { success: true, downloadurl: await issueLink(ctx, store, pkg) };
  });
  await (answer.message === WRONG_PASSWORD ? attempt.fail() : attempt.succeed());
  return { body: answer };
}

async function validateCaptcha(services: Pick<Services, 'config'>, fetch: Fetcher, ctx: RestContext) {
  const { captchaVerifyUrl, captchaSecret } = services.config;
  const token = ctx.params.reCaptchaVerify;
  // No verifier configured: every captcha fails, as on the legacy site without reCAPTCHA keys.
  if (!captchaVerifyUrl || typeof token !== 'string' || token === '') return CAPTCHA_FAILED;
  const pkg = await ctx.store.downloads.get(packageId(ctx.params.__wpdm_ID));
  // A captcha proves a human, not a password: a password-locked package needs its password.
  if (!pkg || pkg.passwordLock) return CAPTCHA_FAILED;
  let verified = false;
  try {
    const res = await fetch(captchaVerifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ secret: captchaSecret, response: token, remoteip: ctx.ip }).toString(),
    });
    verified = res.status === 200 && (JSON.parse(res.body.toString('utf8')) as { success?: unknown }).success === true;
  } catch (e) {
    ctx.log.warn({ err: e }, 'downloads: captcha verifier did not answer');
  }
  if (!verified) return CAPTCHA_FAILED;
  return ctx.store.transaction(async (store) => ({ downloadurl: await issueLink(ctx, store, pkg) }));
}

async function search(ctx: RestContext) {
  const keyword = ctx.params.search;
  // No keyword: the legacy handler outputs nothing, which the API answers as null.
  if (typeof keyword !== 'string' || keyword.trim() === '') return null;
  const premium = Number(ctx.params.premium) > 0;
  const found = await ctx.store.downloads.search(keyword.trim(), { premiumOnly: premium, limit: SEARCH_LIMIT });
  return {
    total: found.total,
    packages: found.packages.map((p) => ({ ID: p.id, post_title: p.title, post_content: p.content })),
    q: {
      post_type: POST_TYPE,
      s: keyword.trim(),
      posts_per_page: SEARCH_LIMIT,
      ...(premium ? { meta_query: [{ key: 'base_price', value: 0, compare: '>', type: 'NUMERIC' }] } : {}),
    },
  };
}

export function downloadsRoutes(services: Pick<Services, 'config' | 'store'>, fetch: Fetcher = upstreamFetcher(services.config)): RouteDecl[] {
  const { config, store } = services;
  const throttle = new LoginThrottle(
    { attempts: config.downloadAttempts, clientAttempts: config.loginClientAttempts, subjectAttempts: config.downloadPackageAttempts, windowS: config.loginWindowS },
    store.kind === 'postgres' ? store.loginThrottle : null,
    'download',
  );
  const post = (path: string, response: z.ZodType, handler: (ctx: RestContext) => Promise<RestResult>) =>
    route(NAMESPACE, P(path), endpoint({ methods: ['POST'], args: {}, response: json(response), permission: publicAccess, handler }));
  return [
    post('/validate-captcha', z.union([z.object({ downloadurl: z.string() }), z.object({ error: z.string() })]), async (ctx) => ({ body: await validateCaptcha(services, fetch, ctx) })),
    post('/validate-password', z.object({ success: z.boolean(), downloadurl: z.string().optional(), message: z.string().optional(), msg: z.string().optional() }), (ctx) => validatePassword(throttle, ctx)),
    route(NAMESPACE, P('/search'), endpoint({
      methods: ['GET'],
      args: {},
      reads: ['search'],
      response: json(z.object({
        total: z.int(),
        packages: z.array(z.object({ ID: z.int(), post_title: z.string(), post_content: z.string() })),
        q: z.record(z.string(), z.unknown()).meta({ description: 'The search as the legacy WP_Query arguments' }),
      }).nullable()),
      permission: publicAccess,
      handler: async (ctx) => {
        const found = await search(ctx);
        // The pipeline sends no body for null; the legacy answer is the JSON text `null`.
        return found ? { body: found } : { body: 'null', raw: { contentType: 'application/json; charset=UTF-8' } };
      },
    })),
  ];
}
