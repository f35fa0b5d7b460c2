/**
 * The house's floors: every top-level room of `src/` (a folder or a loose file) sits on a floor
 * named in `floors.json`, and an import may point to its own floor or below. This module reads
 * every import in `src/` (`import … from`, `export … from`, `import()`; tests left out: they wire
 * a scene from any floor) and measures the arrows between rooms. Run it to print the counts:
 * `node scripts/floors.ts` (`--list` also names each file behind an arrow running up).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface Plan {
  /** Bottom floor first; each floor lists its rooms. */
  floors: string[][];
  /** Arrows allowed to run up, each with its reason (repeated in docs/architecture.md). */
  exceptions: Array<{ from: string; to: string; typeOnly?: boolean; why: string }>;
}

export interface Import {
  file: string;
  target: string;
  /** `import type` / `export type`: gone at run time. */
  typeOnly: boolean;
}

const here = dirname(fileURLToPath(import.meta.url));
const option = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
/** `--src DIR` and `--plan FILE` measure another tree (an older commit's) against another plan. */
export const SRC = resolve(option('--src') ?? join(here, '..', 'src'));
export const plan: Plan = JSON.parse(readFileSync(option('--plan') ?? join(here, 'floors.json'), 'utf8'));

const isSource = (name: string) => /\.(ts|json)$/.test(name) && !name.endsWith('.test.ts');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : isSource(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Every import from one file of `src/` to another (paths relative to `src/`, with `/`). */
export function imports(src = SRC): Import[] {
  const found: Import[] = [];
  for (const file of filesUnder(src).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    const add = (spec: ts.Expression | undefined, typeOnly: boolean) => {
      if (!spec || !ts.isStringLiteralLike(spec) || !spec.text.startsWith('.')) return;
      const target = relative(src, resolve(dirname(file), spec.text));
      if (target.startsWith('..')) return;
      found.push({ file: relative(src, file).split(sep).join('/'), target: target.split(sep).join('/'), typeOnly });
    };
    const visit = (node: ts.Node) => {
      if (ts.isImportDeclaration(node)) {
        const c = node.importClause;
        // `import { type A, type B }` is as type-only as `import type { A, B }`.
        const allTypes = !!c && !c.name && !!c.namedBindings && ts.isNamedImports(c.namedBindings) && c.namedBindings.elements.length > 0 && c.namedBindings.elements.every((e) => e.isTypeOnly);
        add(node.moduleSpecifier, !!c && (c.isTypeOnly || allTypes));
      } else if (ts.isExportDeclaration(node)) {
        add(node.moduleSpecifier, node.isTypeOnly);
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        add(node.arguments[0], false);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

/** The top-level room of a path under `src/`: its first folder, or the loose file itself. */
export const roomOf = (path: string) => path.split('/')[0];

export function floorOf(room: string): number {
  return plan.floors.findIndex((f) => f.includes(room));
}

export interface Arrow {
  from: string;
  to: string;
  /** The imports behind it. */
  via: Import[];
}

export interface Measure {
  rooms: string[];
  arrows: Arrow[];
  /** Arrows to a higher floor (or to or from a room no floor lists). */
  up: Arrow[];
  /** Rooms that import each other. */
  mutual: Array<[string, string]>;
  /** Groups of rooms that reach each other through arrows (more than one room each). */
  knots: string[][];
  /** Imports from one namespace folder into another (`namespaces/index.ts`, their list, left out). */
  borrowings: Import[];
}

export function measure(all = imports()): Measure {
  const rooms = [...new Set(all.flatMap((i) => [roomOf(i.file), roomOf(i.target)]))].sort();
  const byPair = new Map<string, Arrow>();
  for (const i of all) {
    const from = roomOf(i.file);
    const to = roomOf(i.target);
    if (from === to) continue;
    const key = `${from} ${to}`;
    if (!byPair.has(key)) byPair.set(key, { from, to, via: [] });
    byPair.get(key)!.via.push(i);
  }
  const arrows = [...byPair.values()].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
  const up = arrows.filter((a) => floorOf(a.from) < 0 || floorOf(a.to) < 0 || floorOf(a.to) > floorOf(a.from));
  const mutual = arrows.filter((a) => a.from < a.to && byPair.has(`${a.to} ${a.from}`)).map((a): [string, string] => [a.from, a.to]);
  const namespace = (p: string) => (p.startsWith('namespaces/') && p.split('/').length > 2 ? p.split('/')[1] : null);
  const borrowings = all.filter((i) => namespace(i.file) && namespace(i.target) && namespace(i.file) !== namespace(i.target));
  return { rooms, arrows, up, mutual, knots: knots(rooms, arrows), borrowings };
}

/** Strongly connected groups of rooms (Tarjan's algorithm), larger than one room. */
function knots(rooms: string[], arrows: Arrow[]): string[][] {
  const next = new Map(rooms.map((r) => [r, arrows.filter((a) => a.from === r).map((a) => a.to)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const connect = (r: string) => {
    index.set(r, index.size);
    low.set(r, index.get(r)!);
    stack.push(r);
    for (const n of next.get(r) ?? []) {
      if (!index.has(n)) {
        connect(n);
        low.set(r, Math.min(low.get(r)!, low.get(n)!));
      } else if (stack.includes(n)) low.set(r, Math.min(low.get(r)!, index.get(n)!));
    }
    if (low.get(r) === index.get(r)) {
      const group: string[] = [];
      let n: string;
      do group.push((n = stack.pop()!));
      while (n !== r);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const r of rooms) if (!index.has(r)) connect(r);
  return found;
}

/** Whether an arrow running up is one of the plan's exceptions (a `typeOnly` one: every import behind it names types only). */
export function excepted(a: Arrow): boolean {
  return plan.exceptions.some((e) => e.from === a.from && e.to === a.to && (!e.typeOnly || a.via.every((i) => i.typeOnly)));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const m = measure();
  const arrow = (a: Arrow) => `${a.from} → ${a.to}`;
  const justified = m.up.filter(excepted);
  console.log(`rooms: ${m.rooms.length}`);
  console.log(`arrows (distinct room → room): ${m.arrows.length}`);
  console.log(`arrows running up: ${m.up.length} (justified in floors.json: ${justified.length})`);
  for (const a of m.up) console.log(`  ${arrow(a)}${excepted(a) ? '  [justified]' : ''}`);
  if (process.argv.includes('--list')) for (const a of m.up) for (const i of a.via) console.log(`    ${i.file} → ${i.target}${i.typeOnly ? ' (type)' : ''}`);
  console.log(`mutual pairs: ${m.mutual.length}`);
  for (const [a, b] of m.mutual) console.log(`  ${a} ⇄ ${b}`);
  const knotList = (ks: string[][]) => (ks.length ? ks.map((k) => `${k.length} [${k.join(', ')}]`).join('; ') : 'none');
  console.log(`knots (rooms reaching each other): ${knotList(m.knots)}`);
  console.log(`knots through run-time imports (type-only left out): ${knotList(measure(imports().filter((i) => !i.typeOnly)).knots)}`);
  console.log(`imports from one namespace into another: ${m.borrowings.length}`);
  for (const i of m.borrowings) console.log(`  ${i.file} → ${i.target}`);
}
