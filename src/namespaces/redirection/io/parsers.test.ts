import { describe, expect, it } from 'vitest';
import { capture, recordedState } from '../../../../test/redirection/support.ts';
import { formatOfFile, parseApache, parseCsv, parseJson } from './parsers.ts';
import { writeCsv, writeJson } from './writers.ts';

const state = recordedState();
const now = new Date('2026-11-21T12:09:37Z');

describe('import parsers', () => {
  it('chooses the format by extension', () => {
    expect([formatOfFile('a.csv'), formatOfFile('a.TXT'), formatOfFile('a.json'), formatOfFile('.htaccess')]).toEqual(['csv', 'csv', 'json', 'apache']);
  });

  it('csv: the recorded upload (448) gives two url redirects', () => {
    const body = capture(448).request.body!;
    const file = body.split('\r\n\r\n')[1] ?? body.split('\n\n')[1]!;
    const items = parseCsv(file.split('--oracleboundary')[0]!);
    expect(items).toEqual([
      { url: '/imported-one', action_type: 'url', action_code: 301, action_data: { url: '/imported-target' }, match_type: 'url', regex: false },
      { url: '/imported-two', action_type: 'url', action_code: 302, action_data: { url: '/imported-target-2' }, match_type: 'url', regex: false },
    ]);
  });

  it('csv: auto-detects regex, unknown codes become 301, 4xx become error, skips empty and self rows, tries ; and |', () => {
    expect(parseCsv('/x(.*);/y\n;/z\n/s;/s\n/g;;0;410\n').map((r) => [r.url, r.regex, r.action_type, r.action_code])).toEqual([
      ['/x(.*)', true, 'url', 301],
      ['/g', false, 'error', 410],
    ]);
    expect(parseCsv('/a|/b|0|999')[0]).toMatchObject({ url: '/a', action_code: 301 });
  });

  it('csv: an export read back keeps every field it carries', () => {
    const back = parseCsv(writeCsv({ ...state, now }));
    expect(back.map((r) => [r.url, r.action_data?.url ?? '', r.regex, r.action_code, r.action_type, r.hits, r.title ?? '', r.enabled])).toEqual(
      state.redirects.map((r) => [r.url, r.action_code > 400 && r.action_code < 500 ? '' : r.action_data?.url, r.regex, r.action_code, r.action_type, r.hits, r.title, r.enabled]),
    );
  });

  it('csv: formula neutralising is undone on import', () => {
    const r = { ...state.redirects[0]!, title: '=cmd|x', url: '/a' };
    expect(parseCsv(writeCsv({ groups: [], redirects: [r], now }))[0]!.title).toBe('=cmd|x');
  });

  it('json: an export read back gives the same groups and redirects', () => {
    const back = parseJson(writeJson({ ...state, now }))!;
    expect(back.groups).toEqual(state.groups.map((g) => ({ id: g.id, name: g.name, module_id: g.module_id, enabled: g.enabled })));
    expect(back.redirects.map((r) => [r.url, r.action_data, r.match_data, r.title, r.hits, r.position, r.group_id, r.enabled])).toEqual(
      state.redirects.map((r) => [r.url, r.action_data, r.match_data, r.title, r.hits, r.position, r.group_id, r.enabled]),
    );
  });

  it('json: a 4.x string action_data is wrapped as {url}; not JSON gives null', () => {
    expect(parseJson('{"redirects":[{"url":"/a","action_type":"url","action_code":301,"action_data":"/b"}]}')!.redirects[0]!.action_data).toEqual({ url: '/b' });
    expect(parseJson('nope')).toBeNull();
  });

  it('apache: RewriteRule, Redirect and RedirectMatch with their codes', () => {
    const text = ['RewriteRule ^old-page/?$ /new-page/ [R=301,L,NC]', 'RewriteRule ^archive/(\\d+)$ /y/$1 [R=302,L]', 'Redirect /a /b', 'Redirect permanent /c /d', 'RedirectMatch 410 ^/e(.*) /f', 'RewriteCond %{HTTPS} off'].join('\n');
    expect(parseApache(text).map((r) => [r.url, r.action_data?.url, r.action_code, r.regex])).toEqual([
      ['/old-page', '/new-page/', 301, false],
      ['^/archive/(\\d+)$', '/y/$1', 302, true],
      ['/a', '/b', 302, false],
      ['/c', '/d', 301, false],
      ['^/e(.*)', '/f', 301, true],
    ]);
  });
});
