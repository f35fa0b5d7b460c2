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
    // A worker runs file after file in one module graph instead of a fresh process per file: a file no
    // longer pays for Node, vitest and the app's modules again (about 1.6 CPU-seconds a file, measured
    // on 14 store suites). Files keep no state in shared modules; one that mocks a module loads its
    // subject afresh (src/auth/app-passwords.test.ts).
    isolate: false,
    // The zone bin/lintel.js runs in (PHP's dates are UTC), whatever the machine's.
    env: { TZ: 'UTC' },
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
