/**
 * The redirect rules of the site module, compiled for matching requests: plain sources are
 * indexed by their normalised path (one Map lookup per request, however many rules there are);
 * regex sources are compiled once with re2js (linear time, no catastrophic backtracking).
 */
import { RE2JS } from 're2js';
import { safeDecode } from '../../../lib/url-encoding.ts';
import { flagsOf, type RedirectJson, type SourceFlags } from '../io/shapes.ts';
import type { RedirectRow } from '../../../store/redirection/rows.ts';

export interface EdgeRule {
  redirect: RedirectJson;
  flags: SourceFlags;
  /** Plain sources: the path and parsed query of the source. */
  path: string;
  query: QueryPairs;
  /** Regex sources: the compiled pattern, or null when it does not compile (never matches). */
  pattern: RE2JS | null;
  logExclude: boolean;
}

/** Query parameters as pairs; a key without `=` has value null, distinct from an empty value. */
export type QueryPairs = Array<[string, string | null]>;

export function parseQuery(q: string): QueryPairs {
  if (q === '') return [];
  return q.split('&').filter((p) => p !== '').map((p) => {
    const eq = p.indexOf('=');
    return eq < 0 ? [safeDecode(p.replace(/\+/g, ' ')), null] : [safeDecode(p.slice(0, eq).replace(/\+/g, ' ')), safeDecode(p.slice(eq + 1).replace(/\+/g, ' '))];
  });
}

/** The index key: lowercase decoded path without its trailing slash (`/` stays `/`). */
export function pathKey(path: string): string {
  const p = path.toLowerCase().replace(/\/$/, '');
  return p === '' ? '/' : p;
}

/**
 * PCRE → RE2: the plugin's `@...@s` delimiters mean DOTALL; inline `(?i)` is RE2 syntax already;
 * PCRE-only constructs (lookaround, backreferences, possessive quantifiers) fail to compile and
 * the rule then never matches, as an invalid pattern never matches in the plugin.
 */
export function compilePattern(source: string, caseless: boolean): RE2JS | null {
  try {
    return RE2JS.compile(source, RE2JS.DOTALL | (caseless ? RE2JS.CASE_INSENSITIVE : 0));
  } catch {
    return null;
  }
}

/** A stored redirect of the site module as the rules take it: its stored flags over the global ones (`regex` when none is stored). */
export function siteRule(r: RedirectRow, flags: SourceFlags): RedirectJson {
  const source = { ...flags, ...(r.matchData?.source ?? {}), flag_regex: r.matchData?.source?.flag_regex ?? r.regex };
  return {
    id: r.id, url: r.url, match_url: r.matchUrl,
    match_data: { source, ...(r.matchData?.options?.log_exclude ? { options: { log_exclude: true as const } } : {}) },
    action_code: r.actionCode, action_type: r.actionType, action_data: r.actionData, match_type: r.matchType,
    title: r.title ?? '', hits: r.hits, regex: source.flag_regex, group_id: r.groupId, position: r.position, last_access: '-', enabled: true,
  };
}

export function compileRule(redirect: RedirectJson): EdgeRule {
  const flags = flagsOf(redirect);
  const q = redirect.url.indexOf('?');
  return {
    redirect,
    flags,
    path: flags.flag_regex || q < 0 ? redirect.url : redirect.url.slice(0, q),
    query: flags.flag_regex || q < 0 ? [] : parseQuery(redirect.url.slice(q + 1)),
    pattern: flags.flag_regex ? compilePattern(safeDecode(redirect.url), flags.flag_case) : null,
    logExclude: redirect.match_data?.options?.log_exclude === true,
  };
}

const byPosition = (a: EdgeRule, b: EdgeRule) => a.redirect.position - b.redirect.position || a.redirect.id - b.redirect.id;

/** The compiled rule set: plain rules by path key, regex rules in position order. */
export class RuleIndex {
  private readonly plain = new Map<string, EdgeRule[]>();
  private readonly regex: EdgeRule[] = [];
  readonly size: number;

  constructor(redirects: Iterable<RedirectJson>) {
    let n = 0;
    for (const r of redirects) {
      n++;
      const rule = compileRule(r);
      if (rule.flags.flag_regex) this.regex.push(rule);
      else {
        const key = pathKey(rule.path);
        const list = this.plain.get(key);
        if (list) list.push(rule);
        else this.plain.set(key, [rule]);
      }
    }
    this.size = n;
    this.regex.sort(byPosition);
    for (const list of this.plain.values()) list.sort(byPosition);
  }

  /** The candidates for a decoded request path, in position then id order. */
  candidates(decodedPath: string): EdgeRule[] {
    const plain = this.plain.get(pathKey(decodedPath)) ?? [];
    if (this.regex.length === 0) return plain;
    if (plain.length === 0) return this.regex;
    return [...plain, ...this.regex].sort(byPosition);
  }
}
