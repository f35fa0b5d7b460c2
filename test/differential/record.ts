/**
 * `--record <dir>`: legacy answers written as capture files (`fixtures/captures/*.json`), numbered
 * from a start, so the conformance runner can guard the behaviour without the legacy site. Only what
 * the runner can replay is written: reads by the administrator or anonymous, on seeded records.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Capture } from '../support/captures.ts';
import type { Answer, Sent } from './clients.ts';

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 204: 'No Content', 207: 'Multi-Status', 301: 'Moved Permanently', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 410: 'Gone', 500: 'Internal Server Error' };

function requestBody(r: Sent): Pick<Capture['request'], 'body' | 'body_encoding'> {
  if (r.payload === undefined) return { body: null, body_encoding: null };
  const type = r.headers['content-type'] ?? '';
  if (type.includes('json')) {
    try {
      return { body: JSON.parse(r.payload), body_encoding: 'json' };
    } catch {
      return { body: r.payload, body_encoding: 'raw' };
    }
  }
  if (type.includes('urlencoded')) {
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(r.payload)) {
      const prev = out[k];
      out[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
    }
    return { body: out, body_encoding: 'form' };
  }
  return { body: r.payload, body_encoding: 'raw' };
}

export class Recorder {
  private next: number;
  private readonly dir: string;
  constructor(dir: string, first: number) {
    this.dir = dir;
    this.next = first;
    mkdirSync(dir, { recursive: true });
  }

  /** Writes one capture; `r.url` in the contract's names (the runner sends it to Lintel as is). */
  write(slug: string, r: Sent, answer: Answer): string {
    const seq = String(this.next++).padStart(3, '0');
    const [pathPart, query = ''] = r.url.split(/\?(.*)/s);
    const headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, k.toLowerCase() === 'authorization' ? 'Basic <admin:app-password>' : v]));
    let bodyJson: unknown;
    try {
      bodyJson = JSON.parse(answer.body);
    } catch {
      bodyJson = undefined;
    }
    const responseHeaders = Object.fromEntries(answer.headerList);
    const capture = {
      name: slug,
      captured_at: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      elapsed_s: Number(answer.elapsedS.toFixed(3)),
      request: { method: r.method, path: pathPart, query: null, query_string: query, url: r.url, ...requestBody(r), auth: Object.keys(r.headers).some((k) => k.toLowerCase() === 'authorization'), headers },
      response: {
        status: answer.status,
        status_line: `HTTP/1.1 ${answer.status} ${STATUS_TEXT[answer.status] ?? ''}`.trimEnd(),
        headers: responseHeaders,
        header_list: answer.headerList,
        body: answer.body,
        ...(bodyJson === undefined ? {} : { body_json: bodyJson }),
      },
      seq,
    };
    const file = path.join(this.dir, `${seq}-${slug}.json`);
    writeFileSync(file, `${JSON.stringify(capture, null, 1)}\n`);
    return file;
  }
}
