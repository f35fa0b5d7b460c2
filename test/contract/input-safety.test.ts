/**
 * Input safety: client keys never write through the prototype chain, and input the store cannot
 * hold (NUL bytes, integers beyond its columns, malformed percent-encoding) is a legacy 400/404,
 * never a 500.
 */
import { connect } from 'node:net';
import type { InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { filterFields } from '../../src/http/shape.ts';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let admin: string;
beforeAll(async () => {
  app = await testApp();
  admin = await app.auth('administrator');
});
afterAll(() => app.close());

const send = (opts: InjectOptions) => app.server.inject(opts);
/** A POST with a JSON body as the administrator. */
const postAsAdmin = (url: string, payload: InjectOptions['payload']) => send({ method: 'POST', url, headers: { authorization: admin, 'content-type': 'application/json' }, payload });
const batch = (requests: unknown[]) => postAsAdmin('/wp-json/batch/v1', { requests });

const EVENT_DATES = { start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 12:00:00' };
const DATES = new URLSearchParams(EVENT_DATES).toString();
const POLLUTED = ['status', 'x', 'polluted'];
// A failing test must not leave the prototype polluted for the tests after it.
afterEach(() => {
  for (const k of POLLUTED) delete (Object.prototype as Record<string, unknown>)[k];
});

/** After a hostile request: nothing leaked into Object.prototype and the API still answers. */
async function stillHealthy() {
  expect(({} as Record<string, unknown>).status).toBeUndefined();
  expect(({} as Record<string, unknown>).x).toBeUndefined();
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect((await send({ method: 'GET', url: '/wp-json/' })).statusCode).toBe(200);
  expect((await send({ method: 'GET', url: '/wp-json/calendar/events/v1/events' })).statusCode).toBe(200);
}

function multipart(fields: [string, string][]): { payload: string; headers: Record<string, string> } {
  const boundary = '----lintel-test-boundary';
  const parts = fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return { payload: `${parts.join('')}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('prototype pollution', () => {
  it('ignores __proto__, constructor and prototype keys in the query string', async () => {
    for (const qs of ['__proto__[status]=x', '__proto__[x]=1', 'constructor[prototype][status]=x', 'a[__proto__][polluted]=1', 'a[constructor][prototype][x]=1', '__proto__[]=1']) {
      const r = await send({ method: 'GET', url: `/wp-json/?${qs}` });
      expect(r.statusCode, qs).toBe(200);
      await stillHealthy();
    }
  });

  it('ignores them in a form body', async () => {
    const r = await send({
      method: 'POST',
      url: '/wp-json/calendar/events/v1/events',
      payload: `__proto__[status]=x&constructor[prototype][polluted]=1&title=T&${DATES}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.statusCode).toBe(401);
    await stillHealthy();
  });

  it('ignores them in multipart fields', async () => {
    const r = await send({ method: 'POST', url: '/wp-json/calendar/events/v1/events', ...multipart([['__proto__[status]', 'x'], ['constructor[prototype][x]', '1']]) });
    expect(r.statusCode).toBe(400);
    await stillHealthy();
  });

  it('ignores them in a batch item path, body and headers', async () => {
    const r = await batch([
      { path: '/calendar/events/v1/events?__proto__[status]=x', body: { title: 'A', ...EVENT_DATES } },
      { path: '/calendar/events/v1/events', body: { ...JSON.parse('{"__proto__": {"status": "x"}, "title": "B"}'), ...EVENT_DATES }, headers: JSON.parse('{"__proto__": {"x": "1"}}') },
    ]);
    expect(r.statusCode).toBe(207);
    expect(r.json().responses.map((i: { status: number }) => i.status)).toEqual([201, 201]);
    await stillHealthy();
  });

  it('copies a body\'s own __proto__ key through _fields without touching Object.prototype', () => {
    const body = JSON.parse('{"__proto__": {"status": "x"}, "id": 1}');
    const kept = filterFields(body, '__proto__.status,constructor.prototype.x,toString') as Record<string, unknown>;
    expect(Object.keys(kept)).toEqual(['__proto__']);
    expect(JSON.stringify(kept)).toBe('{"__proto__":{"status":"x"}}');
    expect(({} as Record<string, unknown>).status).toBeUndefined();
  });

  it('keeps a JSON __proto__ key an inert own key, also through _fields', async () => {
    const r = await send({
      method: 'GET',
      url: '/wp-json/?_fields=__proto__.status,constructor.prototype.x',
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__": {"status": "x"}}',
    });
    expect(r.statusCode).toBe(200);
    // None of the listed fields is in the index: what is left is PHP's empty array, `[]`.
    expect(r.json()).toEqual([]);
    await stillHealthy();
  });
});

