import { describe, expect, it } from 'vitest';
import type { RedirectJson, SourceFlags } from '../io/shapes.ts';
import { matchRequest, type EdgeRequest } from './match.ts';
import { RuleIndex } from './rules.ts';

let nextId = 1;
const flags = (f: Partial<SourceFlags> = {}): SourceFlags => ({ flag_query: 'exact', flag_case: true, flag_trailing: true, flag_regex: false, ...f });
function rule(url: string, over: Partial<RedirectJson> = {}, f: Partial<SourceFlags> = {}): RedirectJson {
  const source = flags(f);
  return {
    id: nextId++, url, match_url: source.flag_regex ? 'regex' : url.toLowerCase(), match_data: { source }, action_code: 301, action_type: 'url',
    action_data: { url: '/target' }, match_type: 'url', title: '', hits: 0, regex: source.flag_regex, group_id: 1, position: 0, last_access: '-', enabled: true, ...over,
  };
}
function req(url: string, over: Partial<EdgeRequest> & { headers?: Record<string, string>; cookies?: Record<string, string> } = {}): EdgeRequest {
  const q = url.indexOf('?');
  const headers = over.headers ?? {};
  return {
    method: 'GET', path: q < 0 ? url : url.slice(0, q), query: q < 0 ? '' : url.slice(q + 1), host: 'site.test', ip: '10.0.0.1',
    header: (n) => headers[n], cookie: (n) => over.cookies?.[n], loggedIn: false, hasRole: () => false, ...over,
  };
}
const target = (rules: RedirectJson[], r: EdgeRequest) => matchRequest(new RuleIndex(rules), r)?.target ?? null;

describe('source flags', () => {
  it('case: insensitive by flag, exact otherwise', () => {
    expect(target([rule('/Old')], req('/OLD'))).toBe('/target');
    expect(target([rule('/Old', {}, { flag_case: false })], req('/old'))).toBeNull();
  });
  it('trailing slash: ignored by flag, exact otherwise', () => {
    expect(target([rule('/a')], req('/a/'))).toBe('/target');
    expect(target([rule('/a', {}, { flag_trailing: false })], req('/a/'))).toBeNull();
  });
  it('query exact: same params in any order, no extras', () => {
    expect(target([rule('/a?x=1&y=2')], req('/a?y=2&x=1'))).toBe('/target');
    expect(target([rule('/a?x=1')], req('/a?x=1&z=3'))).toBeNull();
    expect(target([rule('/a')], req('/a?utm=1'))).toBeNull();
    expect(target([rule('/a?x')], req('/a?x='))).toBeNull();
  });
  it('query ignore allows extras; pass appends them to the target without overriding', () => {
    expect(target([rule('/a', {}, { flag_query: 'ignore' })], req('/a?utm=1'))).toBe('/target');
    expect(target([rule('/a', { action_data: { url: '/t?k=1' } }, { flag_query: 'pass' })], req('/a?utm=1&k=2'))).toBe('/t?k=1&utm=1');
  });
  it('exactorder matches like exact', () => {
    expect(target([rule('/a?x=1', {}, { flag_query: 'exactorder' })], req('/a?x=1'))).toBe('/target');
  });
  it('regex: not anchored, captures substituted, case flag, query included, invalid never matches', () => {
    expect(target([rule('^/blog/(.*)$', { action_data: { url: '/news/$1' } }, { flag_regex: true, flag_case: false })], req('/blog/some-post'))).toBe('/news/some-post');
    expect(target([rule('^/blog/(.*)$', { action_data: { url: '/news/$1' } }, { flag_regex: true, flag_case: false })], req('/BLOG/x'))).toBeNull();
    expect(target([rule('^/B/(.*)', { action_data: { url: '/n/$1' } }, { flag_regex: true })], req('/b/x?y=1'))).toBe('/n/x?y=1');
    expect(target([rule('/(a b)', { action_data: { url: '/$1?q=$1' } }, { flag_regex: true })], req('/a%20b'))).toBe('/a%20b?q=a+b');
    expect(target([rule('^/(?=x)', {}, { flag_regex: true })], req('/x'))).toBeNull();
  });
  it('percent-encoded requests match decoded sources', () => {
    expect(target([rule('/中国/x')], req('/%E4%B8%AD%E5%9B%BD/x'))).toBe('/target');
  });
});

