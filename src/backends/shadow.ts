/**
 * The shadow backend: reads (GET, HEAD) are answered by the primary side and, for a sampled share,
 * also run on the other side in the background, off the response path, a bounded number at once;
 * writes go to the primary only, never twice. The two answers are compared after the conformance
 * runner's normalisation (`src/compare/diff.ts`); fields that change between two answers of the
 * primary itself are learned per route and ignored, as Twitter's Diffy does: now and then the
 * primary is asked the same read a second time, and every path that differs is noise. What a row of
 * DEVIATIONS.md allows on the read's route is a listed difference, not a mismatch.
 */
import { allowedBy, type Listing } from '../compare/deviations.ts';
import { COMPARED_HEADERS, diffJson, headerValue, normaliseString, type Difference, type NormaliseOptions } from '../compare/diff.ts';
import type { ShadowAnswer, ShadowComparison } from '../store/shadow.ts';
import { headerOf, answerBody, UNCANCELLED, type Backend, type BackendAnswer, type BackendCall, type Middleware } from './backend.ts';

const READS = new Set(['GET', 'HEAD']);

/** Background comparisons shared by every shadowed namespace: at most `concurrency` at once; more are skipped, never queued. */
export class ShadowLane {
  inFlight = 0;
  private readonly pending = new Set<Promise<void>>();
  readonly concurrency: number;
  constructor(concurrency: number) {
    this.concurrency = concurrency;
  }

  tryRun(job: () => Promise<void>): boolean {
    if (this.inFlight >= this.concurrency) return false;
    this.inFlight++;
    const p: Promise<void> = job().finally(() => {
      this.inFlight--;
      this.pending.delete(p);
    });
    this.pending.add(p);
    return true;
  }

  /** Resolves when no comparison is running (tests, and a graceful stop). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}

export interface ShadowOptions {
  namespace: string;
  primaryIs: 'legacy' | 'lintel';
  /** The share of reads also run on the other side. */
  sample: number;
  /** The share of compared reads for which the primary is asked twice, to learn its noise. */
  noiseSample: number;
  lane: ShadowLane;
  normalise: NormaliseOptions;
  /** The route a call counts under (`GET /history/v1/events/{n}`). */
  routeOf: (call: BackendCall) => string;
  /** The rows of DEVIATIONS.md whose `routes:` name the read's route: what they allow is no mismatch. */
  deviations?: (call: BackendCall, legacy: ShadowAnswer) => Listing[];
  record: (c: ShadowComparison) => Promise<void>;
  /** Counts each read by result (the metrics' `lintel_shadow_comparisons_total`). */
  count?: (result: 'match' | 'mismatch' | 'skipped' | 'failed') => void;
  random?: () => number;
}

/** The shadow middleware: `primary` answers, `secondary` is compared with it in the background. */
export function shadowing(o: ShadowOptions): Middleware {
  return (primary, secondary) => shadowBackend(o, primary, secondary);
}

function shadowBackend(o: ShadowOptions, primarySide: Backend, secondarySide: Backend): Backend {
  const random = o.random ?? Math.random;
  /** Per route, the generalised paths seen to differ between two answers of the primary. */
  const noise = new Map<string, Set<string>>();

  async function compareLater(call: BackendCall, primary: ShadowAnswer): Promise<void> {
    try {
      // No client waits for these: they run to their end (each backend has its own time limits). A
      // comparison is no login: Lintel's side checks credentials quietly (no throttle, no audit row).
      const own = { ...call, comparison: true };
      const [shadow, again] = await Promise.all([
        secondarySide(own, UNCANCELLED).then(toShadowAnswer),
        random() < o.noiseSample ? primarySide(own, UNCANCELLED).then(toShadowAnswer) : null,
      ]);
      const route = o.routeOf(call);
      const learned = noise.get(route) ?? new Set<string>();
      if (again) for (const d of differences(primary, again, o.normalise)) learned.add(generalise(d.path));
      noise.set(route, learned);
      const listed = o.deviations?.(call, o.primaryIs === 'legacy' ? primary : shadow) ?? [];
      const found = differences(primary, shadow, o.normalise).filter((d) => !learned.has(generalise(d.path)) && !allowedBy(listed, d.path));
      o.count?.(found.length ? 'mismatch' : 'match');
      const url = call.path + (call.query ? `?${call.query}` : '');
      await o.record({ namespace: o.namespace, route, method: call.method, url, primarySide: o.primaryIs, primary, shadow, differences: found });
    } catch (err) {
      o.count?.('failed');
      call.log.warn({ err, namespace: o.namespace }, 'shadow comparison failed');
    }
  }

  return async (call, signal) => {
    const answer = await primarySide(call, signal);
    if (!READS.has(call.method.toUpperCase()) || random() >= o.sample) return answer;
    // The client's answer is read whole once, so it can be both sent and compared.
    const body = await answerBody(answer.body);
    const primary: BackendAnswer = { ...answer, body };
    if (!o.lane.tryRun(() => compareLater(call, asShadow(primary, body)))) o.count?.('skipped');
    return primary;
  };
}

function asShadow(a: BackendAnswer, body: Buffer): ShadowAnswer {
  const headers: Record<string, string> = {};
  for (const name of Object.keys(a.headers)) headers[name.toLowerCase()] = headerOf(a.headers, name.toLowerCase()) ?? '';
  return { status: a.status, headers, body: body.toString('utf8') };
}

async function toShadowAnswer(a: BackendAnswer): Promise<ShadowAnswer> {
  return asShadow(a, await answerBody(a.body));
}

/** `$[3].date` and `$[7].date` are the same field of a list. */
export function generalise(path: string): string {
  return path.replace(/\[\d+\]/g, '[*]');
}

/** Status, the headers clients read, and the body (JSON by value, text as normalised text). Expected is the primary's. */
export function differences(primary: ShadowAnswer, shadow: ShadowAnswer, opts: NormaliseOptions): Difference[] {
  const out: Difference[] = [];
  if (primary.status !== shadow.status) out.push({ path: 'status', expected: primary.status, actual: shadow.status });
  for (const name of COMPARED_HEADERS) {
    const expected = headerValue(name, primary.headers[name.toLowerCase()], opts);
    const actual = headerValue(name, shadow.headers[name.toLowerCase()], opts);
    if (expected !== actual) out.push({ path: `header ${name}`, expected, actual });
  }
  const a = parseJson(primary.body);
  const b = parseJson(shadow.body);
  if (a.ok && b.ok) diffJson(a.value, b.value, opts, '$', out);
  else if (normaliseString(primary.body, opts) !== normaliseString(shadow.body, opts)) {
    out.push({ path: 'body (text)', expected: primary.body.slice(0, 200), actual: shadow.body.slice(0, 200) });
  }
  return out;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
