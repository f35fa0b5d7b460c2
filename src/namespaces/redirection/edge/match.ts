/**
 * The legacy matching of one request against the candidate rules (`Red_Item::get_match`): the
 * source URL with its case, trailing-slash and query flags, then the match type's condition, then
 * the target. The first rule whose action fires wins.
 */
import { isIP } from 'node:net';
import { RE2JS } from 're2js';
import { safeDecode } from '../../../lib/url-encoding.ts';
import { parseQuery, type EdgeRule, type QueryPairs, type RuleIndex } from './rules.ts';

/** What the matcher needs to know about a request. */
export interface EdgeRequest {
  method: string;
  /** The raw path (percent-encoded, as sent) and the raw query string without `?`. */
  path: string;
  query: string;
  host: string;
  ip: string;
  header(name: string): string | undefined;
  cookie(name: string): string | undefined;
  loggedIn: boolean;
  /** Whether the user has the role or capability (`role` match). */
  hasRole(role: string): boolean;
}

export interface EdgeDecision {
  rule: EdgeRule;
  /** The action to take: `url`/`random` redirect, `error` status page, `pass` rewrite, `nothing`. */
  action: string;
  code: number;
  /** The computed target for `url` and `pass`; empty for the others. */
  target: string;
}

function lower(s: string, caseless: boolean) {
  return caseless ? s.toLowerCase() : s;
}

function stripTrailing(s: string) {
  return s.length > 1 && s.endsWith('/') ? s.slice(0, -1) : s;
}

const pairKey = (k: string, v: string | null) => (v === null ? k : `${k}=${v}`);

function queryMatches(rule: EdgeRule, req: QueryPairs): boolean {
  const caseless = rule.flags.flag_case;
  const norm = (pairs: QueryPairs) => pairs.map(([k, v]) => pairKey(lower(k, caseless), v === null ? null : lower(v, caseless)));
  const want = norm(rule.query);
  const have = new Set(norm(req));
  if (!want.every((p) => have.has(p))) return false;
  if (rule.flags.flag_query === 'exact' || rule.flags.flag_query === 'exactorder') return have.size === new Set(want).size;
  return true;
}

/** `pass` appends the request's extra params to the target, never overriding the target's own. */
function passQuery(target: string, rule: EdgeRule, rawQuery: string): string {
  const ruleKeys = new Set(rule.query.map(([k]) => k));
  const tq = target.indexOf('?');
  const targetKeys = new Set(parseQuery(tq < 0 ? '' : target.slice(tq + 1)).map(([k]) => k));
  const extra = rawQuery.split('&').filter((p) => {
    if (p === '') return false;
    const k = safeDecode(p.split('=')[0]!);
    return !ruleKeys.has(k) && !targetKeys.has(k);
  });
  if (extra.length === 0) return target;
  return target + (tq < 0 ? '?' : '&') + extra.join('&');
}

/** `$1`, `${1}` and `\1` in a regex target, as preg_replace expands them. */
function expand(template: string, groups: Array<string | null>): string {
  return template.replace(/\$\{(\d+)\}|\$(\d+)|\\(\d+)/g, (_m, a, b, c) => groups[Number(a ?? b ?? c)] ?? '');
}

/** Spaces in a regex result become `%20` in the path and `+` in the query. */
function encodeSpaces(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url.replace(/ /g, '%20') : url.slice(0, q).replace(/ /g, '%20') + url.slice(q).replace(/ /g, '+');
}

/** The source test; for a regex, the target template rewritten with the captures. */
function sourceMatches(rule: EdgeRule, req: EdgeRequest, decodedPath: string): { ok: boolean; substitute: (t: string) => string } {
  if (rule.pattern) {
    const url = req.query === '' ? decodedPath : `${decodedPath}?${req.query}`;
    const m = rule.pattern.matcher(url);
    if (!m.find()) return { ok: false, substitute: (t) => t };
    const groups: Array<string | null> = [];
    for (let i = 0; i <= m.groupCount(); i++) groups.push(m.group(i));
    const start = m.start();
    const end = m.end();
    return { ok: true, substitute: (t) => encodeSpaces(url.slice(0, start) + expand(t, groups) + url.slice(end)) };
  }
  const { flag_case: caseless, flag_trailing: trailing } = rule.flags;
  let a = lower(decodedPath, caseless);
  let b = lower(rule.path, caseless);
  if (trailing) {
    a = stripTrailing(a);
    b = stripTrailing(b);
  }
  return { ok: a === b && queryMatches(rule, parseQuery(req.query)), substitute: (t) => t };
}

function textMatches(actual: string | undefined, wanted: string, regex: boolean): boolean {
  if (actual === undefined) return false;
  if (!regex) return actual === wanted;
  try {
    return RE2Cache.get(wanted).matcher(actual).find();
  } catch {
    return false;
  }
}

