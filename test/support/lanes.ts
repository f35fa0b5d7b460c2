/**
 * Which test files the PostgreSQL lane runs: those whose answers can depend on the store lane, found
 * from their imports instead of a hand-kept list. A file depends on the lane when it, or a module it
 * imports (relative imports, followed through every level), reads LINTEL_TEST_DATABASE_URL, as
 * test/support/store.ts does for every test store, app and child process. The others (parsing,
 * coercion, comparison, configuration) run the same code in both lanes: the PGlite lane runs them once.
 */
import { existsSync, globSync, readFileSync } from 'node:fs';
import path from 'node:path';

const LANE_VARIABLE = 'LINTEL_TEST_DATABASE_URL';
// Static and dynamic imports and re-exports of a relative path (a type-only import of a module that
// reads the variable counts too: erring that way only runs a file twice).
const RELATIVE_IMPORT = /(?:\bimport|\bexport)\s[^'"`;]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** The files among `patterns` (globs relative to `root`) whose import graph reads the lane variable. */
export function laneDependentFiles(root: string, patterns: string[]): string[] {
  const imports = new Map<string, string[]>();
  const reading = new Set<string>();
  const visit = (file: string) => {
    if (imports.has(file)) return;
    const text = readFileSync(file, 'utf8');
    if (text.includes(LANE_VARIABLE)) reading.add(file);
    const targets = [...text.matchAll(RELATIVE_IMPORT)].map((m) => path.resolve(path.dirname(file), m[1] ?? m[2])).filter((t) => /\.[cm]?[jt]s$/.test(t) && existsSync(t));
    imports.set(file, targets);
    for (const t of targets) visit(t);
  };
  const files = patterns.flatMap((p) => globSync(p, { cwd: root }));
  for (const f of files) visit(path.join(root, f));
  // A file reads the variable when one of its imports does: repeat until nothing more is found (imports may be circular).
  for (let grown = true; grown; ) {
    grown = false;
    for (const [file, targets] of imports) {
      if (!reading.has(file) && targets.some((t) => reading.has(t))) {
        reading.add(file);
        grown = true;
      }
    }
  }
  return files.filter((f) => reading.has(path.join(root, f)));
}
