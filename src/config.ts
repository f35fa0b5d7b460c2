/**
 * Configuration from environment variables, validated once at start: each bad value is named
 * with what was expected, and the process stops before it listens.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The mappings shipped with Lintel, wherever it is installed. */
const SHIPPED_MAPPINGS = fileURLToPath(new URL('../mappings', import.meta.url));

/** A whole number in range, written in plain digits (no "1e3", no "80.5"). */
const integer = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `expected a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `expected a whole number from ${min} to ${max}`);
const bool = z.enum(['true', 'false', '1', '0'], 'expected true, false, 1 or 0').transform((v) => v === 'true' || v === '1');
const segment = z.string().regex(/^[A-Za-z0-9._-]+$/, 'expected a single path segment (letters, digits, . _ -)');
/** The site's own public address: links are built by appending paths, so no query, fragment or credentials. */
const url = z
  .string()
  .refine((v) => {
    if (!URL.canParse(v)) return false;
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' && !u.search && !u.hash && !u.username && !u.password;
  }, 'expected an http:// or https:// URL such as https://events.example.org, without query, fragment or user name')
  .transform((u) => u.replace(/\/+$/, ''));
const databaseUrl = z
  .string()
  .refine(
    (v) => /^postgres(ql)?:\/\//.test(v) && URL.canParse(v) && new URL(v).hostname !== '',
    'expected a postgres:// or postgresql:// URL such as postgres://user:password@host:5432/lintel',
  );

const schema = z.object({
  /** 0 picks a free port (the log says which). */
  PORT: integer(0, 65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** When set, the store is this PostgreSQL server; otherwise embedded PGlite under LINTEL_DATA_DIR. */
  DATABASE_URL: databaseUrl.optional(),
  DATABASE_POOL_SIZE: integer(1, 200).default(10),
  LINTEL_DATA_DIR: z.string().min(1).default('./data'),
  /** Embedded PGlite runs no statement while its file system has less than this many MB free (503 instead). */
  LINTEL_DATA_DIR_MIN_FREE_MB: integer(0, 1_000_000).default(64),
  /** The public address of the site (links in responses); default http://localhost:PORT. */
  LINTEL_BASE_URL: url.optional(),
  LINTEL_REST_PREFIX: segment.default('wp-json'),
  LINTEL_ADMIN_PATH: segment.default('wp-admin'),
  /** The legacy site that forwarded namespaces and unmatched site requests go to. */
  LINTEL_LEGACY_ORIGIN: url.optional(),
  /** Legacy application passwords adopted on first use are asked of the legacy origin again after this long. */
  LINTEL_LEGACY_REVERIFY_S: integer(0, 31_536_000).default(3600),
  LINTEL_MAPPINGS_DIR: z.string().min(1).default(SHIPPED_MAPPINGS),
  LINTEL_BODY_LIMIT: integer(1024, 1_073_741_824).default(1_048_576),
  LINTEL_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'expected one of fatal, error, warn, info, debug, trace, silent').default('info'),
  /** Seed the demo content from fixtures/ on the first start of an empty store. */
  LINTEL_DEMO_DATA: bool.default(true),
  /** Test-only: pin "now" to this instant (ISO 8601) so date defaults are reproducible. */
  LINTEL_CLOCK: z.iso.datetime({ offset: true, error: 'expected an ISO 8601 instant with its zone, such as 2026-11-21T12:08:00Z' }).optional(),
  /** Outbound fetches may reach these hosts even when they resolve to private addresses. */
  LINTEL_UPSTREAM_ALLOW: z.string().default(''),
  LINTEL_UPSTREAM_TIMEOUT_MS: integer(100, 120_000).default(10_000),
  /** Failed logins allowed per client and user in LINTEL_LOGIN_WINDOW_S before 429. */
  LINTEL_LOGIN_ATTEMPTS: integer(1, 1_000_000).default(5),
  LINTEL_LOGIN_WINDOW_S: integer(1, 31_536_000).default(900),
  LINTEL_TRUST_PROXY: bool.default(false),
  /** How long verified Basic credentials are trusted without the store (dropped at once on revoke); 0: always check. */
  LINTEL_AUTH_CACHE_S: integer(0, 3600).default(60),
  /** The response cache of anonymous reads: how long an answer may be served (0: no cache), and its size. */
  LINTEL_CACHE_TTL_S: integer(0, 86_400).default(30),
  LINTEL_CACHE_MAX_MB: integer(1, 65_536).default(16),
  /** `GET /metrics` answers only `Authorization: Bearer <this>`; unset, there is no /metrics. */
  LINTEL_METRICS_TOKEN: z.string().min(16, 'expected a token of at least 16 characters').optional(),
  /** Failed logins allowed per client over all logins in LINTEL_LOGIN_WINDOW_S before 429 (stops spraying many logins). */
  LINTEL_LOGIN_CLIENT_ATTEMPTS: integer(1, 1_000_000).default(100),
  /** PostgreSQL store limits (DATABASE_URL): opening a connection, one statement, a session idle in a transaction. */
  DATABASE_CONNECT_TIMEOUT_MS: integer(100, 600_000).default(5000),
  DATABASE_STATEMENT_TIMEOUT_MS: integer(100, 3_600_000).default(30_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: integer(100, 3_600_000).default(60_000),
  /** How long /readyz waits for the store to answer before it reports 503. */
  LINTEL_READY_TIMEOUT_MS: integer(100, 60_000).default(2000),
  /** blocks/v3 get_shop_products: a JSON file listing the shop's products ([{id, name, date}]). */
  LINTEL_SHOP_PRODUCTS: z.string().min(1).optional(),
  /** forms-submissions download-all: the only folder export files are written to and deleted from. */
  LINTEL_FORMS_FILES_DIR: z.string().min(1).optional(),
  /** Outgoing mail (forms-submissions email-action, the history email report): smtp:// or smtps:// URL with credentials if any. */
  LINTEL_SMTP_URL: z.string().refine((v) => /^smtps?:\/\//.test(v) && URL.canParse(v), 'expected an smtp:// or smtps:// URL such as smtp://user:password@mail.example.org:587').optional(),
  LINTEL_MAIL_FROM: z.string().min(3).default('Lintel <lintel@localhost>'),
  /** downloads validate-captcha: a siteverify-compatible endpoint and its secret; unset, every captcha fails. */
  LINTEL_CAPTCHA_VERIFY_URL: url.optional(),
  LINTEL_CAPTCHA_SECRET: z.string().default(''),
  /** widgets/ai/v1 chat: an OpenAI-compatible chat-completions URL, its bearer key and model. */
  LINTEL_AI_CHAT_URL: url.optional(),
  LINTEL_AI_CHAT_KEY: z.string().default(''),
  LINTEL_AI_CHAT_MODEL: z.string().min(1).default('gpt-4o-mini'),
  /** Forwarded requests: the legacy origin's answer must start within this time (504 otherwise). */
  LINTEL_FORWARD_TIMEOUT_MS: integer(100, 600_000).default(30_000),
  /** How long the legacy origin's index (routes of forwarded namespaces) is used before it is fetched again. */
  LINTEL_FORWARD_INDEX_TTL_S: integer(1, 86_400).default(300),
  /** Shadow mode: background requests to the other side at once, at most (more are skipped, not queued). */
  LINTEL_SHADOW_CONCURRENCY: integer(1, 1000).default(4),
  /** Shadow mode: the share of shadowed reads also sent twice to the primary, to learn which fields change on their own. */
  LINTEL_SHADOW_NOISE_SAMPLE: z
    .string()
    .trim()
    .regex(/^(0(\.\d+)?|1(\.0+)?)$/, 'expected a share from 0 to 1, such as 0.1')
    .transform(Number)
    .default(0.1),
  /** History events older than this many days are deleted (0: kept forever). */
  LINTEL_HISTORY_RETENTION_DAYS: integer(0, 36_500).default(0),
  /** downloads validate-password: wrong passwords per client and package, and per package over all clients, per LINTEL_LOGIN_WINDOW_S. */
  LINTEL_DOWNLOAD_ATTEMPTS: integer(1, 1_000_000).default(5),
  LINTEL_DOWNLOAD_PACKAGE_ATTEMPTS: integer(1, 1_000_000).default(100),
  /** A request's headers must arrive within this time (408 otherwise). */
  LINTEL_HEADERS_TIMEOUT_MS: integer(100, 600_000).default(10_000),
  /** A whole request, body included, must arrive within this time (408 otherwise). */
  LINTEL_REQUEST_TIMEOUT_MS: integer(100, 3_600_000).default(30_000),
  /** A connection with no traffic either way for this long is closed. */
  LINTEL_IDLE_TIMEOUT_MS: integer(100, 3_600_000).default(120_000),
  /** Open connections per client address (the socket's, proxies included); more are refused with 429. 0: no cap. */
  LINTEL_CLIENT_CONNECTIONS: integer(0, 1_000_000).default(64),
  /** Forwarded JSON answers (read whole to be rewritten) larger than this are answered 502. */
  LINTEL_FORWARD_JSON_LIMIT: integer(1024, 1_073_741_824).default(16_777_216),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  poolSize: number;
  dataDir: string;
  dataDirMinFreeMb: number;
  baseUrl: string;
  restPrefix: string;
  adminPath: string;
  legacyOrigin: string | undefined;
  legacyReverifyS: number;
  mappingsDir: string;
  bodyLimit: number;
  logLevel: string;
  demoData: boolean;
  clock: string | undefined;
  upstreamAllow: string[];
  upstreamTimeoutMs: number;
  loginAttempts: number;
  loginWindowS: number;
  trustProxy: boolean;
  metricsToken: string | undefined;
  authCacheS: number;
  cacheTtlS: number;
  cacheMaxMb: number;
  loginClientAttempts: number;
  storeConnectTimeoutMs: number;
  storeStatementTimeoutMs: number;
  storeIdleInTransactionTimeoutMs: number;
  readyTimeoutMs: number;
  shopProductsFile: string | undefined;
  formsFilesDir: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  captchaVerifyUrl: string | undefined;
  captchaSecret: string;
  aiChatUrl: string | undefined;
  aiChatKey: string;
  aiChatModel: string;
  forwardTimeoutMs: number;
  forwardIndexTtlS: number;
  shadowConcurrency: number;
  shadowNoiseSample: number;
  downloadAttempts: number;
  downloadPackageAttempts: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  idleTimeoutMs: number;
  clientConnections: number;
  forwardJsonLimit: number;
  historyRetentionDays: number;
}

export class ConfigError extends Error {}

/** A URL as messages may show it: its password replaced by `***`. */
export function hidePassword(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}

/** The value as the error message may show it: never a database password. */
function shown(name: string, value: string | undefined): string | undefined {
  return (name === 'DATABASE_URL' || name === 'LINTEL_SMTP_URL') && value ? hidePassword(value) : value;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const r = schema.safeParse(present);
  if (!r.success) {
    const lines = r.error.issues.map((i) => {
      const name = String(i.path[0]);
      return `  ${name}=${JSON.stringify(shown(name, present[name]))}: ${i.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = r.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    poolSize: e.DATABASE_POOL_SIZE,
    dataDir: path.resolve(e.LINTEL_DATA_DIR),
    dataDirMinFreeMb: e.LINTEL_DATA_DIR_MIN_FREE_MB,
    baseUrl: e.LINTEL_BASE_URL ?? `http://localhost:${e.PORT}`,
    restPrefix: e.LINTEL_REST_PREFIX,
    adminPath: e.LINTEL_ADMIN_PATH,
    legacyOrigin: e.LINTEL_LEGACY_ORIGIN,
    legacyReverifyS: e.LINTEL_LEGACY_REVERIFY_S,
    mappingsDir: path.resolve(e.LINTEL_MAPPINGS_DIR),
    bodyLimit: e.LINTEL_BODY_LIMIT,
    logLevel: e.LINTEL_LOG_LEVEL,
    demoData: e.LINTEL_DEMO_DATA,
    clock: e.LINTEL_CLOCK,
    upstreamAllow: e.LINTEL_UPSTREAM_ALLOW.split(',').map((s) => s.trim()).filter(Boolean),
    upstreamTimeoutMs: e.LINTEL_UPSTREAM_TIMEOUT_MS,
    loginAttempts: e.LINTEL_LOGIN_ATTEMPTS,
    loginWindowS: e.LINTEL_LOGIN_WINDOW_S,
    trustProxy: e.LINTEL_TRUST_PROXY,
    metricsToken: e.LINTEL_METRICS_TOKEN,
    authCacheS: e.LINTEL_AUTH_CACHE_S,
    cacheTtlS: e.LINTEL_CACHE_TTL_S,
    cacheMaxMb: e.LINTEL_CACHE_MAX_MB,
    loginClientAttempts: e.LINTEL_LOGIN_CLIENT_ATTEMPTS,
    storeConnectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    storeStatementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    storeIdleInTransactionTimeoutMs: e.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    readyTimeoutMs: e.LINTEL_READY_TIMEOUT_MS,
    shopProductsFile: e.LINTEL_SHOP_PRODUCTS && path.resolve(e.LINTEL_SHOP_PRODUCTS),
    formsFilesDir: path.resolve(e.LINTEL_FORMS_FILES_DIR ?? path.join(e.LINTEL_DATA_DIR, 'forms-exports')),
    smtpUrl: e.LINTEL_SMTP_URL,
    mailFrom: e.LINTEL_MAIL_FROM,
    captchaVerifyUrl: e.LINTEL_CAPTCHA_VERIFY_URL,
    captchaSecret: e.LINTEL_CAPTCHA_SECRET,
    aiChatUrl: e.LINTEL_AI_CHAT_URL,
    aiChatKey: e.LINTEL_AI_CHAT_KEY,
    aiChatModel: e.LINTEL_AI_CHAT_MODEL,
    forwardTimeoutMs: e.LINTEL_FORWARD_TIMEOUT_MS,
    forwardIndexTtlS: e.LINTEL_FORWARD_INDEX_TTL_S,
    shadowConcurrency: e.LINTEL_SHADOW_CONCURRENCY,
    shadowNoiseSample: e.LINTEL_SHADOW_NOISE_SAMPLE,
    historyRetentionDays: e.LINTEL_HISTORY_RETENTION_DAYS,
    downloadAttempts: e.LINTEL_DOWNLOAD_ATTEMPTS,
    downloadPackageAttempts: e.LINTEL_DOWNLOAD_PACKAGE_ATTEMPTS,
    headersTimeoutMs: e.LINTEL_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: e.LINTEL_REQUEST_TIMEOUT_MS,
    idleTimeoutMs: e.LINTEL_IDLE_TIMEOUT_MS,
    clientConnections: e.LINTEL_CLIENT_CONNECTIONS,
    forwardJsonLimit: e.LINTEL_FORWARD_JSON_LIMIT,
  };
}