describe('order and actions', () => {
  it('position order wins, then id; disabled rules are skipped', () => {
    const a = rule('/p', { position: 2, action_data: { url: '/two' } });
    const b = rule('/p', { position: 1, action_data: { url: '/one' } });
    expect(target([a, b], req('/p'))).toBe('/one');
    expect(target([{ ...b, enabled: false }, a], req('/p'))).toBe('/two');
  });
  it('error, nothing and random fire without a target; url with an empty target moves on', () => {
    const d = matchRequest(new RuleIndex([rule('/g', { action_type: 'error', action_code: 410, action_data: null })]), req('/g'));
    expect([d?.action, d?.code]).toEqual(['error', 410]);
    expect(matchRequest(new RuleIndex([rule('/n', { action_type: 'nothing', action_code: 0 })]), req('/n'))?.action).toBe('nothing');
    expect(target([rule('/e', { action_data: { url: '' } }), rule('/e', { position: 1, action_data: { url: '/next' } })], req('/e'))).toBe('/next');
  });
});

describe('match types', () => {
  const from = (match_type: string, data: Record<string, unknown>) => rule('/m', { match_type, action_data: { url_from: '/from', url_notfrom: '/notfrom', ...data } });
  it('referrer and agent, plain and regex', () => {
    expect(target([from('referrer', { referrer: 'http://x.test/', regex: false })], req('/m', { headers: { referer: 'http://x.test/' } }))).toBe('/from');
    expect(target([from('agent', { agent: 'bot', regex: true })], req('/m', { headers: { 'user-agent': 'GoogleBOT/2' } }))).toBe('/from');
    expect(target([from('agent', { agent: 'bot', regex: false })], req('/m', { headers: { 'user-agent': 'human' } }))).toBe('/notfrom');
  });
  it('login', () => {
    const r = rule('/m', { match_type: 'login', action_data: { logged_in: '/in', logged_out: '/out' } });
    expect(target([r], req('/m', { loggedIn: true }))).toBe('/in');
    expect(target([r], req('/m'))).toBe('/out');
  });
  it('header and cookie', () => {
    expect(target([from('header', { name: 'X-Test', value: 'yes', regex: false })], req('/m', { headers: { 'x-test': 'yes' } }))).toBe('/from');
    expect(target([from('cookie', { name: 'c', value: '^a', regex: true })], req('/m', { cookies: { c: 'abc' } }))).toBe('/from');
    expect(target([from('cookie', { name: 'c', value: 'a', regex: false })], req('/m'))).toBe('/notfrom');
  });
  it('role, server, ip, language', () => {
    expect(target([from('role', { role: 'editor' })], req('/m', { hasRole: (r) => r === 'editor' }))).toBe('/from');
    expect(target([from('server', { server: 'https://Site.test' })], req('/m', { host: 'site.test:8080' }))).toBe('/from');
    expect(target([from('server', { server: 'https://other.test' })], req('/m'))).toBe('/notfrom');
    expect(target([from('ip', { ip: ['2001:db8::1', '10.0.0.1'] })], req('/m', { ip: '::ffff:10.0.0.1' }))).toBe('/from');
    expect(target([from('ip', { ip: ['2001:db8::1'] })], req('/m', { ip: '2001:db8:0:0::1' }))).toBe('/from');
    expect(target([from('language', { language: 'de,fr' })], req('/m', { headers: { 'accept-language': 'en-US,fr;q=0.8' } }))).toBe('/from');
  });
  it('page rules only fire when nothing else does', () => {
    const page = rule('/m', { match_type: 'page', action_data: { page: '404', url: '/page' } });
    expect(target([page], req('/m'))).toBe('/page');
    expect(target([page, rule('/m', { position: 5, action_data: { url: '/plain' } })], req('/m'))).toBe('/plain');
  });
});
