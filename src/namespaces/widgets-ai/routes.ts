/**
 * widgets/ai/v1: the editor's AI text prompt. `chat` streams Server-Sent Events from the configured
 * OpenAI-compatible chat-completions endpoint, re-encoded as the legacy client reads them
 * (`data: "<JSON string fragment>"` lines). The upstream status and content type are passed on; the
 * client going away cancels the upstream call.
 */
import { PassThrough } from 'node:stream';
import { arg } from '../../contract/args.ts';
import { errors } from '../../contract/error-codes.ts';
import { needs } from '../../contract/permission.ts';
import { raw } from '../../contract/reply.ts';
import { endpoint, route, type RestResult, type RouteDecl } from '../../contract/route.ts';
import type { RestContext } from '../../contract/context.ts';
import type { Services } from '../../services.ts';
import { upstreamStream, type StreamOpener, type UpstreamStream } from '../../upstream/fetch.ts';

const NAMESPACE = 'widgets/ai/v1';
/** Upstream error bodies are read up to this size to report their message. */
const ERROR_BODY_LIMIT = 64 * 1024;
const STREAM_HEADERS = { 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no', Connection: 'keep-alive' };

type ChatMessage = { role: 'user' | 'assistant'; content: string };

/** The earlier turns (`context: [{prompt}|{response}]`) and the prompt as chat messages. */
export function chatMessages(context: unknown, prompt: string): ChatMessage[] {
  const turns: ChatMessage[] = [];
  if (Array.isArray(context)) {
    for (const t of context) {
      if (t === null || typeof t !== 'object') continue;
      const turn = t as Record<string, unknown>;
      if (typeof turn.prompt === 'string') turns.push({ role: 'user', content: turn.prompt });
      if (typeof turn.response === 'string') turns.push({ role: 'assistant', content: turn.response });
    }
  }
  return [...turns, { role: 'user', content: prompt }];
}

/** Reads the upstream event stream and writes each content delta as a legacy `data: "<fragment>"` line. */
async function relayEvents(upstream: UpstreamStream, out: PassThrough): Promise<void> {
  let pending = '';
  const flush = (line: string) => {
    if (!line.startsWith('data:')) return;
    const data = line.slice(5).trim();
    if (data === '' || data === '[DONE]') return;
    try {
      const delta = (JSON.parse(data) as { choices?: { delta?: { content?: unknown } }[] }).choices?.[0]?.delta?.content;
      if (typeof delta === 'string' && delta !== '') out.write(`data: ${JSON.stringify(delta)}\n\n`);
    } catch {
      // A line that is not JSON is not a content delta; skip it.
    }
  };
  try {
    for await (const chunk of upstream.body) {
      pending += (chunk as Buffer).toString('utf8');
      const lines = pending.split(/\r?\n/);
      pending = lines.pop() ?? '';
      for (const line of lines) flush(line);
      if (out.destroyed) return;
    }
    flush(pending);
    out.end();
  } catch {
    // The upstream failed mid-stream, or the client left (which aborted it): end what was sent.
    out.end();
  }
}

async function readCapped(upstream: UpstreamStream): Promise<string> {
  let text = '';
  for await (const chunk of upstream.body) {
    text += (chunk as Buffer).toString('utf8');
    if (text.length > ERROR_BODY_LIMIT) {
      upstream.body.destroy();
      break;
    }
  }
  return text;
}

async function chat(services: Pick<Services, 'config'>, open: StreamOpener, ctx: RestContext, prompt: string): Promise<RestResult> {
  const { aiChatUrl, aiChatKey, aiChatModel } = services.config;
  if (!aiChatUrl) throw errors.widgetsAi.notConfigured();
  const abort = new AbortController();
  let upstream: UpstreamStream;
  try {
    upstream = await open(aiChatUrl, {
      method: 'POST',
      signal: abort.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(aiChatKey ? { authorization: `Bearer ${aiChatKey}` } : {}),
      },
      body: JSON.stringify({ model: aiChatModel, stream: true, messages: chatMessages(ctx.params.context, prompt) }),
    });
  } catch (e) {
    ctx.log.warn({ err: e }, 'widgets/ai: the chat endpoint could not be reached');
    throw errors.widgetsAi.serverError();
  }
  const contentType = upstream.headers['content-type'] ?? 'text/event-stream';
  if (upstream.status >= 400) {
    // The legacy error shape, with the upstream's status and its message when it gives one.
    const text = await readCapped(upstream).catch(() => '');
    let message = errors.widgetsAi.serverError().message;
    try {
      const parsed = JSON.parse(text) as { error?: { message?: unknown }; message?: unknown };
      const m = parsed.error?.message ?? parsed.message;
      if (typeof m === 'string' && m !== '') message = m;
    } catch {
      // Not JSON: keep the generic message.
    }
    return { status: upstream.status, body: errors.widgetsAi.upstreamError(message, upstream.status).toBody(), headers: STREAM_HEADERS };
  }
  const out = new PassThrough();
  // Fastify destroys the body stream when the client goes away: cancel the upstream call then.
  out.once('close', () => abort.abort());
  void relayEvents(upstream, out);
  return { status: upstream.status, body: out, headers: STREAM_HEADERS, raw: { contentType } };
}

export function widgetsAiRoutes(services: Pick<Services, 'config'>, open: StreamOpener = upstreamStream(services.config)): RouteDecl[] {
  return [
    route(NAMESPACE, `/${NAMESPACE}/chat`, endpoint({
      methods: ['POST'],
      args: { prompt: arg.string({ required: true, minLength: 4 }) },
      response: raw('text/event-stream', 'The model\'s answer as server-sent events, relayed as the provider streams them'),
      permission: needs('edit_posts'),
      handler: (ctx, a) => chat(services, open, ctx, a.prompt),
    })),
  ];
}
