/**
 * `npm run differential -- --origin URL --user admin --app-password PW [--seed N] [--runs N]
 * [--only NAMESPACE] [--record DIR]`: the legacy site as the oracle. A fresh Lintel is brought to the
 * legacy site's seeded state by the conformance runner's replay of captures 001–041 (the legacy site
 * was seeded from the same captures), then generated requests go to both and the answers are
 * compared; the report lists per route the match rate and each distinct difference.
 */
import { Command } from 'commander';
import fc from 'fast-check';
import { Deviations, loadDeviations } from '../../src/compare/deviations.ts';
import { LegacyClient } from '../../src/import/client.ts';
import { importResources } from '../../src/import/index.ts';
import { legacyPostResources } from '../../src/import/posts.ts';
import { runImport } from '../../src/import/resource.ts';
import { parseQueryString } from '../../src/lib/php-params.ts';
import { aliasNames, loadCaptures, ORACLE_BASE, runConformance } from '../conformance/lib.ts';
import { AGENT, legacySide, lintelSide, withoutLoggedLocale, type Answer, type Sent, type Side } from './clients.ts';
import { IdMap } from './ids.ts';
import { Recorder } from './record.ts';
import { printReport, Tally } from './report.ts';
import { differentialRequests, featuresOf, ID_SLOT, reachedTemplate, type DiffRequest } from './requests.ts';

const opts = new Command()
  .name('npm run differential --')
  .description(
    'Sends generated requests to the legacy site and to a fresh in-process Lintel and compares the answers.\n' +
      'The legacy site must be freshly reset to its seeded state (shared/oracle/build.sh, or a clone of it) before every run:\n' +
      'Lintel replays the same seed, and the run writes throwaway records (and one user per role) on both sides. Lintel names\n' +
      "the captures' address (http://127.0.0.1:8088) in its links; a copy of the site on another port is read as if it answered there.",
  )
  .requiredOption('--origin <url>', 'the legacy site, e.g. http://127.0.0.1:8088')
  .requiredOption('--user <login>', 'its administrator')
  .requiredOption('--app-password <password>', "the administrator's application password")
  .option('--seed <n>', 'generator seed (a run is reproducible from it and a fresh oracle)', (v) => Number.parseInt(v, 10), Date.now() % 2 ** 31)
  .option('--runs <n>', 'requests to generate', (v) => Number.parseInt(v, 10), 20_000)
  .option('--only <namespace>', 'compare this namespace only (calendar/events/v1, redirection/v1, history/v1, oembed/1.0, batch/v1, index)')
  .option('--record <dir>', 'write the legacy answer of each new difference as a capture file (reads by the admin or anonymous on seeded records)')
  .option('--record-from <n>', 'number of the first recorded capture', (v) => Number.parseInt(v, 10), 600)
  .option('--examples <n>', 'distinct differences shown per route', (v) => Number.parseInt(v, 10), 6)
  .option('--classes <n>', 'unlisted classes of difference shown over all routes, most requests first', (v) => Number.parseInt(v, 10), 40)
  .option('--max-seconds <n>', 'stop sending after this long and report what was compared', (v) => Number.parseInt(v, 10))
  .option('--concurrency <n>', 'reads in flight at once (writes run alone)', (v) => Number.parseInt(v, 10), 4)
  .parse()
  .opts<{ origin: string; user: string; appPassword: string; seed: number; runs: number; only?: string; record?: string; recordFrom: number; examples: number; classes: number; concurrency: number; maxSeconds?: number }>();

/** The seed captures, and the recorded reads the runner learns the seed's front-end requests (243, 248) and Redirection's token (264) from. */
const captures = loadCaptures().filter((c) => Number(c.seq) <= 41 || ['243', '248', '264'].includes(c.seq));

function sent(side: Side, r: DiffRequest, id: number): Sent {
  const path = r.path.replaceAll(ID_SLOT, String(id));
  const locale = side.name === 'lintel' ? r.locale : '';
  const headers: Record<string, string> = { accept: 'application/json, */*;q=0.1', 'user-agent': AGENT };
  const auth = r.caller === 'anonymous' ? undefined : side.auth(r.caller);
  if (auth) headers.authorization = auth;
  if (r.body) headers['content-type'] = r.body.type;
  return { method: r.method, url: `${locale}/wp-json${path}${r.query ? `?${r.query}` : ''}`, headers, payload: r.body?.payload };
}

const SETTING: DiffRequest = { route: 'GET /redirection/v1/setting', template: '/redirection/v1/setting', effective: 'GET', namespace: 'redirection/v1', method: 'GET', path: '/redirection/v1/setting', collection: null, pick: 0, locale: '', query: '', caller: 'administrator', write: false };

function parsed(a: Answer): unknown {
  try {
    return JSON.parse(a.body);
  } catch {
    return undefined;
  }
}

