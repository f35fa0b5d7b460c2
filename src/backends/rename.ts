/**
 * Namespace renaming between Lintel and the legacy origin: the legacy site may serve a namespace
 * under another name (`history/v1` is `simple-history/v1` there). Paths are renamed on the way
 * out; on the way in the origin's URLs become Lintel's and the legacy names the contract's, in
 * `Link`/`Location` headers and in JSON bodies.
 */

/** One forwarded namespace as a request named it (`requested`) and as the origin names it (`upstream`). */
export interface Renaming {
  requested: string;
  upstream: string;
}

export interface Rewriter {
  /** The origin's address (scheme, host, port): its URLs become Lintel's. */
  originBase: string;
  /** Lintel's public address. */
  lintelBase: string;
  renamings: Renaming[];
}

function renamedPath(path: string, renamings: Renaming[], from: 'upstream' | 'requested'): string {
  const to = from === 'upstream' ? 'requested' : 'upstream';
  for (const r of renamings) {
    if (r[from] === r[to]) continue;
    const name = r[from].toLowerCase();
    const lower = path.toLowerCase();
    // The name as a whole path segment sequence: `/simple-history/v1/...`, never `/x-simple-history/v1`.
    let at = lower.indexOf(`/${name}`);
    while (at >= 0) {
      const end = at + name.length + 1;
      if (end === lower.length || '/?#'.includes(lower[end])) return path.slice(0, at + 1) + r[to] + path.slice(end);
      at = lower.indexOf(`/${name}`, at + 1);
    }
  }
  return path;
}

/** The origin's path for a request path (`/fr/wp-json/history/v1/events` → `/fr/wp-json/simple-history/v1/events`). */
export function toUpstreamPath(path: string, renamings: Renaming[]): string {
  return renamedPath(path, renamings, 'requested');
}

/**
 * The origin's query string: a `rest_route` naming the namespace is renamed too; with `rw`, a value
 * that is an address on Lintel's base (oEmbed's `url=`) becomes the same address on the origin's,
 * which knows its records under its own address only.
 */
export function toUpstreamQuery(query: string, renamings: Renaming[], rw?: Pick<Rewriter, 'lintelBase' | 'originBase'>): string {
  if (!/(^|&)rest_route=/.test(query) && !(rw && /=https?(:|%3A)/i.test(query))) return query;
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const value = decodeSafe(pair.slice(eq + 1));
      if (pair.startsWith('rest_route=')) {
        const renamed = toUpstreamPath(value, renamings);
        return renamed === value ? pair : `rest_route=${encodeURIComponent(renamed).replace(/%2F/gi, '/')}`;
      }
      const onOrigin = rw && onBase(value, rw.lintelBase, rw.originBase);
      return onOrigin ? `${pair.slice(0, eq + 1)}${encodeURIComponent(onOrigin)}` : pair;
    })
    .join('&');
}

/** `value` moved from one base address to another; null when it is not an address on `from`. */
function onBase(value: string, from: string, to: string): string | null {
  if (!value.toLowerCase().startsWith(from.toLowerCase())) return null;
  const rest = value.slice(from.length);
  return rest === '' || '/?#'.includes(rest[0]) ? to + rest : null;
}

/**
 * Whether a path has a `.` or `..` segment or a backslash, even percent-encoded (once or more, since
 * the origin's server and WordPress each decode it): resolved as a URL, it would leave the namespace
 * it names, so it is never forwarded (the origin's other paths are not Lintel's to expose).
 */
export function climbsOut(path: string): boolean {
  let p = path;
  for (let i = 0; i < 3; i++) {
    if (p.includes('\\') || p.split('/').some((s) => s === '.' || s === '..')) return true;
    const decoded = decodeSafe(p);
    if (decoded === p) return false;
    p = decoded;
  }
  return true;
}

export function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** An origin URL (or a path, or a `rest_route` value) as Lintel's, with the contract's names. */
export function toLintelUrl(value: string, rw: Rewriter): string {
  const v = onBase(value, rw.originBase, rw.lintelBase) ?? value;
  const q = v.indexOf('?');
  const path = renamedPath(q < 0 ? v : v.slice(0, q), rw.renamings, 'upstream');
  if (q < 0) return path;
  const query = v.slice(q + 1).replace(/(^|&)(rest_route=)([^&#]*)/, (_m, lead: string, key: string, route: string) => {
    const decoded = decodeSafe(route);
    const renamed = renamedPath(decoded, rw.renamings, 'upstream');
    return renamed === decoded ? `${lead}${key}${route}` : `${lead}${key}${encodeURIComponent(renamed)}`;
  });
  return `${path}?${query}`;
}

/** `Link: <http://origin/...>; rel="next", <...>` with each target rewritten. */
export function rewriteLinkHeader(value: string, rw: Rewriter): string {
  return value.replace(/<([^>]*)>/g, (_m, url: string) => `<${toLintelUrl(url, rw)}>`);
}

/** Whether a JSON body may need rewriting at all: most answers name neither, and are passed as they are. */
export function mentionsOrigin(text: string, rw: Rewriter): boolean {
  const host = rw.originBase.replace(/^https?:\/\//, '');
  if (text.includes(host)) return true;
  return rw.renamings.some((r) => r.requested !== r.upstream && (text.includes(r.upstream) || text.includes(r.upstream.replace(/\//g, '\\/'))));
}

/**
 * A parsed JSON body with the origin's addresses and namespace names rewritten: URL strings
 * (`_links`, `rest_url`, `next_rest_url`, ...), `namespace` values and the index's route keys.
 */
export function rewriteJson(value: unknown, rw: Rewriter): unknown {
  if (typeof value === 'string') return rewriteString(value, rw);
  if (Array.isArray(value)) return value.map((v) => rewriteJson(v, rw));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k.startsWith('/') ? renamedPath(k, rw.renamings, 'upstream') : k] = rewriteJson(v, rw);
    return out;
  }
  return value;
}

function rewriteString(s: string, rw: Rewriter): string {
  if (/^https?:\/\//i.test(s)) return toLintelUrl(s, rw);
  for (const r of rw.renamings) if (s === r.upstream) return r.requested;
  // A route pattern or path (`/simple-history/v1/events/(?P<id>\d+)`).
  if (s.startsWith('/')) return renamedPath(s, rw.renamings, 'upstream');
  // The origin's address inside text (an admin link in `message_html`): Lintel stands in front of the whole site.
  if (s.includes(rw.originBase)) return s.replace(originIn(rw.originBase), rw.lintelBase);
  return s;
}

const originPatterns = new Map<string, RegExp>();
/** The origin's address as a whole (`http://origin:80` never matches in `http://origin:8080`). */
function originIn(base: string): RegExp {
  let re = originPatterns.get(base);
  if (!re) originPatterns.set(base, (re = new RegExp(`${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.:-])`, 'g')));
  return re;
}
