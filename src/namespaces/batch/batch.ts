/**
 * `POST /batch/v1`: several write requests in one call. Every item goes through the same
 * pipeline as a request of its own (`plan`, then `run`, as the batch caller); the answer is 207
 * with one `{body, status, headers}` per item, in request order.
 *
 * `normal`: items run in order, each on its own. `require-all-validate`: every item is planned
 * first and, if one fails, nothing runs; otherwise all items run in one store transaction, and a
 * failing item rolls back the ones before it (see docs/batch.md).
 */
import { z } from 'zod';
import { answerBody, UNCANCELLED, type Backend } from '../../backends/backend.ts';
import { arg } from '../../contract/args.ts';
import { errors } from '../../contract/error-codes.ts';
import { RestError } from '../../contract/errors.ts';
import { parseQueryString } from '../../lib/php-params.ts';
import { publicAccess } from '../../contract/permission.ts';
import { json } from '../../contract/reply.ts';
import { endpoint, route, type RouteDecl } from '../../contract/route.ts';
import type { RouteTable } from '../../contract/router.ts';
import type { RestContext } from '../../contract/context.ts';
import { asRestError, dispatch, plan, type Outcome, type Plan, type RestCall } from '../../http/dispatch.ts';
import { filteredBody } from '../../http/shape.ts';
import { requestedFields } from '../../http/rest-request.ts';
import type { Services } from '../../services.ts';
import type { Store } from '../../store/store.ts';

export const MAX_BATCH = 25;

// The descriptor keywords are the legacy index's exactly: `meta` drops what zod adds
// (`anyOf` for the union, `propertyNames`, `additionalProperties: false`) and names the types WordPress names.
const headerValue = z
  .union([z.string(), z.array(z.string())])
  .meta({ type: ['string', 'array'], items: { type: 'string' }, anyOf: undefined });
const batchItem = z
  .object({
    method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE']).default('POST'),
    path: z.string(),
    body: z.looseObject({}).optional(),
    headers: z.record(z.string(), headerValue).meta({ propertyNames: undefined }).optional(),
  })
  .meta({ additionalProperties: undefined });
type BatchItem = z.output<typeof batchItem>;

const args = {
  validation: arg.enum(['require-all-validate', 'normal'], { default: 'normal' }),
  requests: arg.array(batchItem, { maxItems: MAX_BATCH, required: true }),
};

/** One item of the answer; PHP encodes empty header maps as `[]`. */
const ItemResponse = z.object({ body: z.unknown(), status: z.int(), headers: z.union([z.record(z.string(), z.union([z.string(), z.number()])), z.tuple([])]) });
type ItemResponse = z.infer<typeof ItemResponse>;

/** The answer: one item per request, in order; `failed` when `require-all-validate` ran none. */
const BatchResponse = z.object({ failed: z.literal('validation').optional(), responses: z.array(ItemResponse.nullable()) });

export function batchRoutes(services: Services): RouteDecl[] {
  const { table } = services;
  return [
    route(
      '',
      '/batch/v1',
      endpoint({
        methods: ['POST'],
        args,
        response: json(BatchResponse, 207),
        summary: 'Run several write requests in one call',
        permission: publicAccess,
        storesNoInput: true,
        async handler(ctx, a) {
          const items = a.requests;
          const calls = items.map((item) => subCall(item, ctx));
          // Items the legacy site answers (a forwarded namespace, or one shadowed with the legacy site as
          // primary) are its writes: sent there one by one, outside any transaction.
          const forwarded = calls.map((call, i) => {
            if (call instanceof RestError) return null;
            const route = services.backends.forRoute(call.route);
            return route?.answeredBy === 'legacy' ? forwardedItem(route.backend, items[i], call, ctx) : null;
          });
          if (a.validation === 'require-all-validate' && forwarded.some(Boolean)) {
            return { status: 207, body: { failed: 'validation', responses: forwarded.map((f) => (f ? errorItem(errors.batch.forwardedInTransaction()) : null)) } };
          }
          const body = a.validation === 'require-all-validate' ? await allOrNothing(table, calls, ctx) : await inTurn(table, calls, forwarded);
          return { status: 207, body };
        },
      }),
    ),
  ];
}

