/** widgets/ai/v1 chat against a local OpenAI-compatible SSE server: relayed events, passed-on status, errors, cancellation, permissions. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/lib/roles.ts';
import { chatMessages } from '../../src/namespaces/widgets-ai/routes.ts';
import { testApp, type TestApp } from '../support/app.ts';

const URL_PATH = '/wp-json/widgets/ai/v1/chat';
let app: TestApp;
let upstream: Server;
let base: string;
const seen: { headers: IncomingMessage['headers']; body: any }[] = [];
/** Resolves when the upstream sees its hanging request closed (the client left). */
let hangingClosed: Promise<void>;
let onHangingClosed: () => void;

const sse = (res: ServerResponse, status = 200) => res.writeHead(status, { 'content-type': 'text/event-stream; charset=utf-8' });
const delta = (content: string) => `data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`;

beforeAll(async () => {
  hangingClosed = new Promise((r) => (onHangingClosed = r));
  upstream = createServer(async (req, res) => {
    let text = '';
    for await (const c of req) text += c;
    const body = JSON.parse(text);
    seen.push({ headers: req.headers, body });
    const prompt: string = body.messages.at(-1).content;
    if (prompt.startsWith('fail')) {
      res.writeHead(429, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests' } }));
    }
    if (prompt.startsWith('hang')) {
      sse(res);
      res.write(delta('first'));
      res.on('close', () => onHangingClosed());
      return;
    }
    sse(res);
    // Split across writes mid-line, with a non-content event and the end marker.
    const all = `${delta('<p>Hello')}${delta(', "world"')}data: {"choices":[{"delta":{"role":"assistant"}}]}\n\n${delta('</p>')}data: [DONE]\n\n`;
    res.write(all.slice(0, 25));
    res.end(all.slice(25));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1/chat/completions`;
  app = await testApp({ env: { LINTEL_AI_CHAT_URL: base, LINTEL_AI_CHAT_KEY: 'sk-test', LINTEL_AI_CHAT_MODEL: 'tiny', LINTEL_UPSTREAM_ALLOW: '127.0.0.1' } });
});
afterAll(async () => {
  await app.close();
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
});

// Other apps in this file share the store: credentials come from the first one.
const chat = async (body: unknown, role: Role | null = 'editor', a: TestApp = app) =>
  a.server.inject({ method: 'POST', url: URL_PATH, headers: { 'content-type': 'application/json', ...(role ? { authorization: await app.auth(role) } : {}) }, payload: JSON.stringify(body) });

describe('chat', () => {
  it('streams the deltas as legacy data lines with the upstream status, content type and the legacy headers', async () => {
    const res = await chat({ prompt: 'Write a greeting', context: [{ prompt: 'Hi' }, { response: 'Hello!' }], stream: true });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-accel-buffering']).toBe('no');
    expect(res.body).toBe('data: "<p>Hello"\n\ndata: ", \\"world\\""\n\ndata: "</p>"\n\n');
    const sent = seen.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.body).toEqual({
      model: 'tiny', stream: true,
      messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }, { role: 'user', content: 'Write a greeting' }],
    });
  });

  it('passes an upstream error status on with the legacy error body', async () => {
    const res = await chat({ prompt: 'fail please' });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ code: 'server_error', message: 'Rate limit reached', data: { status: 429 } });
  });

  it('cancels the upstream call when the client goes away', async () => {
    await app.server.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.server.address() as AddressInfo).port;
    const abort = new AbortController();
    const res = await request(`http://127.0.0.1:${port}${URL_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: await app.auth('editor') },
      body: JSON.stringify({ prompt: 'hang on' }),
      signal: abort.signal,
    });
    expect(res.statusCode).toBe(200);
    for await (const chunk of res.body) {
      expect(chunk.toString()).toBe('data: "first"\n\n');
      break;
    }
    abort.abort();
    await hangingClosed;
  });

  it('validates the prompt: missing, or shorter than 4 characters', async () => {
    const missing = await chat({});
    expect(missing.json()).toMatchObject({ code: 'rest_missing_callback_param', data: { status: 400, params: ['prompt'] } });
    const short = await chat({ prompt: 'abc' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ code: 'rest_invalid_param', data: { params: { prompt: expect.any(String) } } });
  });

  it('answers 503 when no endpoint is configured, 502 when it cannot be reached', async () => {
    const bare = await testApp({ store: app.store });
    const res = await chat({ prompt: 'Write a greeting' }, 'editor', bare);
    expect([res.statusCode, res.json().code]).toEqual([503, 'ai_not_configured']);
    await bare.server.close();
    // A private address that is not allowed is refused by the fetch guard: reported as the server error.
    const guarded = await testApp({ store: app.store, env: { LINTEL_AI_CHAT_URL: base } });
    const refused = await chat({ prompt: 'Write a greeting' }, 'editor', guarded);
    expect([refused.statusCode, refused.json().code]).toEqual([502, 'server_error']);
    await guarded.server.close();
  });

  it.each([[null, 401], ['subscriber', 403], ['contributor', 200], ['editor', 200], ['administrator', 200]] as const)('permission: %s gets %i', async (role, status) => {
    const res = await chat({ prompt: 'Write a greeting' }, role as Role | null);
    expect(res.statusCode).toBe(status);
    if (status !== 200) expect(res.json().code).toBe('rest_forbidden');
  });

  it('is in the index and answers OPTIONS; context turns become chat messages', async () => {
    const ns = (await app.server.inject({ url: '/wp-json/widgets/ai/v1' })).json();
    expect(ns.routes['/widgets/ai/v1/chat'].endpoints[0]).toEqual({ methods: ['POST'], args: { prompt: { type: 'string', minLength: 4, required: true } } });
    expect((await app.server.inject({ method: 'OPTIONS', url: URL_PATH })).json().namespace).toBe('widgets/ai/v1');
    expect(chatMessages('nope', 'x')).toEqual([{ role: 'user', content: 'x' }]);
  });
});
