import { describe, expect, it } from 'vitest';
import { capture, recordedState } from '../../../../test/redirection/support.ts';
import { rfc2822, writeApache, writeCsv, writeJson, writeNginx, writeRedirectsFile } from './writers.ts';
import type { RedirectJson } from './shapes.ts';

const data = (seq: number) => (capture(seq).response.body_json as { data: string }).data;
const at = (seq: number) => new Date(capture(seq).captured_at);
const state = recordedState();
const input = (seq: number) => ({ ...state, now: at(seq) });

describe('export writers against the recorded exports', () => {
  it('writes the date as PHP date("r") in UTC', () => {
    expect(rfc2822(new Date('2026-11-21T12:08:25Z'))).toBe('Sat, 21 Nov 2026 12:08:25 +0000');
  });

  it('csv: header, quoted strings, bare numbers, empty target for 4xx (410)', () => {
    expect(writeCsv(input(410))).toBe(data(410));
  });

  it('apache: enabled url rules, /? for trailing, NC for case, raw regex without ^/ (411)', () => {
    expect(writeApache(input(411))).toBe(data(411));
  });

  it('nginx: permanent for 301, redirect otherwise, (?i) for case, the 410 rule with no target (412)', () => {
    // The recorded site writes regex rules without their leading slash and turns `\d` into `]d`
    // (both in DEVIATIONS.md); Lintel writes the regex as stored, which nginx matches.
    const recorded = data(412).replace('^blog/', '^/blog/').replace('^archive/(]d+)', '^/archive/(\\d+)');
    expect(writeNginx(input(412))).toBe(recorded);
    expect(writeNginx(input(412))).toContain('    rewrite ^/blog/(.*)$ /news/$1 permanent;\n');
  });

  it('json: PHP pretty print with groups and redirects (413)', () => {
    expect(writeJson(input(413))).toBe(data(413));
  });

  it('json: an empty module (256)', () => {
    expect(writeJson({ groups: [], redirects: [], now: at(256) })).toBe(data(256));
  });

  it('apache: no rules gives a lone newline', () => {
    expect(writeApache({ groups: [], redirects: [], now: at(411) })).toBe('\n');
  });

  const one = (over: Partial<RedirectJson>): RedirectJson => ({
    ...state.redirects[0]!,
    ...over,
  });

  it('apache: query condition, QSA for pass queries, NE for # targets, https lines', () => {
    const r = one({ url: '/a.php?x=1', action_data: { url: '/t#h' }, match_data: { source: { flag_query: 'pass', flag_case: false, flag_trailing: false, flag_regex: false } } });
    const text = writeApache({ groups: [], redirects: [r], now: at(411), https: true });
    expect(text).toContain('RewriteCond %{HTTPS} off\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [L,R=301]\n');
    expect(text).toContain('RewriteCond %{QUERY_STRING} ^x=1$\nRewriteRule ^a\\.php$ /t#h [R=301,L,QSA,NE]\n');
  });

  it('nginx: referrer rules become if blocks', () => {
    const r = one({ match_type: 'referrer', action_data: { regex: false, referrer: 'ex.com', url_from: '/from', url_notfrom: '' } });
    expect(writeNginx({ groups: [], redirects: [r], now: at(412) })).toContain('    if ( $http_referer ~* ^ex.com$ ) {\n        rewrite (?i)^/old-page$ /from permanent;\n    }\n');
  });

  it('csv: a cell a spreadsheet would run gets a leading quote', () => {
    const r = one({ title: '=HYPERLINK("x")', url: '/a' });
    expect(writeCsv({ groups: [], redirects: [r], now: at(410) })).toContain('"\'=HYPERLINK(""x"")"');
  });

  it('redirects-file: enabled plain url redirects only', () => {
    expect(writeRedirectsFile(input(410))).toBe('/old-page /new-page/ 301\n/partner https://partner.example.com/landing 308\n/oracle-created /target-2/ 302\n');
  });
});