/** A sub-request: the path's query string becomes its query, `body` its form body, as WordPress does. */
function subCall(item: BatchItem, ctx: RestContext): RestCall | RestError {
  const m = /^([^?#]*)(?:\?([^#]*))?/.exec(item.path);
  // A protocol-relative path names a host, not a route: PHP's parse_url has no path to give.
  if (!m || item.path.startsWith('//')) return errors.batch.parsePathFailed();
  const headers = Object.fromEntries(Object.entries(item.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    method: item.method,
    route: m[1],
    query: parseQueryString(m[2] ?? ''),
    body: { json: null, form: item.body ?? {}, files: new Map() },
    ctx: { user: ctx.user, store: ctx.store, clock: ctx.clock, urls: ctx.urls, log: ctx.log, ip: ctx.ip, headers, inBatch: true },
  };
}

async function inTurn(table: RouteTable, calls: (RestCall | RestError)[], forwarded: (ForwardedItem | null)[]) {
  const responses: ItemResponse[] = [];
  for (const [i, call] of calls.entries()) {
    const forward = forwarded[i];
    responses.push(call instanceof RestError ? errorItem(call) : forward ? await forward().catch((e: unknown) => errorItem(asForwardError(e))) : toItem(await dispatch(table, call), call));
  }
  return { responses };
}

type ForwardedItem = () => Promise<ItemResponse>;

/** A forwarded item that failed while its answer was read (the origin broke off) is that item's error, not the batch's. */
function asForwardError(e: unknown): RestError {
  if (e instanceof RestError) return e;
  throw e;
}

/** The item as a request of its own to the legacy origin, with the batch request's credentials. */
function forwardedItem(backend: Backend, item: BatchItem, call: RestCall, ctx: RestContext): ForwardedItem {
  return async () => {
    const query = /\?([^#]*)/.exec(item.path)?.[1] ?? '';
    const headers: Record<string, string | string[] | undefined> = { ...ctx.headers, ...call.ctx.headers, 'content-type': 'application/json' };
    delete headers['content-length'];
    const bindings = (ctx.log as { bindings?: () => Record<string, unknown> }).bindings?.() ?? {};
    const base = new URL(ctx.urls.base);
    const answer = await backend({
      method: call.method,
      path: new URL(ctx.urls.rest(call.route)).pathname,
      query,
      headers,
      body: item.body ? Buffer.from(JSON.stringify(item.body)) : undefined,
      client: { ip: ctx.ip, protocol: base.protocol.replace(':', ''), host: String(ctx.headers.host ?? base.host) },
      requestId: String(bindings.reqId ?? ''),
      log: ctx.log,
    }, UNCANCELLED);
    const text = (await answerBody(answer.body)).toString('utf8');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // a non-JSON answer stays text
    }
    const kept = Object.entries(answer.headers).filter(([k]) => ITEM_HEADERS.has(k.toLowerCase()) || /^x-wp-/i.test(k));
    return { body, status: answer.status, headers: kept.length ? Object.fromEntries(kept.map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v])) : [] };
  };
}

/** The headers an item's answer carries (the rest belong to the HTTP exchange, not to the item). */
const ITEM_HEADERS = new Set(['allow', 'location', 'link']);

/** Thrown inside the transaction to roll it back; carries the answers computed so far. */
class RolledBack extends Error {
  readonly responses: ItemResponse[];
  constructor(responses: ItemResponse[]) {
    super('batch rolled back');
    this.responses = responses;
  }
}

async function allOrNothing(table: RouteTable, calls: (RestCall | RestError)[], ctx: RestContext) {
  const plans: (Plan | RestError)[] = [];
  for (const call of calls) {
    if (call instanceof RestError) plans.push(call);
    else plans.push(await plan(table, call).catch((e) => asRestError(e, ctx.log)));
  }
  if (plans.some((p) => p instanceof RestError)) {
    return { failed: 'validation', responses: plans.map((p) => (p instanceof RestError ? errorItem(p) : null)) };
  }
  const valid = plans as Plan[];
  try {
    const responses = await ctx.store.transaction(async (tx) => {
      const done: ItemResponse[] = [];
      for (const [i, p] of valid.entries()) {
        const call = withStore(calls[i] as RestCall, tx);
        const item = toItem(await dispatch(table, call, { ...p, ctx: { ...p.ctx, store: tx } }), call);
        done.push(item);
        if (item.status >= 400) throw new RolledBack([...done, ...valid.slice(i + 1).map(notRun)]);
      }
      return done;
    });
    return { responses };
  } catch (e) {
    if (e instanceof RolledBack) return { responses: e.responses };
    throw e;
  }
}

function withStore(call: RestCall, store: Store): RestCall {
  return { ...call, ctx: { ...call.ctx, store } };
}

/** The items after a failing one in a rolled-back batch never ran (Lintel's own answer; see DEVIATIONS.md). */
function notRun(): ItemResponse {
  return errorItem(errors.batch.notRun());
}

function errorItem(e: RestError): ItemResponse {
  return { body: e.toBody(), status: e.status, headers: [] };
}

function toItem(o: Outcome, call: RestCall): ItemResponse {
  // `_fields` in an item's body or query string filters its body, as rest_post_dispatch does for each item.
  const body = o.status < 400 ? filteredBody(o.body, requestedFields(call.body, call.method, call.query), o.links) : o.body;
  return { body, status: o.status, headers: Object.keys(o.headers).length ? o.headers : [] };
}
