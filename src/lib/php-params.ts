/**
 * Query strings and form bodies parsed as PHP's `parse_str` does, which is what legacy clients
 * rely on: `a[]=1&a[]=2` is a list, `a[k]=v` a map, `.` and spaces in top-level keys become `_`,
 * leading spaces are dropped and a name ends at a NUL byte.
 * One extension: a plain key sent more than once collects its values (`Repeated`), which array
 * arguments take as a list and scalar arguments take the last of, as PHP would.
 */
export class Repeated extends Array<unknown> {}

/** A parameter as PHP reads it: of a repeated name, the last value. */
export const lastOf = (v: unknown): unknown => (v instanceof Repeated ? v.at(-1) : v);

export type Params = Record<string, unknown>;

/** PHP's array_values($v) === $v: a list, not a map. */
export const isPhpList = (v: object) => Object.keys(v).every((k, i) => k === String(i));

/**
 * The prototype of every map built from client keys. It is not Object.prototype, so a key such as
 * `__proto__`, `constructor` or `prototype` is an ordinary own key and no assignment can reach
 * Object.prototype. Its one method, under a symbol no client key can name (so `toString=x` cannot
 * shadow it), makes string conversion total: "Array", as PHP converts an array.
 */
const PHP_ARRAY: object = Object.freeze(Object.create(null, { [Symbol.toPrimitive]: { value: () => 'Array' } }));

/** An empty map for parameters keyed by the client: safe to assign any key to. */
export function paramMap(): Params {
  return Object.create(PHP_ARRAY) as Params;
}

export function parsePhpParams(pairs: Iterable<[string, string]>): Params {
  const out = paramMap();
  for (const [sentKey, value] of pairs) {
    // PHP reads a name as a C string (it ends at a NUL byte) and drops its leading spaces (` rest_route` is `rest_route`).
    const rawKey = sentKey.split('\0', 1)[0]!.replace(/^ +/, '');
    const open = rawKey.indexOf('[');
    // PHP turns an unclosed `[` into `_` and keeps the rest of the name as it is (`rest[route` is `rest_route`).
    const unclosed = open >= 0 && !rawKey.includes(']', open);
    const m = unclosed ? null : /^([^[]*)((?:\[[^\]]*\])*)/.exec(rawKey);
    const base = unclosed ? `${rawKey.slice(0, open).replace(/[. ]/g, '_')}_${rawKey.slice(open + 1)}` : (m?.[1] ?? rawKey).replace(/[. ]/g, '_');
    if (base === '') continue;
    const segs = [...(m?.[2] ?? '').matchAll(/\[([^\]]*)\]/g)].map((x) => x[1]);
    if (segs.length === 0) {
      const prev = out[base];
      if (prev === undefined || !(typeof prev === 'string' || prev instanceof Repeated)) out[base] = value;
      else if (prev instanceof Repeated) prev.push(value);
      else out[base] = Repeated.from([prev, value]) as Repeated;
      continue;
    }
    let node = out as Record<string, unknown>;
    let key = base;
    for (const seg of segs) {
      let child = node[key];
      if (child === undefined || typeof child !== 'object' || child === null) {
        child = seg === '' ? [] : paramMap();
        node[key] = child;
      }
      if (seg === '') {
        // PHP appends after the largest integer key.
        const ints = Object.keys(child as object).filter((k) => /^\d+$/.test(k)).map(Number);
        key = String(ints.length ? Math.max(...ints) + 1 : 0);
      } else if (Array.isArray(child) && !(/^\d+$/.test(seg) && Number(seg) <= child.length)) {
        // A named key, or an index past the end, turns a list into a map, as PHP arrays are both:
        // a list never has holes (`a[]=x&a[2]=y` is the map {0: x, 2: y}).
        const map = Object.assign(paramMap(), child);
        node[key] = map;
        child = map;
        key = seg;
      } else key = seg;
      node = child as Record<string, unknown>;
    }
    node[key] = value;
  }
  return out;
}

/** JSON.parse reviver: every object of a client's JSON becomes a map like the parsed query's. */
export function asParamMaps(_key: string, value: unknown): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.assign(paramMap(), value) : value;
}

export function parseQueryString(qs: string): Params {
  return parsePhpParams(new URLSearchParams(qs));
}