/** Compiled condition patterns (referrer, agent, header, cookie), shared across requests. */
const RE2Cache = {
  map: new Map<string, RE2JS>(),
  get(p: string): RE2JS {
    let r = this.map.get(p);
    if (!r) {
      r = RE2JS.compile(p, RE2JS.CASE_INSENSITIVE);
      if (this.map.size > 1000) this.map.clear();
      this.map.set(p, r);
    }
    return r;
  },
};

function normaliseIp(ip: string): string {
  const v4 = ip.replace(/^::ffff:/i, '');
  if (isIP(v4) === 4) return v4;
  if (isIP(ip) !== 6) return ip;
  // Expand `::` so that equal IPv6 addresses compare equal whatever their spelling.
  const [head, tail = ''] = ip.toLowerCase().split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const mid = ip.includes('::') ? Array(8 - h.length - t.length).fill('0') : [];
  return [...h, ...mid, ...t].map((x) => x.replace(/^0+(?=.)/, '')).join(':');
}

/**
 * The match type's condition: true/false for the from/notfrom types, and the target it selects.
 * A `url` match always holds and its target is `action_data.url`.
 */
function condition(rule: EdgeRule, req: EdgeRequest): { matched: boolean; target: string } {
  const d = (rule.redirect.action_data ?? {}) as Record<string, unknown>;
  const str = (k: string) => (typeof d[k] === 'string' ? (d[k] as string) : '');
  const fromNot = (matched: boolean) => ({ matched, target: matched ? str('url_from') : str('url_notfrom') });
  const regex = d.regex === true;
  switch (rule.redirect.match_type) {
    case 'url':
      return { matched: true, target: str('url') };
    case 'referrer':
      return fromNot(textMatches(req.header('referer'), str('referrer'), regex));
    case 'agent':
      return fromNot(textMatches(req.header('user-agent'), str('agent'), regex));
    case 'login':
      return req.loggedIn ? { matched: true, target: str('logged_in') } : { matched: false, target: str('logged_out') };
    case 'header':
      return fromNot(textMatches(req.header(str('name').replace(/[^A-Za-z0-9\-_]/g, '').toLowerCase()), str('value'), regex));
    case 'cookie':
      return fromNot(textMatches(req.cookie(str('name')), str('value'), regex));
    case 'role':
      return fromNot(req.hasRole(str('role')));
    case 'server': {
      let host = '';
      try {
        host = new URL(str('server')).hostname.toLowerCase();
      } catch {
        /* an unparsable server never matches */
      }
      return fromNot(host !== '' && host === req.host.replace(/:\d+$/, '').toLowerCase());
    }
    case 'ip': {
      const list = Array.isArray(d.ip) ? (d.ip as unknown[]).map((x) => normaliseIp(String(x))) : [];
      return fromNot(list.includes(normaliseIp(req.ip)));
    }
    case 'language': {
      const accepted = (req.header('accept-language') ?? '').split(',').map((l) => l.split(';')[0]!.trim().toLowerCase());
      return fromNot(str('language').split(',').map((l) => l.trim().toLowerCase()).some((l) => l !== '' && accepted.includes(l)));
    }
    case 'page':
      return { matched: true, target: str('url') };
    default:
      // `custom` runs a WordPress filter, which does not exist here: the condition never holds.
      return fromNot(false);
  }
}

const needsTarget = (action: string) => action === 'url' || action === 'pass';

/**
 * The first rule that fires for the request. `page` rules only fire for a request that would
 * otherwise be a 404, so they are tried in a second pass.
 */
export function matchRequest(index: RuleIndex, req: EdgeRequest): EdgeDecision | null {
  const decodedPath = safeDecode(req.path);
  const candidates = index.candidates(decodedPath);
  const pages: EdgeDecision[] = [];
  for (const rule of candidates) {
    if (!rule.redirect.enabled) continue;
    const src = sourceMatches(rule, req, decodedPath);
    if (!src.ok) continue;
    const { matched, target: raw } = condition(rule, req);
    const action = rule.redirect.action_type;
    const code = rule.redirect.action_code;
    if (needsTarget(action)) {
      if (raw === '') continue;
      let target = src.substitute(raw);
      if (rule.flags.flag_query === 'pass' && !rule.flags.flag_regex) target = passQuery(target, rule, req.query);
      const decision = { rule, action, code, target };
      if (rule.redirect.match_type === 'page') pages.push(decision);
      else return decision;
    } else if (matched) {
      const decision = { rule, action, code, target: '' };
      if (rule.redirect.match_type === 'page') pages.push(decision);
      else return decision;
    }
  }
  return pages[0] ?? null;
}
