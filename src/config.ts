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
  /** The public address of the site (links in responses); default http://localhost:PORT. */
  LINTEL_BASE_URL: url.optional(),
  LINTEL_REST_PREFIX: segment.default('wp-json'),
  LINTEL_ADMIN_PATH: segment.default('wp-admin'),
  /** The legacy site that forwarded namespaces and unmatched site requests go to. */
  LINTEL_LEGACY_ORIGIN: url.optional(),
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
  /** Radius of the calendar's geolocation search around geoloc_lat/geoloc_lng (half the Earth's circumference at most). */
  LINTEL_CALENDAR_GEO_RADIUS_KM: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'expected a distance in kilometres from 0.001 to 20000, such as 50 or 12.5')
    .transform(Number)
    .refine((n) => n >= 0.001 && n <= 20_000, 'expected a distance in kilometres from 0.001 to 20000, such as 50 or 12.5')
    .default(50),
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
  calendarGeoRadiusKm: number;
}

export class ConfigError extends Error {}

/** The value as the error message may show it: never a database password. */
function shown(name: string, value: string | undefined): string | undefined {
  return name === 'DATABASE_URL' && value ? value.replace(/^([a-z]+:\/\/[^:/@]*):[^@/]*@/i, '$1:***@') : value;
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
    calendarGeoRadiusKm: e.LINTEL_CALENDAR_GEO_RADIUS_KM,
  };
}
