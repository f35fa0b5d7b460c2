/** GET /oembed/1.0/proxy with a local provider on 127.0.0.1 (allow-listed) serving fixtures/upstream. */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translators } from '../../src/namespaces/index.ts';
import { parseProviders } from '../../src/namespaces/oembed/providers.ts';
import { discoverEndpoint } from '../../src/namespaces/oembed/proxy.ts';
import { oembedNamespace } from '../../src/namespaces/oembed/routes.ts';
import { guardedFetcher } from '../../src/upstream/fetch.ts';
import { testApp, TEST_BASE, type TestApp } from '../support/app.ts';
import { lookupOver, record } from './support.ts';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/upstream/${name}`, import.meta.url), 'utf8');

let server: Server;
let origin: string;
const hits: string[] = [];
const original = translators['oembed/1.0'];
let app: TestApp;
let editor: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const path = (req.url ?? '').split('?')[0];
    if (path === '/oembed') return res.writeHead(200, { 'content-type': 'application/json' }).end(fixture('video-oembed.json'));
    if (path === '/watch/discoverable') return res.writeHead(200, { 'content-type': 'text/html' }).end(fixture('page-with-discovery.html'));
    if (path === '/watch/plain') return res.writeHead(200, { 'content-type': 'text/html' }).end(fixture('page-without-discovery.html'));
    if (path === '/to-metadata') return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const providers = parseProviders({ providers: [{ name: 'Local video', patterns: [`${origin}/video/*`], endpoint: `${origin}/oembed` }] });
  const lookup = lookupOver([record(TEST_BASE, 'winter-jazz-festival')]);
  translators['oembed/1.0'] = oembedNamespace(lookup, { providers, fetch: guardedFetcher({ allow: ['127.0.0.1'], timeoutMs: 2000 }) });
  app = await testApp();
  await app.store.options.setSite({ name: 'Oracle Site', description: 'Reference oracle' });
  editor = await app.auth('contributor');
});
afterAll(async () => {
  await app.close();
  translators['oembed/1.0'] = original;
  await new Promise<void>((r) => server.close(() => r()));
});

const proxy = (query: Record<string, string>, auth: string | null = editor) =>
  app.server.inject({ method: 'GET', url: `/wp-json/oembed/1.0/proxy?${new URLSearchParams(query)}`, headers: auth ? { authorization: auth } : {} });

describe('oEmbed proxy', () => {
  it('needs a user who can edit_posts, with the legacy message', async () => {
    const anon = await proxy({ url: `${origin}/video/1` }, null);
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to make proxied oEmbed requests.', data: { status: 401 } });
    const subscriber = await proxy({ url: `${origin}/video/1` }, await app.auth('subscriber'));
    expect(subscriber.statusCode).toBe(403);
  });

  it('validates format as json or xml', async () => {
    const r = await proxy({ url: `${origin}/video/1`, format: 'yaml' });
    expect(r.statusCode).toBe(400);
    expect(r.json().data.params.format).toBe('format is not one of json and xml.');
  });

  it('answers JSON whatever format is asked (WordPress writes XML for the embed route only), errors too', async () => {
    const local = await proxy({ url: `${TEST_BASE}/event/winter-jazz-festival/`, format: 'xml' });
    expect([local.statusCode, local.headers['content-type'], local.json().title]).toEqual([200, 'application/json; charset=UTF-8', 'Winter Jazz Festival']);
    const missing = await proxy({ url: `${TEST_BASE}/event/nope/`, format: 'xml' });
    expect([missing.headers['content-type'], missing.json()]).toEqual(['application/json; charset=UTF-8', { code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } }]);
  });

  it('reads maxwidth and maxheight with absint, never refusing them (as WordPress, whose sanitize callback replaces the type check)', async () => {
    hits.length = 0;
    const r = await app.server.inject({ method: 'GET', url: `/wp-json/oembed/1.0/proxy?url=${encodeURIComponent(`${origin}/video/1`)}&maxwidth[][]=-4&maxheight=-320px`, headers: { authorization: editor } });
    expect(r.statusCode).toBe(200);
    const asked = new URL(hits.at(-1)!, origin).searchParams;
    expect([asked.get('maxwidth'), asked.get('maxheight')]).toEqual(['1', '320']);
    expect((await proxy({ url: `${TEST_BASE}/event/nope/`, maxwidth: 'wide' })).json()).toEqual({ code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } });
  });

  it('cleans the url as WordPress\'s esc_url_raw does before reading it', async () => {
    // A scheme WordPress does not allow leaves no URL; one without a scheme is read as http.
    expect((await proxy({ url: 'javascript:alert(1)' })).json()).toEqual({ code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } });
    expect((await proxy({ url: '0x1f' })).json().code).toBe('upstream_forbidden_address');
    const local = await proxy({ url: ` ${TEST_BASE}/event/winter-jazz-festival/\0` });
    expect([local.statusCode, local.json().title]).toEqual([200, 'Winter Jazz Festival']);
  });

  it('asks the configured provider with the size, url, dnt and json format, and sanitizes the html', async () => {
    hits.length = 0;
    const r = await proxy({ url: `${origin}/video/1`, maxwidth: '500' });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ type: 'video', title: 'Live at the Blue Note', provider_name: 'ExampleVideo', width: 600 });
    const asked = new URL(hits[0], origin);
    expect(asked.pathname).toBe('/oembed');
    expect(Object.fromEntries(asked.searchParams)).toEqual({ maxwidth: '500', maxheight: '750', url: `${origin}/video/1`, dnt: '1', format: 'json' });
    expect(body.html).toContain('<iframe width="600" height="338" src="https://video.example/embed/abc123?feature=oembed" frameborder="0" allow="autoplay; encrypted-media" allowfullscreen title="Live at the Blue Note" sandbox=');
    expect(body.html).not.toMatch(/onload|<script|javascript:/);
    expect(body.html).toContain('<a>x</a>');
  });

  it('caches a document: the second identical call does not reach the provider', async () => {
    hits.length = 0;
    await proxy({ url: `${origin}/video/cached` });
    await proxy({ url: `${origin}/video/cached` });
    expect(hits).toHaveLength(1);
    await proxy({ url: `${origin}/video/cached`, maxwidth: '300' });
    expect(hits).toHaveLength(2);
  });

  it('discovers the JSON endpoint of an unknown page, unless discover is false', async () => {
    hits.length = 0;
    const r = await proxy({ url: `${origin}/watch/discoverable` });
    expect(r.statusCode).toBe(200);
    expect(hits.map((h) => h.split('?')[0])).toEqual(['/watch/discoverable', '/oembed']);
    expect(new URL(hits[1], origin).searchParams.get('url')).toBe(`${origin}/watch/discoverable`);
    const off = await proxy({ url: `${origin}/watch/discoverable`, discover: 'false' });
    expect(off.statusCode).toBe(404);
    expect(off.json()).toEqual({ code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } });
  });

  it('answers 404 for a page that announces nothing', async () => {
    const r = await proxy({ url: `${origin}/watch/plain` });
    expect(r.statusCode).toBe(404);
    expect(r.json().code).toBe('oembed_invalid_url');
  });

  it('answers this site’s own URLs from its records, without a request', async () => {
    hits.length = 0;
    const r = await proxy({ url: `${TEST_BASE}/event/winter-jazz-festival/`, maxwidth: '400' });
    expect(r.json()).toMatchObject({ provider_name: 'Oracle Site', title: 'Winter Jazz Festival', width: 400, height: 225 });
    expect(hits).toHaveLength(0);
  });

  it('refuses what the SSRF guard refuses, with its 4xx error', async () => {
    const inside = await proxy({ url: 'http://10.0.0.7/page' });
    expect(inside.statusCode).toBe(403);
    expect(inside.json().code).toBe('upstream_forbidden_address');
    const redirected = await proxy({ url: `${origin}/to-metadata` });
    expect(redirected.statusCode).toBe(403);
    const scheme = await proxy({ url: 'ftp://example.com/x' });
    expect(scheme.json().code).toBe('upstream_invalid_url');
  });

  it('answers a provider\'s document as JSON when XML is asked, as WordPress does', async () => {
    const r = await proxy({ url: `${origin}/video/1`, format: 'xml' });
    expect(r.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(r.json()).toMatchObject({ type: 'video', version: '1.0', title: 'Live at the Blue Note' });
  });
});

describe('discovery', () => {
  it('reads the JSON link of <head> only, resolving it against the page', () => {
    expect(discoverEndpoint(fixture('page-with-discovery.html'), 'https://video.example/watch/1')).toBe('https://video.example/oembed?format=json&url=page');
    expect(discoverEndpoint(fixture('page-without-discovery.html'), 'https://video.example/')).toBeNull();
  });
});

describe('sanitising HTML from outside', () => {
  it('keeps wp_kses_post formatting in descriptions and drops scripts, handlers, styles and unsafe schemes', async () => {
    const { sanitizeDescriptionHtml, sanitizeEmbedHtml } = await import('../../src/namespaces/oembed/sanitize.ts');
    expect(sanitizeDescriptionHtml('<p class="x">Hi <strong>there</strong> <a href="mailto:a@b.c" rel="nofollow">mail</a></p><details><summary>s</summary>d</details>')).toBe(
      '<p class="x">Hi <strong>there</strong> <a href="mailto:a@b.c" rel="nofollow">mail</a></p><details><summary>s</summary>d</details>',
    );
    expect(sanitizeDescriptionHtml('<img src=x onerror=alert(1)><a href="javascript:alert(1)">j</a><p style="position:fixed">s</p><script>alert(1)</script><svg><script>x</script></svg>')).toBe(
      '<img src="x" /><a>j</a><p>s</p>',
    );
    // A tag split by a quoted ">" (which a pattern matcher misreads) is parsed as a browser parses it.
    expect(sanitizeEmbedHtml('<a title="a>b" href="https://x.test/" onclick="e()">l</a><iframe src="https://v.test/e" sandbox="allow-top-navigation"></iframe>')).toBe(
      '<a title="a&gt;b" href="https://x.test/">l</a><iframe src="https://v.test/e" sandbox="allow-scripts allow-same-origin allow-popups" security="restricted"></iframe>',
    );
  });
});
