/** GET /oembed/1.0/embed through the EmbeddableLookup port, compared with the oEmbed captures. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translators } from '../../src/namespaces/index.ts';
import { oembedNamespace } from '../../src/namespaces/oembed/routes.ts';
import { testApp, TEST_BASE, type TestApp } from '../support/app.ts';
import { lookupOver, record } from './support.ts';

const capture = (name: string) => JSON.parse(readFileSync(new URL(`../../fixtures/captures/${name}`, import.meta.url), 'utf8'));
const LEGACY = 'http://127.0.0.1:8088';

const lookup = lookupOver([
  record(TEST_BASE, 'winter-jazz-festival'),
  record(TEST_BASE, 'autumn-jazz-night'),
  record(TEST_BASE, 'members-only-tasting', { title: 'Members-only Tasting', isPublic: false }),
  record(TEST_BASE, 'a-draft', { isPublic: false }),
  record(TEST_BASE, 'markup-night', { title: 'Markup <b>Night</b> & more' }),
  record(TEST_BASE, 'blue-note-hall', { kind: 'venue', permalink: `${TEST_BASE}/venue/blue-note-hall/` }),
]);
const original = translators['oembed/1.0'];
let app: TestApp;
beforeAll(async () => {
  translators['oembed/1.0'] = oembedNamespace(lookup);
  app = await testApp({ env: { LINTEL_CLOCK: '2026-11-21T12:08:00Z' } });
  await app.store.options.setSite({ name: 'Oracle Site', description: 'Reference oracle' });
});
afterAll(async () => {
  await app.close();
  translators['oembed/1.0'] = original;
});

/** The capture's request with its legacy address swapped for the test site's. */
const replay = (name: string) => {
  const c = capture(name);
  return { c, res: app.server.inject({ method: 'GET', url: c.request.url.replaceAll(encodeURIComponent(LEGACY), encodeURIComponent(TEST_BASE)) }) };
};
const secretOf = (html: string) => /data-secret="([A-Za-z0-9]{10})"/.exec(html)?.[1];
const localize = (v: unknown) => JSON.parse(JSON.stringify(v).replaceAll(LEGACY, TEST_BASE));

describe('oEmbed embed', () => {
  it('answers the legacy document for an event page, in the legacy key order (capture 211)', async () => {
    const { c, res } = replay('211-oembed-event.json');
    const r = await res;
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/json; charset=UTF-8');
    const body = r.json();
    const want = localize(c.response.body_json);
    expect(Object.keys(body)).toEqual(Object.keys(want));
    const secret = secretOf(body.html)!;
    const legacySecret = secretOf(want.html)!;
    // Lintel's embed page needs no receiver script: the markup is the legacy one without it (DEVIATIONS.md).
    const legacyMarkup = want.html.replace(/<script>[\s\S]*<\/script>\n$/, '').replaceAll(legacySecret, secret);
    expect(body).toEqual({ ...want, html: legacyMarkup });
  });

  it('draws a new secret for each answer', async () => {
    const a = (await replay('211-oembed-event.json').res).json().html;
    const b = (await replay('211-oembed-event.json').res).json().html;
    expect(secretOf(a)).not.toBe(secretOf(b));
  });

  it('clamps the width to 200–600 and sets the height to 16:9, at least 200 (capture 213)', async () => {
    const { c, res } = replay('213-oembed-event-maxwidth.json');
    const body = (await res).json();
    expect([body.width, body.height]).toEqual([c.response.body_json.width, c.response.body_json.height]);
    const size = async (w: string) => {
      const r = await app.server.inject({ method: 'GET', url: `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(`${TEST_BASE}/event/autumn-jazz-night/`)}&maxwidth=${w}` });
      const b = r.json();
      return [b.width, b.height];
    };
    expect(await size('100')).toEqual([200, 200]);
    expect(await size('-300')).toEqual([300, 200]);
    expect(await size('9999')).toEqual([600, 338]);
    expect(await size('abc')).toEqual([200, 200]);
    expect(await size('480')).toEqual([480, 270]);
  });

  it('names the event as get_the_title does, its markup escaped in the link (oembed-title-markup, capture 915)', async () => {
    const r = await app.server.inject({ method: 'GET', url: `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(`${TEST_BASE}/event/markup-night/`)}` });
    const body = r.json();
    expect(body.title).toBe('Markup <b>Night</b> &#038; more');
    expect(body.html).toContain('>Markup &lt;b&gt;Night&lt;/b&gt; &#038; more</a>');
    expect(body.html).toContain('title="&#8220;Markup &lt;b&gt;Night&lt;/b&gt; &#038; more&#8221; &#8212; Oracle Site"');
  });

  it('embeds events only: a venue or organizer page it finds is not embedded, as on the legacy site (capture 913)', async () => {
    const r = await app.server.inject({ method: 'GET', url: `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(`${TEST_BASE}/venue/blue-note-hall/`)}` });
    expect(r.statusCode).toBe(404);
    expect(r.json().code).toBe('oembed_invalid_url');
  });

  it('answers 404 oembed_invalid_url for an unknown page and a draft (captures 214, 216)', async () => {
    for (const name of ['216-oembed-not-found.json', '214-oembed-event-draft.json']) {
      const { c, res } = replay(name);
      const r = await res;
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual(c.response.body_json);
    }
    const draft = await app.server.inject({ method: 'GET', url: `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(`${TEST_BASE}/event/a-draft/`)}` });
    expect(draft.statusCode).toBe(404);
  });

  it('does not embed a password-protected record (capture 215, a listed deviation)', async () => {
    const { res } = replay('215-oembed-event-password-protected.json');
    const r = await res;
    expect(r.statusCode).toBe(404);
    expect(r.json().code).toBe('oembed_invalid_url');
  });

  it('requires url (capture 217)', async () => {
    const { c, res } = replay('217-oembed-missing-url.json');
    const r = await res;
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual(c.response.body_json);
  });

  it('answers XML when asked, errors included, and JSON for any other format', async () => {
    const url = encodeURIComponent(`${TEST_BASE}/event/winter-jazz-festival/`);
    const xml = await app.server.inject({ method: 'GET', url: `/wp-json/oembed/1.0/embed?url=${url}&format=xml&maxwidth=400` });
    expect(xml.statusCode).toBe(200);
    expect(xml.headers['content-type']).toBe('text/xml; charset=UTF-8');
    expect(xml.body).toMatch(/^<\?xml version="1\.0"\?>\n<oembed><version>1\.0<\/version><provider_name>Oracle Site<\/provider_name><provider_url>http:\/\/lintel\.test<\/provider_url>/);
    expect(xml.body).toContain('<width>400</width><height>225</height><html>&lt;blockquote class="wp-embedded-content"');
    const missing = await app.server.inject({ method: 'GET', url: `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(`${TEST_BASE}/event/nope/`)}&format=xml` });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe('<?xml version="1.0"?>\n<oembed><code>oembed_invalid_url</code><message>Not Found</message><data><status>404</status></data></oembed>\n');
    const other = await app.server.inject({ method: 'GET', url: `/wp-json/oembed/1.0/embed?url=${url}&format=yaml` });
    expect(other.json().version).toBe('1.0');
  });

  it('is described in the index as on the legacy site', async () => {
    const legacy = capture('042-wp-json-index.json').response.body_json.routes;
    const ours = (await app.server.inject({ method: 'GET', url: '/wp-json/oembed/1.0' })).json().routes;
    for (const p of ['/oembed/1.0', '/oembed/1.0/embed', '/oembed/1.0/proxy']) expect(ours[p]).toEqual(localize(legacy[p]));
  });
});
