/**
 * `npm run conformance [-- --verbose] [-- --only 044,050] [-- --forward [history/v1,...]]`: replays every capture against a fresh
 * Lintel (in-memory store) and prints a per-namespace table and the differences no DEVIATIONS.md
 * row allows; with --verbose or --only, every difference (allowed ones marked). Exits 1 when a
 * capture differs outside what its rows allow.
 */
import { Command } from 'commander';
import { countByGroup, countIndexRoutes, formatDifferences, runConformance, VERDICTS, type Outcome } from './lib.ts';

const program = new Command('conformance')
  .option('-v, --verbose', 'show the differences of every mismatch, the allowed ones too')
  .option('--only <numbers>', 'show the differences of these captures only (e.g. 044,050); all are still replayed, in order')
  .option('--forward [namespaces]', 'forward these namespaces (default history/v1) to a recorded legacy origin answering from the captures')
  .parse();
const opts = program.opts<{ verbose?: boolean; only?: string; forward?: string | boolean }>();
const forward = opts.forward === undefined ? undefined : typeof opts.forward === 'string' ? opts.forward.split(',').map((n) => n.trim()) : ['history/v1'];
const only = opts.only ? new Set(opts.only.split(',').map((n) => n.trim().padStart(3, '0'))) : null;

function printDiff(o: Outcome, all: boolean): void {
  const r = o.capture.request;
  const rows = o.listings.length ? ` (${o.listings.map((l) => l.id).join(', ')})` : '';
  console.log(`\n${o.capture.file} [${o.verdict}]${rows} ${r.method} ${r.path}${r.query_string ? `?${r.query_string}` : ''}`);
  const unexpected = new Set(o.unexpected);
  const shown = all ? o.differences : o.unexpected;
  const lines = formatDifferences(shown);
  for (const [i, line] of lines.entries()) console.log(`  ${shown[i] && !unexpected.has(shown[i]) ? 'allowed ' : ''}${line}`);
}

function table(header: string[], rows: (string | number)[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: (string | number)[]) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const started = Date.now();
const report = await runConformance({
  forward,
  onOutcome(o) {
    if (only ? only.has(o.capture.seq) : opts.verbose && o.verdict !== 'matched' && o.verdict !== 'not served') printDiff(o, true);
    else if (!only && o.verdict === 'differ') printDiff(o, false);
  },
});

// Lintel's own namespaces first, then the ones it forwards or does not serve.
const ORDER = ['core', 'calendar/events/v1', 'redirection/v1', 'batch/v1', 'oembed/1.0', 'site'];
const rank = (g: string) => (ORDER.includes(g) ? ORDER.indexOf(g) : ORDER.length);
const groups = new Map([...countByGroup(report.outcomes)].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b)));
const total = { matched: 0, allowed: 0, differ: 0, 'not served': 0 };
const rows = [...groups].map(([g, c]) => {
  for (const v of VERDICTS) total[v] += c[v];
  return [g, ...VERDICTS.map((v) => c[v])];
});
console.log(`\nCaptures (${report.outcomes.length}, ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
console.log(table(['namespace', ...VERDICTS], [...rows, ['total', ...VERDICTS.map((v) => total[v])]]));

const idx = countIndexRoutes(report.indexRoutes);
console.log('\nSite index: recorded routes of the served namespaces (methods and args)\n');
console.log(table(['namespace', 'matched', 'differ'], [...idx].sort(([a], [b]) => rank(a) - rank(b)).map(([g, c]) => [g, c.matched, c.differ])));
const keysSame = JSON.stringify(report.indexKeys.expected) === JSON.stringify(report.indexKeys.actual);
console.log(`\nSite index top-level keys: ${keysSame ? 'as recorded' : `differ: ${report.indexKeys.actual.join(', ')}`}`);
if (opts.verbose) {
  for (const r of report.indexRoutes.filter((x) => x.differences.length > 0)) {
    console.log(`\nindex route ${r.pattern}`);
    for (const line of formatDifferences(r.differences, 8)) console.log(`  ${line}`);
  }
}

// A listed capture that matches exactly no longer needs what its rows allow (or the row still holds where nothing is compared, as HTML pages).
const stale = report.outcomes.filter((o) => o.verdict === 'matched' && o.listings.length > 0).map((o) => `${o.capture.seq} (${o.listings.map((l) => l.id).join(', ')})`);
if (stale.length) console.log(`\nListed but matching exactly: ${stale.join('; ')}`);

if (total.differ > 0) {
  console.log(`\n${total.differ} captures differ outside what DEVIATIONS.md allows`);
  process.exitCode = 1;
}