console.log(`differential: seed ${opts.seed}, ${opts.runs} requests, legacy site ${opts.origin}`);
await runConformance({
  captures,
  deviations: new Deviations([]),
  async afterReplay(app, clock) {
    // The legacy site runs on the real clock.
    clock.set(new Date().toISOString());
    const legacy = await legacySide(opts.origin, opts.user, opts.appPassword);
    const lintel = await lintelSide(app);
    // Redirection's token is drawn at random when the legacy site was built: Lintel takes the oracle's.
    const setting = await legacy.send(sent(legacy, { ...SETTING, caller: 'administrator' }, 0));
    await app.store.redirection.settings.save({ token: (JSON.parse(setting.body) as { settings: { token: string } }).settings.token });
    // Lintel's audit log is built by the replay, the legacy one by the site's build (plugin installs, its
    // own users): both sides start from the legacy log, imported as `lintel import` does, so the history
    // reads compare the two servers and not the two ways the log was filled. The run's writes fill the two
    // logs differently by design too (history-every-write-logged: Lintel logs calendar writes, the legacy
    // site logs refused and invalid Redirection requests as if done), so Lintel takes the legacy log again
    // before the first history read after a write. What Lintel logs is checked by its tests and captures.
    const historyClient = new LegacyClient(opts.origin, opts.user, opts.appPassword);
    async function takeLegacyLog(): Promise<void> {
      // Lintel's events are gone: the next one logged must take the legacy site's next ID.
      await app.store.history.deleteEvents(await app.store.history.allIds());
      await app.store.history.restartIds();
      await runImport({ store: app.store, source: opts.origin, resources: importResources(historyClient, ['history']), full: true });
    }
    await takeLegacyLog();
    // The legacy site's other posts (WordPress's own, revisions, the menu) share the post IDs with the
    // calendar: Lintel holds them as `lintel import` brings them, and numbers new records after them.
    await runImport({ store: app.store, source: opts.origin, resources: legacyPostResources(historyClient), full: true });
    let logTaken = true;
    const norm = { aliases: aliasNames(app.services.mappings) };
    const prefixes = { restPrefix: app.services.config.restPrefix, locales: app.services.mappings.locales };
    const ids = new IdMap();
    const tally = new Tally();
    const listed = loadDeviations();
    const recorder = opts.record ? new Recorder(opts.record, opts.recordFrom) : null;
    const requests = fc.sample(differentialRequests(app.services.table), { seed: opts.seed, numRuns: opts.runs }).filter((r) => !opts.only || r.namespace === opts.only);
    // Where item routes take their records from: a write there creates one (Redirection's PUT and PATCH too; a bulk action's list answer makes none).
    const collections = new Set(requests.flatMap((r) => (r.collection ? [r.collection] : [])));
    const started = Date.now();
    let done = 0;

    async function one(r: DiffRequest): Promise<void> {
      const id = ids.pick(r);
      if (!id) {
        tally.skipped++;
        return;
      }
      const a = sent(legacy, r, id.legacy);
      const b = sent(lintel, r, id.lintel);
      const [fromLegacy, fromLintel] = await Promise.all([legacy.send(a), lintel.send(b)]);
      if (!r.write && tally.shouldLearn(r.route)) tally.learn(r.route, fromLegacy, await legacy.send(a), norm);
      // The legacy site's language plugin is not on the oracle: it answers the unprefixed route, whose links have no locale.
      const unprefixed = r.locale ? withoutLocale(fromLintel, r.locale) : fromLintel;
      const lintelJson = withoutLoggedLocale(r.template, parsed(unprefixed), prefixes.locales);
      // A write's own answer already names the records it made by the IDs the two sides gave them.
      if (r.write && fromLegacy.status < 300 && fromLintel.status < 300) {
        if (['POST', 'PUT', 'PATCH'].includes(r.effective) && collections.has(r.path)) ids.created(r.path, parsed(fromLegacy), lintelJson);
        ids.learn(parsed(fromLegacy), lintelJson);
      }
      if (r.route === 'POST /batch/v1') await runRefusedItems(r, a.headers.authorization, fromLegacy, lintelJson);
      // History events have the legacy IDs (the log is the legacy one, taken again before each history request after a write):
      // read as they are, not through the other collections' IDs.
      const asLegacy = lintelJson === undefined || r.namespace === 'history/v1' ? unprefixed : { ...unprefixed, body: JSON.stringify(ids.asLegacy(lintelJson, r.template)) };
      const found = tally.compare(r.route, fromLegacy, asLegacy, norm);
      // WordPress envelopes whenever the query has `_envelope` (isset: `_envelope[]=x` and a bare `_envelope` too).
      // A PHP crash ignores it: its error is read as it came, not as an envelope.
      const envelope = parseQueryString(r.query)._envelope !== undefined ? (parsed(fromLegacy) as { status?: unknown; body?: unknown } | undefined) : undefined;
      const enveloped = typeof envelope?.status === 'number' && 'body' in envelope;
      const rows = listed.forRoute(r.effective, await reachedTemplate(r, app.services.table, prefixes), { status: enveloped ? (envelope.status as number) : fromLegacy.status });
      const { fresh } = tally.add(r.route, r.namespace, found, rows, { legacy: legacy.curl(a), lintel: lintel.curl(b) }, enveloped, featuresOf(r));
      const replayable = !r.write && !r.path.includes(ID_SLOT) && (r.caller === 'anonymous' || r.caller === 'administrator') && r.locale === '';
      if (recorder && fresh.some((e) => e.allowedBy.length === 0) && replayable) recorder.write(slugOf(r), { ...a, url: b.url }, fromLegacy);
      if (++done % 1000 === 0) console.log(`  ${done} requests, ${Math.round((Date.now() - started) / 1000)} s`);
    }

    /**
     * Batch items the legacy site refuses and Lintel runs (calendar-batch, redirection-batch: the item
     * `rest_batch_not_allowed`, or every item when that failed a `require-all-validate` batch) change
     * Lintel's records alone: each that Lintel ran is sent to the legacy site on its own, as a client
     * of the legacy site would send it, so that later requests compare the same records.
     */
    async function runRefusedItems(r: DiffRequest, authorization: string | undefined, fromLegacy: Answer, fromLintel: unknown): Promise<void> {
      type Item = { method?: string; path: string; body?: unknown };
      type Reply = { status?: number; body?: { code?: string } } | null;
      const items = (JSON.parse(r.body?.payload ?? '{}') as { requests?: Item[] }).requests ?? [];
      const legacyBatch = parsed(fromLegacy) as { failed?: string; responses?: Reply[] } | undefined;
      const lintelReplies = (fromLintel as { responses?: Reply[] } | undefined)?.responses ?? [];
      for (const [i, item] of items.entries()) {
        const ran = lintelReplies[i];
        const refused = legacyBatch?.failed === 'validation' || legacyBatch?.responses?.[i]?.body?.code === 'rest_batch_not_allowed';
        if (!refused || !ran || (ran.status ?? 500) >= 300) continue;
        const headers: Record<string, string> = { accept: 'application/json, */*;q=0.1', 'content-type': 'application/json' };
        if (authorization) headers.authorization = authorization;
        const method = item.method ?? 'POST';
        const alone = await legacy.send({ method, url: `/wp-json${item.path}`, headers, payload: JSON.stringify(item.body ?? {}) });
        tally.replayedItems++;
        if (alone.status >= 300) continue;
        const path = item.path.split('?')[0]!;
        if (['POST', 'PUT', 'PATCH'].includes(method) && collections.has(path)) ids.created(path, parsed(alone), ran.body);
        ids.learn(parsed(alone), ran.body);
      }
    }

    // Reads run a few at once; a write waits for them and runs alone, so both sides see the same order of changes.
    const inFlight = new Set<Promise<void>>();
    // Ctrl-C (or the time budget) stops sending; what was compared is still reported.
    let stop = false;
    process.once('SIGINT', () => {
      stop = true;
    });
    for (const r of requests) {
      if (stop || (opts.maxSeconds && Date.now() - started > opts.maxSeconds * 1000)) break;
      const retake = !logTaken && r.namespace === 'history/v1';
      if (r.write || retake) await Promise.all(inFlight);
      if (retake) {
        await takeLegacyLog();
        logTaken = true;
      }
      const p = one(r).finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (r.write) {
        await p;
        logTaken = false;
      } else if (inFlight.size >= opts.concurrency) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    for (const line of printReport(tally, { examples: opts.examples, classes: opts.classes })) console.log(line);
    const seconds = (Date.now() - started) / 1000;
    console.log(`\nseed ${opts.seed}: ${done} requests compared in ${Math.round(seconds)} s (${(done / seconds).toFixed(1)} requests/s, concurrency ${opts.concurrency})`);
  },
});

/**
 * Lintel's answer under a locale as the unprefixed one the oracle answers: its links (`…/fr/wp-json/…`,
 * and `home`, `…/fr` itself) in the body and headers (`Location`, `Link`), and the site address the
 * calendar's global IDs are made of (`127.0.0.1/fr?id=6`) and its `/doc` names without the port
 * (`http://127.0.0.1/fr/wp-json/…`).
 */
function withoutLocale(a: Answer, locale: string): Answer {
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const link = new RegExp(`${literal(`${ORACLE_BASE}${locale}`)}(?=[/"?#]|$)`, 'g');
  const host = new URL(ORACLE_BASE).hostname;
  const siteAddress = new RegExp(`(?<="|//)${literal(`${host}${locale}`)}(?=\\?id=|/)`, 'g');
  const strip = (s: string) => s.replace(link, ORACLE_BASE).replace(siteAddress, host);
  return { ...a, body: strip(a.body), headers: Object.fromEntries(Object.entries(a.headers).map(([k, v]) => [k, strip(v)])) };
}

function slugOf(r: DiffRequest): string {
  return `differential-${r.method.toLowerCase()}-${r.path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase()}`.slice(0, 60);
}
