#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --liftoff-only --max-semi-space-size=8 --heap-growing-percent=30
// --liftoff-only: V8 compiles the embedded PostgreSQL's 9 MB of WebAssembly with its baseline
// compiler, then by default recompiles the hot functions with TurboFan in the background; measured
// from outside, that tier-up took the server's peak memory from about 420 MB to 920 MB and took
// the CPU from requests for many seconds after a start, for no higher steady throughput (README,
// Footprint). The flag concerns WebAssembly only; `npm start` passes it too.
// --max-semi-space-size=8 (MB): V8's default young generation grew to about 90 MB more resident memory
// under load, measured from outside; 8 MB holds a request's garbage (README, Footprint).
// --heap-growing-percent=30: the old generation is collected once it grows 30% past what the last
// collection kept, instead of letting garbage take it to about twice that (the heap kept under wrk:
// about 87 MB instead of 113, for no more CPU per request; README, Footprint).
// MALLOC_ARENA_MAX=2: glibc gives every thread that allocates at once an arena of its own, and
// V8's worker threads (marking, sweeping, compiling) each kept 3-8 MB there of which under 1 MB was
// in use (malloc_stats of the server after the bench's uncached cases: 68-88 MB held for 42-46 MB
// in use); with the main thread's arena and one shared by the others, about 15 MB less.
// The `lintel` command: Node runs the TypeScript sources itself (type stripping; the sources use
// erasable syntax only), so there is neither a build step nor a transpiler at run time.
// `npm install` brings Node 24 (the npm `node` package) and npm puts it first on PATH for
// `npm start`, `npm test` and `npx lintel`; run directly on an older Node, say what to do.
import module from 'node:module';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18) || (major === 23 && minor < 6)) {
  process.stderr.write(
    `lintel needs Node 22.18 or newer (Node 24 LTS recommended); this is Node ${process.versions.node}.\n` +
      'After `npm install`, run it through npm, which uses the Node 24 installed in node_modules:\n' +
      '  npm start            (the server)\n' +
      '  npx lintel --help    (every command)\n',
  );
  process.exit(1);
}
// WordPress runs PHP in UTC (wp-settings.php's date_default_timezone_set): the dates Lintel reads as
// PHP does (locutus's strtotime, `Y-m-d H:i` filters) read wall times in the process's zone, so the
// process runs in UTC whatever the machine's zone is (vitest.config.ts and the npm scripts that load
// the sources themselves set it too).
process.env.TZ = 'UTC';
// Node keeps the compiled (and type-stripped) sources between runs, so a command starts at once.
module.enableCompileCache?.();
const { runCli } = await import('../src/cli.ts');
process.exitCode = await runCli(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr });
