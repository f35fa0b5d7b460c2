/**
 * Configuration from environment variables, validated once at start: each bad value is named
 * with what was expected, and the process stops before it listens.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The mappings shipped with Lintel, wherever it is installed. */
const SHIPPED_MAPPINGS = fileURLToPath(new URL('../mappings', import.meta.url));
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const segment = z.string().regex(/^[A-Za-z0-9._-]+$/, 'a single path segment (letters, digits, . _ -)');
const url = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ''));

const schema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** When set, the store is this PostgreSQL server; otherwise embedded PGlite under LINTEL_DATA_DIR. */
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'a postgres:// or postgresql:// URL').optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  LINTEL_DATA_DIR: z.string().min(1).default('./data'),
  /** The public address of the site (links in responses); default http://localhost:PORT. */
  LINTEL_BASE_URL: url.optional(),
  LINTEL_REST_PREFIX: segment.default('wp-json'),
  LINTEL_ADMIN_PATH: segment.default('wp-admin'),
  /** The legacy site that forwarded namespaces and unmatched site requests go to. */
  LINTEL_LEGACY_ORIGIN: url.optional(),
  LINTEL_MAPPINGS_DIR: z.string().min(1).default(SHIPPED_MAPPINGS),
  LINTEL_BODY_LIMIT: z.coerce.number().int().min(1024).default(1_048_576),
  LINTEL_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Seed the demo content from fixtures/ on the first start of an empty store. */
  LINTEL_DEMO_DATA: bool.default(true),
  /** Test-only: pin "now" to this instant (ISO 8601) so date defaults are reproducible. */
  LINTEL_CLOCK: z.iso.datetime({ offset: true }).optional(),
  /** Outbound fetches may reach these hosts even when they resolve to private addresses. */
  LINTEL_UPSTREAM_ALLOW: z.string().default(''),
  LINTEL_UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Failed logins allowed per client and user in LINTEL_LOGIN_WINDOW_S before 429. */
  LINTEL_LOGIN_ATTEMPTS: z.coerce.number().int().min(1).default(5),
  LINTEL_LOGIN_WINDOW_S: z.coerce.number().int().min(1).default(900),
  LINTEL_TRUST_PROXY: bool.default(false),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  poolSize: number;
  dataDir: string;
  baseUrl: string;
  restPrefix: string;
  adminPath: string;
  legacyOrigin: string | undefined;
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
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const r = schema.safeParse(present);
  if (!r.success) {
    const lines = r.error.issues.map((i) => `  ${i.path.join('.')}=${JSON.stringify(present[String(i.path[0])])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = r.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    poolSize: e.DATABASE_POOL_SIZE,
    dataDir: path.resolve(e.LINTEL_DATA_DIR),
    baseUrl: e.LINTEL_BASE_URL ?? `http://localhost:${e.PORT}`,
    restPrefix: e.LINTEL_REST_PREFIX,
    adminPath: e.LINTEL_ADMIN_PATH,
    legacyOrigin: e.LINTEL_LEGACY_ORIGIN,
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
  };
}
