import { defineConfig } from 'vitest/config';
import { laneDependentFiles } from './test/support/lanes.ts';
import { scaled } from './test/support/time.ts';

// Two lanes: every suite runs on embedded PGlite; with LINTEL_TEST_DATABASE_URL set (CI sets it),
// every suite whose answers can depend on the store (test/support/lanes.ts) runs again against that
// PostgreSQL server.
const pgUrl = process.env.LINTEL_TEST_DATABASE_URL;
const include = ['test/**/*.test.ts', 'src/**/*.test.ts'];

export default defineConfig({
  test: {
    // Limits for a quiet machine, scaled to this one (test/support/time.ts; the workers inherit the factor).
    testTimeout: scaled(30_000),
    // Vitest's default is one worker less than the cores: one on a 2-core machine. The suites wait on
    // child processes, sockets and the PostgreSQL server far more than they compute, so three run
    // side by side.
    maxWorkers: 3,
    hookTimeout: scaled(60_000),
    // The migrated PGlite data folder and PostgreSQL database that every test store starts from.
    globalSetup: ['test/support/templates.ts'],
    // As bin/lintel.js runs: no TurboFan tier-up of PGlite's WebAssembly, which takes the CPU (and
    // hundreds of MB) in every worker for seconds after its first store opens.
    execArgv: ['--liftoff-only'],
    projects: [
      { extends: true, test: { name: 'pglite', include, env: { LINTEL_TEST_DATABASE_URL: '' } } },
      ...(pgUrl ? [{ extends: true, test: { name: 'postgres', include: laneDependentFiles(import.meta.dirname, include), env: { LINTEL_TEST_DATABASE_URL: pgUrl } } }] : []),
    ],
  },
});