function expectWpError(r: { statusCode: number; body: string }, status: number, code?: string) {
  expect(r.statusCode, r.body).toBe(status);
  const body = JSON.parse(r.body);
  expect(body).toMatchObject({ code: code ?? expect.any(String), message: expect.any(String), data: { status } });
}

function upload(filename: string, content: string) {
  const boundary = '----lintel-upload';
  const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: admin } };
}

describe('readiness', () => {
  it('reports a polluted Object.prototype as not ready', async () => {
    expect((await send({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    (Object.prototype as Record<string, unknown>).polluted = 1;
    try {
      const r = await send({ method: 'GET', url: '/readyz' });
      expect(r.statusCode).toBe(503);
      expect(r.json().status).toBe('prototype polluted');
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    expect((await send({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});

describe('input the store cannot hold is a 400, not a 500', () => {
  it('refuses a NUL byte in a parameter with rest_invalid_param', async () => {
    for (const url of [
      '/wp-json/calendar/events/v1/events?search=%00',
      '/wp-json/calendar/events/v1/events/by-slug/x?slug=%00',
      '/wp-json/calendar/events/v1/events/by-slug/a%00b',
    ]) {
      const r = await send({ method: 'GET', url });
      expectWpError(r, 400, 'rest_invalid_param');
    }
    const json = await postAsAdmin('/wp-json/calendar/events/v1/events', { title: 'a\u0000b', ...EVENT_DATES });
    expectWpError(json, 400, 'rest_invalid_param');
    expect(json.json().data.params).toEqual({ title: 'Invalid parameter.' });
    // A batch item's path is not decoded (as in WordPress): `%00` there is a slug no event has.
    const batched = await batch([{ method: 'DELETE', path: '/calendar/events/v1/events/by-slug/%00' }]);
    expect(batched.json().responses[0].status).toBe(400);
    // The path's own value is checked even when the body sends a parameter of the same name.
    const path = await postAsAdmin('/?rest_route=/calendar/events/v1/events/by-slug/%00', { slug: 'new-slug' });
    expectWpError(path, 400, 'rest_invalid_param');
    const pathId = await send({ method: 'POST', url: '/wp-json/redirection/v1/redirect/9223372036854775808', headers: { authorization: admin }, payload: { id: 1, url: '/x' } });
    expectWpError(pathId, 400, 'rest_invalid_param');
    // The undeclared fields a redirect or settings write reads are refused too.
    const title = await postAsAdmin('/wp-json/redirection/v1/redirect/1', { title: 'a\u0000b', match_type: 'url', action_type: 'url' });
    expect(title.json().data.params).toEqual({ title: 'Invalid parameter.' });
    expect((await postAsAdmin('/wp-json/redirection/v1/setting', { auto_target: 'a\u0000b' })).json().data.params).toEqual({ auto_target: 'Invalid parameter.' });
    await stillHealthy();
  });

  it('ignores a NUL byte in a parameter the route does not read, as the legacy site ignores the parameter', async () => {
    for (const url of ['/wp-json/calendar/events/v1/events?a[5][prototype]=%00', '/wp-json/calendar/events/v1/events?__proto__=%00', '/wp-json/calendar/events/v1/events?_fields=a%00b']) {
      expect((await send({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    // A redirect or settings write reads only its named fields: another key's NUL byte is ignored, and the
    // write answers as without it (no url: the list; an update naming no matcher: the sanitizer's error).
    const listed = await send({ method: 'POST', url: '/wp-json/redirection/v1/redirect?__proto__=%00&[x]=%00', headers: { authorization: admin } });
    expect(listed.statusCode).toBe(200);
    const fields = { url: '/nul-neighbour', match_type: 'url', action_type: 'url', action_data: { url: '/to' }, group_id: 1 };
    const redirect = await postAsAdmin('/wp-json/redirection/v1/redirect', { ...fields, '[x]': 'a\u0000' });
    expect(redirect.json().items.map((i: { url: string }) => i.url)).toContain('/nul-neighbour');
    const update = await postAsAdmin(`/wp-json/redirection/v1/redirect/${redirect.json().items[0].id}?_envelope=1`, { '[x]': 'a\u0000' });
    expect(update.json()).toMatchObject({ status: 400, body: { code: 'redirect', message: 'Invalid redirect matcher', data: { error_code: 369 } } });
    expect((await postAsAdmin('/wp-json/redirection/v1/setting', { '[x]': 'a\u0000', location: 'b\u0000' })).statusCode).toBe(200);
    // An undeclared parameter the handler does read into the store is refused: the user search's `q`.
    expectWpError(await send({ method: 'GET', url: '/wp-json/history/v1/search-user?q=a%00b', headers: { authorization: admin } }), 400, 'rest_invalid_param');
    // oEmbed's `url` is cleaned as WordPress's esc_url_raw cleans it, NUL bytes dropped: it finds no record, or the one it names.
    expectWpError(await send({ method: 'GET', url: '/wp-json/oembed/1.0/embed?url=http%3A%2F%2Flintel.test%2Fevent%2F%00' }), 404, 'oembed_invalid_url');
    const created = await send({ method: 'POST', url: '/wp-json/calendar/events/v1/events', headers: { authorization: admin, 'content-type': 'application/json' }, payload: { title: 'Embedded', status: 'publish', ...EVENT_DATES } });
    const embed = await send({ method: 'GET', url: `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(`${created.json().url}\0`)}` });
    expect(embed.statusCode, embed.body).toBe(200);
    // Its other parameters are only compared or read as integers: a `format` that is not `xml` is JSON, NUL or not.
    const format = await send({ method: 'GET', url: `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(created.json().url)}&format=xml%00&maxwidth=300%00` });
    expect([format.statusCode, format.headers['content-type'], format.json().width]).toEqual([200, 'application/json; charset=UTF-8', 300]);
    await stillHealthy();
  });

  it('checks the schema and the permission first, as the legacy site does with no NUL refusal of its own', async () => {
    // The enum error of the batch item's method names the enum, NUL byte or not.
    const batched = await batch([{ method: 'GET', path: '/calendar/events/v1/tags/1', body: { context: 'a\u0000b' } }]);
    expectWpError(batched, 400, 'rest_invalid_param');
    expect(batched.json().data.params).toEqual({ requests: 'requests[0][method] is not one of POST, PUT, PATCH, and DELETE.' });
    // A NUL byte in one item is that item's refusal, not the batch's: the others run.
    const items = await batch([{ path: '/calendar/events/v1/events', body: { title: 'a\u0000b', ...EVENT_DATES } }, { path: '/calendar/events/v1/events', body: { title: 'NUL neighbour', ...EVENT_DATES } }]);
    expect(items.statusCode).toBe(207);
    expect(items.json().responses.map((i: { status: number; body: { code?: string } }) => [i.status, i.body.code])).toEqual([[400, 'rest_invalid_param'], [201, undefined]]);
    // A caller the route refuses is refused before the input is.
    const anonymous = await send({ method: 'POST', url: '/wp-json/calendar/events/v1/events', headers: { 'content-type': 'application/json' }, payload: { title: 'a\u0000b', ...EVENT_DATES } });
    expectWpError(anonymous, 401, 'rest_forbidden');
    expectWpError(await send({ method: 'POST', url: '/wp-json/redirection/v1/redirect/9223372036854775808', payload: { url: '/x' } }), 401, 'rest_forbidden');
    // An integer past no declared bound, only past what the store holds, waits for the permission too.
    const beyond = '/wp-json/redirection/v1/redirect?page=99999999999999999999';
    expectWpError(await send({ method: 'GET', url: beyond }), 401, 'rest_forbidden');
    const refused = await send({ method: 'GET', url: beyond, headers: { authorization: admin } });
    expectWpError(refused, 400, 'rest_invalid_param');
    expect(refused.json().data.params.page).toBe('page must be between 0 (inclusive) and 9007199254740991 (inclusive)');
  });

  it('lets an index take a NUL byte, as nothing it is sent reaches the store', async () => {
    for (const url of ['/wp-json/redirection/v1?context[]=%00', '/wp-json/?page=a%00b']) expect((await send({ method: 'GET', url })).statusCode, url).toBe(200);
    expectWpError(await send({ method: 'GET', url: '/wp-json/calendar/events/v1?namespace=a%00b' }), 404, 'rest_invalid_namespace');
  });

  it('answers the site page of a NUL slug as any unknown page', async () => {
    for (const url of ['/event/%00/', '/venue/a%00/embed/']) expect((await send({ method: 'GET', url })).statusCode, url).toBe(404);
  });

  it('reads a Basic login with a NUL byte as an unknown login', async () => {
    const r = await send({ method: 'GET', url: '/wp-json/', headers: { authorization: 'Basic ADoA' } });
    expectWpError(r, 401, 'invalid_username');
  });

  it('refuses integers beyond what the store holds', async () => {
    expectWpError(await send({ method: 'GET', url: '/wp-json/calendar/events/v1/events?page=99999999999999999999' }), 400, 'rest_invalid_param');
    const id = await send({ method: 'POST', url: '/wp-json/redirection/v1/redirect/9223372036854775808', headers: { authorization: admin }, payload: { url: '/x' } });
    expectWpError(id, 400, 'rest_invalid_param');
    expect(id.json().data.params).toEqual({ id: 'Invalid parameter.' });
    // biome-ignore lint/correctness/noPrecisionLoss: an ID beyond 2^53 is what is tested
    const bulk = await send({ method: 'POST', url: '/wp-json/redirection/v1/bulk/redirect/delete', headers: { authorization: admin }, payload: { items: [99999999999999999999] } });
    expectWpError(bulk, 400, 'redirect_bulk_failed');
    const groups = await send({ method: 'POST', url: '/wp-json/redirection/v1/bulk/group/delete', headers: { authorization: admin }, payload: { items: ['99999999999999999999', 'x'] } });
    expect(groups.statusCode).toBe(200);
    const logs = await send({ method: 'POST', url: '/wp-json/redirection/v1/bulk/404/delete', headers: { authorization: admin }, payload: { items: ['99999999999999999999'] } });
    expect(logs.statusCode).toBe(200);
    const json = await postAsAdmin('/wp-json/redirection/v1/redirect?_method=GET', '{"page": 1e20}');
    expectWpError(json, 400, 'rest_invalid_param');
    expect(json.json().data.params.page).toBe('page must be between 0 (inclusive) and 9007199254740991 (inclusive)');
  });

  it('keeps a malformed percent-encoding in a slug as written', async () => {
    const r = await send({ method: 'DELETE', url: '/wp-json/calendar/events/v1/events/by-slug/%25', headers: { authorization: admin } });
    expectWpError(r, 400, 'rest_invalid_param');
    expect(r.json().data.params).toEqual({ slug: 'Invalid parameter.' });
  });

  it('imports junk CSV, wrongly typed JSON and a malformed Apache file without a 500', async () => {
    const files: [string, string][] = [
      ['junk.csv', '\u0000,"\n;;;|||\n"unterminated,\r\n%,%%,\u00ff\u0000'],
      ['junk.csv', 'a,b,1,99999999999999999999,url,99999999999999999999,title,active\n'],
      ['typed.json', '{"groups": "x", "redirects": {"a": 1}, "settings": [1]}'],
      ['typed.json', '{"groups": [{"id": "x", "name": {}, "module_id": []}], "redirects": [{"url": "/a", "group_id": {}, "action_code": "x", "position": 1e20, "hits": 1e20, "action_data": 5, "match_type": 7, "title": {}}]}'],
      ['typed.json', '{"redirects": [{"url": "/b\u0000", "group_id": 1}], "settings": {"__proto__": {"x": 1}, "constructor": 1, "expire_redirect": "x"}}'],
      ['typed.json', '[1, 2, 3]'],
      ['typed.json', 'null'],
      ['rules.htaccess', 'RewriteRule ^%$ /target [R=301]\nRedirect 301 /a%zz /b\n'],
    ];
    for (const [name, content] of files) {
      const r = await send({ method: 'POST', url: '/wp-json/redirection/v1/import/file/1', ...upload(name, content) });
      expect(r.statusCode, `${name}: ${content}\n${r.body}`).toBeLessThan(500);
      if (r.statusCode >= 400) expectWpError(r, r.statusCode);
    }
    await stillHealthy();
  });
});

describe('headers too large', () => {
  it('answers 431 in the WordPress error shape and closes the connection cleanly', async () => {
    const address = await app.server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const response = await new Promise<{ text: string; ended: boolean }>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      let ended = false;
      socket.on('data', (d) => (text += d));
      socket.on('end', () => (ended = true));
      socket.on('close', (hadError) => (hadError ? reject(new Error(`socket error; got ${text}`)) : resolve({ text, ended })));
      socket.on('error', reject);
      socket.write(`GET /wp-json/ HTTP/1.1\r\nHost: lintel.test\r\nX-Filler: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
    });
    expect(response.ended).toBe(true);
    const [head, body] = response.text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(head).toMatch(/\r\nConnection: close/i);
    expect(JSON.parse(body!)).toEqual({ code: 'rest_request_headers_too_large', message: 'The request headers are larger than the server accepts.', data: { status: 431 } });
    await stillHealthy();
  });
});

describe('paths with an encoded question mark', () => {
  it('are cut at it unless they hold a dot, as the legacy site\'s server hands WordPress the path', async () => {
    const index = await send({ method: 'GET', url: '/wp-json/redirection/v1%3F/x' });
    expect([index.statusCode, index.json().namespace]).toEqual([200, 'redirection/v1']);
    expectWpError(await send({ method: 'DELETE', url: '/wp-json/calendar/events/v1/organizers/by-slug/%3Fa' }), 404, 'rest_no_route');
    // With a dot anywhere in the path it reaches WordPress as sent: the `?` stays in the route.
    expectWpError(await send({ method: 'GET', url: '/wp-json/oembed/1.0%3F/embed' }), 404, 'rest_no_route');
    const slug = await send({ method: 'GET', url: '/wp-json/calendar/events/v1/organizers/by-slug/a.b%3Fc' });
    expectWpError(slug, 400, 'rest_invalid_param');
  });

  it('keep an `&` and a `+` in the route, and an escape in a path with a dot (the rewrite rule urlencodes what it matched)', async () => {
    expectWpError(await send({ method: 'GET', url: '/wp-json/redirection/v1%26' }), 404, 'rest_no_route');
    expectWpError(await send({ method: 'GET', url: '/wp-json/calendar/events/v1/venues/by-slug/%26' }), 400, 'rest_invalid_param');
    expectWpError(await send({ method: 'GET', url: '/wp-json/oembed%2F1.0' }), 404, 'rest_no_route');
    expect((await send({ method: 'GET', url: '/wp-json/redirection%2Fv1' })).json().namespace).toBe('redirection/v1');
  });
});

describe('paths with malformed percent-encoding', () => {
  it('are answered as the legacy site answers the path as written: no route, a slug, or a page', async () => {
    expectWpError(await send({ method: 'POST', url: '/wp-json/tribe/events/v1/venues/%zz/', payload: 'phone=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 404, 'rest_no_route');
    const slug = await send({ method: 'GET', url: '/wp-json/calendar/events/v1/events/by-slug/%zz' });
    expectWpError(slug, 400, 'rest_invalid_param');
    expect(slug.json().data.params).toEqual({ slug: 'Invalid parameter.' });
    const page = await send({ method: 'GET', url: '/event/%zz/' });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });

  it('keep their body: a query rest_route names the route and the form body its parameters', async () => {
    const r = await send({ method: 'POST', url: '/wp-json/%zz?rest_route=/calendar/events/v1/events', payload: new URLSearchParams(EVENT_DATES).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expectWpError(r, 400, 'rest_missing_callback_param');
    expect(r.json().data.params).toEqual(['title']);
  });
});

describe('envelopes', () => {
  it('wrap a raw (XML) answer as JSON, also with an empty _envelope', async () => {
    const r = await send({ method: 'GET', url: '/wp-json/oembed/1.0/embed?url=http%3A%2F%2Flintel.test%2Fevent%2Fnone%2F&format=xml&_envelope=' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ status: 404, body: expect.stringContaining('<code>oembed_invalid_url</code>') });
  });
});

describe('maps from client keys', () => {
  it('convert to a string whatever keys they hold, from the query or JSON', async () => {
    for (const url of ['/wp-json/oembed/1.0?namespace[toString]=x&namespace[x]=1', '/?rest_route=/redirection/v1&namespace[0]=&namespace[toString]=']) {
      expectWpError(await send({ method: 'GET', url, headers: { authorization: admin } }), 404, 'rest_invalid_namespace');
    }
    const json = await send({ method: 'POST', url: '/wp-json/oembed/1.0?_method=GET', headers: { 'content-type': 'application/json' }, payload: '{"namespace": {"toString": 1, "valueOf": 2}}' });
    expectWpError(json, 404, 'rest_invalid_namespace');
  });
});
