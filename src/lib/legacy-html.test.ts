/** The legacy message functions, against answers PHP 8.2 and WordPress 7.0 gave for the same input. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { escHtml, htmlEntityDecode, htmlSpecialChars, ksesNoNull, phpTrim, sanitizeTextField, stripAllTags, stripTags } from './legacy-html.ts';

// [input, esc_html(input), wp_strip_all_tags(html_entity_decode(esc_html(input))), strip_tags(input)]
const CASES: [string, string, string, string][] = [
  ['a <b>x</b> &amp; y < z "q" \'s', 'a &lt;b&gt;x&lt;/b&gt; &amp; y &lt; z &quot;q&quot; &#039;s', 'a x & y < z "q" \'s', 'a x &amp; y < z "q" \'s'],
  ['&apos; &#9; &#x2E; &foo; &#0; &#65; &#x7f;', '&amp;apos; &#009; &#x2E; &amp;foo; &amp;#0; &#065; &#x7f;', '&apos; \t . &foo; &#0; A &#x7f;', '&apos; &#9; &#x2E; &foo; &#0; &#65; &#x7f;'],
  ['Tom &amp;amp; Jerry &copy; &#xfdd0;', 'Tom &amp;amp; Jerry &copy; &#xfdd0;', 'Tom &amp; Jerry \u00a9 \ufdd0', 'Tom &amp;amp; Jerry &copy; &#xfdd0;'],
  ['<!-- c --> <?php x ?> <!DOCTYPE html> after', '&lt;!-- c --&gt; &lt;?php x ?&gt; &lt;!DOCTYPE html&gt; after', 'after', '   after'],
  ['unclosed <b title="a>b" rest', 'unclosed &lt;b title=&quot;a&gt;b&quot; rest', 'unclosed', 'unclosed '],
  ['<script>alert(1)</script>ok<style>p{}</style>', '&lt;script&gt;alert(1)&lt;/script&gt;ok&lt;style&gt;p{}&lt;/style&gt;', 'ok', 'alert(1)okp{}'],
];

describe('legacy message text', () => {
  it.each(CASES)('%j as esc_html, the message and strip_tags write it', (input, html, message, stripped) => {
    expect(escHtml(input)).toBe(html);
    expect(stripAllTags(htmlEntityDecode(html))).toBe(message);
    expect(stripTags(input)).toBe(stripped);
  });
});

describe('htmlspecialchars', () => {
  it('escapes the & of a reference already there, which esc_html keeps', () => {
    expect(htmlSpecialChars('Tom &amp; "Jerry" <3 \'s')).toBe('Tom &amp;amp; &quot;Jerry&quot; &lt;3 &#039;s');
    expect(escHtml('Tom &amp; "Jerry" <3 \'s')).toBe('Tom &amp; &quot;Jerry&quot; &lt;3 &#039;s');
  });
});

// [input, sanitize_text_field(input)]
const TEXT_FIELDS: [string, string][] = [
  ["sproto__<", "sproto__&lt;"],
  ["a < b", "a &lt; b"],
  ["<b>bold</b> x", "bold x"],
  ["a<b", "a&lt;b"],
  ["x  y\t\nz ", "x y z"],
  [" %41b%4", "b%4"],
  ["a %zz %2F c", "a %zz c"],
  ["<<a>", "&lt;"],
  ["a&b <", "a&b &lt;"],
  ["<script>x</script>y", "y"],
  ["a <\nb", "a &lt; b"],
  ["%%41 1", "% 1"],
  ["a<", "a&lt;"],
  ["&lt; <", "&lt; &lt;"],
  ["a%4%41%14 b", "a%4 b"],
  ["<a\n", "&lt;a"],
  ["<a href=\"x\">t</a>", "t"],
  ["a <!-- c --> b", "a b"],
  ["<<<", "&lt;&lt;&lt;"],
  ["x%41%41y", "xy"],
  ["A < B < C>", "A &lt; B < C>"],
  ["<? php ?> q", "q"],
  ["&amp; <i>&</i>", "&amp; &"],
  ["a\r\n\r\nb", "a b"],
  ["\u000b x \u000b", "x"],
  ["<3 you", "&lt;3 you"],
  ["%E2%80%AE x", "x"],
  ["a <b c", "a &lt;b c"],
  ["tab\tsep", "tab sep"],
];

describe('sanitize_text_field', () => {
  it.each(TEXT_FIELDS)('%j is stored as %j: a < opening no tag escaped, tags, runs of white space and percent-encoded octets gone', (input, stored) => {
    expect(sanitizeTextField(input)).toBe(stored);
  });
});

describe('ksesNoNull', () => {
  it("drops what wp_kses_no_null drops (C0 controls but tab, line feed and carriage return), and keeps DEL and a slashed zero", () => {
    expect(ksesNoNull('a\0b\x01\x08\x0B\x0C\x0E\x1Fc\t\n\r\x7f\\0')).toBe('abc\t\n\r\x7f\\0');
  });
});

describe('the one-pass forms of WordPress regexes and loops', () => {
  // Texts made of the pieces the patterns look at, so the cases that matter come often.
  const pieces = fc.constantFrom('<script>', '<SCRIPT a>', '</script>', '</Script>', '<style>', '</style>', '<scripts>', '<', '>', 'x', ' ', '%', '4', '1', 'a', 'F', '%41', '%%4141');
  const text = fc.array(pieces, { maxLength: 24 }).map((p) => p.join(''));

  it('wp_strip_all_tags removes the script and style elements its regex removes', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(stripAllTags(s)).toBe(phpTrim(stripTags(s.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, ''))));
      }),
    );
  });

  it("sanitize_text_field removes octets as its loop of str_replace does, a removal's new octet included", () => {
    const loop = (s: string) => {
      let out = s;
      for (let m = /%[a-f0-9]{2}/i.exec(out); m; m = /%[a-f0-9]{2}/i.exec(out)) out = out.replaceAll(m[0], '');
      return out;
    };
    fc.assert(
      fc.property(text, (s) => {
        const plain = s.replace(/[<>]/g, '');
        expect(sanitizeTextField(plain)).toBe(phpTrim(loop(phpTrim(plain.replace(/[\r\n\t ]+/g, ' '))).replace(/ +/g, ' ')));
      }),
    );
  });
});
