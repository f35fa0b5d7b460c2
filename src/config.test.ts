import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

/** The configuration error's text for this environment. */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('configuration', () => {
  it('has working defaults: port 8080, embedded store, base URL from the port', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, databaseUrl: undefined, baseUrl: 'http://localhost:8080', restPrefix: 'wp-json', adminPath: 'wp-admin', demoData: true });
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
    expect(loadConfig({ PORT: '' }).port).toBe(8080); // empty means unset, as in a compose file
  });

  it.each(['eighty', '70000', '-1', '80.5', '1e3'])('refuses PORT=%s, naming the range', (port) => {
    expect(refusal({ PORT: port })).toBe(`Invalid configuration:\n  PORT=${JSON.stringify(port)}: expected a whole number from 0 to 65535`);
  });

  it.each(['mysql://db/lintel', 'postgres://', 'localhost:5432/lintel'])('refuses DATABASE_URL=%s', (url) => {
    expect(refusal({ DATABASE_URL: url })).toContain('expected a postgres:// or postgresql:// URL such as postgres://user:password@host:5432/lintel');
  });

  it('never shows a database password in the message', () => {
    const message = refusal({ DATABASE_URL: 'postgres://lintel:s3cret@', PORT: 'x' });
    expect(message).not.toContain('s3cret');
    expect(message).toContain('DATABASE_URL="postgres://lintel:***@"');
    expect(message).toContain('PORT="x"'); // every bad setting is listed, not only the first
    expect(loadConfig({ DATABASE_URL: 'postgresql://u:p@db.internal:5432/lintel' }).databaseUrl).toBe('postgresql://u:p@db.internal:5432/lintel');
  });

  it.each(['events.example.org', 'ftp://events.example.org', 'https://events.example.org/?lang=fr', 'https://admin:pw@events.example.org'])(
    'refuses LINTEL_BASE_URL=%s',
    (url) => {
      expect(refusal({ LINTEL_BASE_URL: url })).toContain('expected an http:// or https:// URL such as https://events.example.org, without query, fragment or user name');
    },
  );

  it('drops trailing slashes from the base URL', () => {
    expect(loadConfig({ LINTEL_BASE_URL: 'https://events.example.org/' }).baseUrl).toBe('https://events.example.org');
  });

  it.each(['2026-11-21', 'yesterday', '2026-11-21T12:08:00'])('refuses LINTEL_CLOCK=%s (an instant needs its zone)', (clock) => {
    expect(refusal({ LINTEL_CLOCK: clock })).toContain('expected an ISO 8601 instant with its zone, such as 2026-11-21T12:08:00Z');
  });

  it('accepts LINTEL_CLOCK with Z or an offset', () => {
    expect(loadConfig({ LINTEL_CLOCK: '2026-11-21T12:08:00Z' }).clock).toBe('2026-11-21T12:08:00Z');
    expect(loadConfig({ LINTEL_CLOCK: '2026-11-21T07:08:00-05:00' }).clock).toBe('2026-11-21T07:08:00-05:00');
  });
});
