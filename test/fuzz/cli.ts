/**
 * `npm run fuzz [-- --runs N --seed S]`: the fuzz suite's generators, run long against an
 * in-process Lintel (embedded PGlite, or LINTEL_TEST_DATABASE_URL's server). Prints the number of
 * requests sent, the number answered 5xx, and the first failures as curl commands to reproduce.
 */
import { Command } from 'commander';
import { asCurl, fuzz, fuzzApp } from './harness.ts';

const opts = new Command()
  .name('npm run fuzz --')
  .option('--runs <n>', 'requests to send', (v) => Number.parseInt(v, 10), 100_000)
  .option('--seed <s>', 'generator seed (a run is reproducible from it)', (v) => Number.parseInt(v, 10), Date.now() % 2 ** 31)
  .option('--show <n>', 'failures to print', (v) => Number.parseInt(v, 10), 10)
  .parse()
  .opts<{ runs: number; seed: number; show: number }>();

const { app, admin, origin, close } = await fuzzApp();
const started = Date.now();
const tick = Math.max(1000, Math.floor(opts.runs / 20));
console.log(`fuzzing ${opts.runs} requests, seed ${opts.seed}`);
try {
  const report = await fuzz({
    app,
    admin,
    origin,
    runs: opts.runs,
    seed: opts.seed,
    onProgress: (n) => {
      if (n % tick === 0) console.log(`  ${n} requests, ${Math.round((Date.now() - started) / 1000)} s`);
    },
  });
  console.log(`requests: ${report.requests}`);
  console.log(`5xx answers: ${report.serverErrors}`);
  console.log(`by status: ${Object.entries(report.statuses).sort().map(([k, n]) => `${k} ${n}`).join(', ')}`);
  console.log(`failures: ${report.failures.length}`);
  for (const f of report.failures.slice(0, opts.show)) console.log(`\n${f.problem} (status ${f.status})\n  ${asCurl(f)}\n  ${f.body}${f.logged ? `\n  logged: ${f.logged}` : ''}`);
  process.exitCode = report.failures.length ? 1 : 0;
} finally {
  await close();
}
