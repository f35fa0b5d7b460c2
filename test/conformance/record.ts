/**
 * `npm run record-captures -- --origin http://127.0.0.1:8089 --app-password ... --clock-file F requests.json`:
 * records the legacy site's answers to new requests as capture files (`fixtures/captures/NNN-slug.json`,
 * the format of the existing ones), so CI replays them without the legacy site.
 *
 * The origin is a freshly seeded local legacy site (`../shared/oracle/`, 001–041 replayed) whose PHP
 * reads its clock from F (`ORACLE_CLOCK_FILE`). The recorder first replays the captures after the seed
 * at their recorded instants, so the site holds what the conformance runner's Lintel holds when it
 * reaches the new ones; then it sends each new request, one second apart after the last capture, and
 * writes what the site answered, its namespaces and address renamed to the captures' (contract) ones.
 *
 * requests.json: `[{ "seq": "501", "slug": "...", "method": "GET", "path": "/wp-json/...", "query_string": "",
 * "body": null, "body_encoding": null, "auth": true, "headers": {...} }]`.
 */
import { request as httpRequest } from 'node:http';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { CAPTURES_DIR, encodeBody, loadCaptures, ORACLE_BASE, type Capture } from '../support/captures.ts';

const SEED_LAST = 41;
/** The contract's names and the legacy site's, in every form they take in a URL or a JSON body. */
const NAMES: [string, string][] = [
  ['calendar/events/v1', 'tribe/events/v1'],
  ['history/v1', 'simple-history/v1'],
];

function forms(s: string): string[] {
  return [s, s.replace(/\//g, '\\/'), s.replace(/\//g, '%2F').replace(/:/g, '%3A'), s.replace(/\//g, '%2f').replace(/:/g, '%3a')];
}

/** Replaces each (from, to) pair in all its forms; a name is not replaced inside a longer one (`simple-history/v1`). */
function rename(text: string, pairs: [string, string][]): string {
  let out = text;
  for (const [from, to] of pairs) {
    const f = forms(from);
    const t = forms(to);
    f.forEach((x, i) => {
      out = out.replace(new RegExp(`(?<![-a-z_])${x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'g'), t[i]);
    });
  }
  return out;
}

interface Exchange {
  status: number;
  statusLine: string;
  headerList: [string, string][];
  body: string;
}

function send(origin: URL, method: string, pathQs: string, headers: Record<string, string>, body: string | undefined): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: origin.hostname, port: origin.port, method, path: pathQs, headers: body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = res.rawHeaders;
        const headerList: [string, string][] = [];
        for (let i = 0; i < raw.length; i += 2) headerList.push([raw[i], raw[i + 1]]);
        resolve({ status: res.statusCode ?? 0, statusLine: `HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage}`, headerList, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** PHP's clock reads `at` (plus 50 ms) from now on, advancing normally (a frozen clock hangs uniqid()). */
function setClock(file: string, at: string): void {
  const offset = (Date.parse(at) + 50 - Date.now()) / 1000;
  writeFileSync(`${file}.tmp`, `${offset >= 0 ? '+' : ''}${offset.toFixed(3)}\n`);
  renameSync(`${file}.tmp`, file);
}

type NewRequest = Omit<Capture['request'], 'query_string'> & { seq: string; slug: string; query_string?: string };

const program = new Command('record-captures')
  .requiredOption('--origin <url>', 'the local legacy site')
  .requiredOption('--app-password <password>', "the admin's application password")
  .requiredOption('--clock-file <file>', 'the ORACLE_CLOCK_FILE the site was started with')
  .option('--no-replay', 'the site already holds the state after the last capture')
  .argument('<requests>', 'the new requests (JSON)')
  .parse();
const opts = program.opts<{ origin: string; appPassword: string; clockFile: string; replay: boolean }>();
const origin = new URL(opts.origin);
const recorded = new URL(ORACLE_BASE);
const toLegacy: [string, string][] = [...NAMES, [recorded.host, origin.host]];
const toRecorded: [string, string][] = [...NAMES.map(([c, l]): [string, string] => [l, c]), [origin.host, recorded.host]];
const authorization = `Basic ${Buffer.from(`admin:${opts.appPassword}`).toString('base64')}`;

function sendAs(r: Capture['request'], at: string): Promise<Exchange> {
  setClock(opts.clockFile, at);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers)) if (k.toLowerCase() !== 'authorization') headers[k] = rename(v, toLegacy);
  if (r.auth) headers.Authorization = authorization;
  const body = encodeBody(r);
  return send(origin, r.method, rename(r.path + (r.query_string ? `?${r.query_string}` : ''), toLegacy), headers, body === undefined ? undefined : rename(body, toLegacy));
}

const captures = loadCaptures();
if (opts.replay) {
  let differ = 0;
  for (const c of captures.filter((x) => Number(x.seq) > SEED_LAST)) {
    const res = await sendAs(c.request, c.captured_at);
    if (res.status !== c.response.status) {
      differ++;
      console.log(`replayed ${c.file}: ${res.status}, recorded ${c.response.status}`);
    }
  }
  console.log(`replayed ${captures.length - SEED_LAST} captures (${differ} with another status)`);
}

const requests = JSON.parse(readFileSync(program.args[0], 'utf8')) as NewRequest[];
let at = Date.parse(captures.at(-1)!.captured_at);
for (const n of requests) {
  at += 1000;
  const { seq, slug, ...rest } = n;
  const r: Capture['request'] = { ...rest, query_string: rest.query_string ?? '' };
  const capturedAt = new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const started = performance.now();
  const res = await sendAs(r, capturedAt);
  const elapsed = (performance.now() - started) / 1000;
  const headerList = res.headerList.map(([k, v]): [string, string] => [k, rename(v, toRecorded)]);
  const body = rename(res.body, toRecorded);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const capture = {
    name: slug,
    captured_at: capturedAt,
    elapsed_s: Number(elapsed.toFixed(3)),
    request: {
      method: r.method,
      path: r.path,
      query: r.query_string ? Object.fromEntries(new URLSearchParams(r.query_string)) : null,
      query_string: r.query_string,
      url: r.path + (r.query_string ? `?${r.query_string}` : ''),
      body: r.body ?? null,
      body_encoding: r.body_encoding ?? null,
      auth: r.auth,
      headers: r.auth ? { ...r.headers, Authorization: 'Basic <admin:app-password>' } : r.headers,
    },
    response: {
      status: res.status,
      status_line: res.statusLine,
      headers: Object.fromEntries(headerList),
      header_list: headerList,
      body,
      ...(json === undefined ? {} : { body_json: json }),
    },
    seq: Number(seq),
  };
  const file = path.join(CAPTURES_DIR, `${seq}-${slug}.json`);
  writeFileSync(file, JSON.stringify(capture, null, 1));
  console.log(`${path.basename(file)}: ${r.method} ${capture.request.url} -> ${res.status}`);
}
