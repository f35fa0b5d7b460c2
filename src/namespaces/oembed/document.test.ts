import { describe, expect, it } from 'vitest';
import { embedDocument, oembedXml } from './document.ts';
import type { Embeddable } from './embeddable.ts';

const site = { name: 'Oracle Site', home: 'http://127.0.0.1:8088' };
const record = (title: string): Embeddable => ({ kind: 'event', title, permalink: 'http://127.0.0.1:8088/event/x/', authorName: 'admin', authorUrl: null, descriptionHtml: '', isPublic: true });
const embed = (title: string) => embedDocument(record(title), site, 600, 'S3cr3tS3cr') as { title: string; html: string };
const link = (html: string) => /<a href="[^"]*">(.*?)<\/a><\/blockquote>/.exec(html)?.[1];
const frameTitle = (html: string) => / title="([^"]*)" data-secret/.exec(html)?.[1];

// Each expectation is what the legacy site answered for a record of that title (WordPress 7, The Events Calendar 6.17).
describe('the oEmbed document of a record', () => {
  it('names the record as get_the_title does: texturized, character references kept as they are', () => {
    const doc = embed("Rock & Roll &amp; Blues it's café 🎸 &nbsp;&copy; &#1; &AMP; &lt;i&gt;");
    expect(doc.title).toBe('Rock &#038; Roll &amp; Blues it&#8217;s café 🎸 &nbsp;&copy; &#1; &AMP; &lt;i&gt;');
    expect(link(doc.html)).toBe(doc.title);
  });

  it("titles the iframe with esc_attr of “title” — site: references it knows kept, others' ampersands escaped", () => {
    expect(frameTitle(embed('Nbsp&nbsp;and &copy; &#1; &AMP; &lt;i&gt; &#8217; x').html)).toBe(
      '&#8220;Nbsp&nbsp;and &copy; &amp;#1; &amp;AMP; &lt;i&gt; &#8217; x&#8221; &#8212; Oracle Site',
    );
    const doc = embed('Plain > arrow &#x1F3B8; &#X41; &#0; &apos;');
    expect(link(doc.html)).toBe('Plain > arrow &#x1F3B8; &#X41; &#0; &apos;');
    expect(frameTitle(doc.html)).toBe('&#8220;Plain &gt; arrow &#x1F3B8; &#x41; &amp;#0; &amp;apos;&#8221; &#8212; Oracle Site');
  });

  it('escapes a title holding markup in the link, where the legacy site pastes it as HTML (oembed-title-markup)', () => {
    const doc = embed('Markup <b>bold</b> & <i>it</i>');
    expect(doc.title).toBe('Markup <b>bold</b> &#038; <i>it</i>');
    expect(link(doc.html)).toBe('Markup &lt;b&gt;bold&lt;/b&gt; &#038; &lt;i&gt;it&lt;/i&gt;');
    expect(frameTitle(doc.html)).toBe('&#8220;Markup &lt;b&gt;bold&lt;/b&gt; &#038; &lt;i&gt;it&lt;/i&gt;&#8221; &#8212; Oracle Site');
  });
});

describe('the XML form', () => {
  const xmlTitle = (title: string) => /<title>(.*?)<\/title>/.exec(oembedXml(embed(title)))?.[1];

  it('holds esc_html of each value as libxml reads and writes it: numeric references and non-ASCII as hex references, unknown names kept', () => {
    expect(xmlTitle("Rock & Roll &amp; Blues it's café 🎸")).toBe('Rock &amp; Roll &amp; Blues it&#x2019;s caf&#xE9; &#x1F3B8;');
    expect(xmlTitle('Nbsp&nbsp;and &copy; &#1; &AMP; &lt;i&gt; &#8217; x')).toBe('Nbsp&nbsp;and &copy; &amp;#1; &amp;AMP; &lt;i&gt; &#x2019; x');
    expect(xmlTitle('Plain > arrow &#x1F3B8; &#X41; &#0; &apos;')).toBe('Plain &gt; arrow &#x1F3B8; A &amp;#0; &amp;apos;');
  });

  it('writes the html as text, its quotes as they are', () => {
    const xml = oembedXml(embed('A & B'));
    expect(xml).toContain('<html>&lt;blockquote class="wp-embedded-content" data-secret="S3cr3tS3cr"&gt;&lt;a href="http://127.0.0.1:8088/event/x/"&gt;A &amp; B&lt;/a&gt;');
    expect(xml).toContain(' title="&#x201C;A &amp; B&#x201D; &#x2014; Oracle Site" ');
  });
});
