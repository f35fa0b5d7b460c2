/**
 * Records made during a run, per collection, with the ID each side gave them: a slot in a later
 * path is filled with the legacy ID on the legacy side and Lintel's on Lintel, and Lintel's IDs in
 * its answers are read as the legacy ones before the two are compared.
 */
import { ID_SLOT, type DiffRequest } from './requests.ts';

/** The seeded records (captures 001–041) have the same IDs on both sides: reads may pick any of them. */
const SEEDED_IDS = Array.from({ length: 40 }, (_, i) => i + 1);

/**
 * Calendar events, venues and organizers take WordPress post IDs, which the legacy site also spends
 * on what no answer shows: the seed's revision (029) and theme navigation menu, a revision on every
 * first update (and later ones changing the text) and on a sticky event. The two sides number new
 * records apart from the first one made, and a client cannot predict either numbering: these IDs
 * are paired by the records' place in the two answers (their `global_id` objects), and read in the
 * strings that carry them (`global_id`, `?post_type=…&p=N` permalinks, `rest_url`).
 */
const POST_COLLECTION = /^\/calendar\/events\/v1\/(events|venues|organizers)$/;
const POST_ID_IN_TEXT = /([?&](?:id|p)=|\/(?:events|venues|organizers)\/)(\d+)(?=$|[/?&#"])/g;

/** Pairs of IDs, the first pairing of either ID kept (a later answer that pairs them otherwise is a difference to see). */
class Pairs {
  readonly legacyOf = new Map<number, number>();
  readonly lintelOf = new Map<number, number>();

  add(legacy: number, lintel: number): void {
    if (this.lintelOf.has(legacy) || this.legacyOf.has(lintel)) return;
    this.lintelOf.set(legacy, lintel);
    this.legacyOf.set(lintel, legacy);
  }
}

/** Where a calendar post route's answer holds posts: itself, a list of them, one of the list. */
const NONE = 0;
const ROOT = 1;
const LIST = 2;
const ITEM = 3;
type PostPlaces = typeof NONE | typeof ROOT | typeof LIST | typeof ITEM;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isPost = (o: Record<string, unknown>) => typeof o.id === 'number' && 'global_id' in o;

export class IdMap {
  private readonly made = new Map<string, number[]>();
  private readonly posts = new Pairs();
  /** Per collection of other records (redirects, groups, terms), their pairs: each has its own ID space. */
  private readonly others = new Map<string, Pairs>();

  /** The IDs filling the request's slot on each side, or null when a write has no record of its own to change. */
  pick(r: DiffRequest): { legacy: number; lintel: number } | null {
    if (!r.path.includes(ID_SLOT)) return { legacy: 0, lintel: 0 };
    const made = (r.collection && this.made.get(r.collection)) || [];
    const pool = r.write ? made : [...SEEDED_IDS, ...made];
    if (pool.length === 0) return null;
    const legacy = pool[r.pick % pool.length]!;
    return { legacy, lintel: this.pairsOf(r.collection).lintelOf.get(legacy) ?? legacy };
  }

  /** A create that succeeded on both sides: its records are throwaway records of the collection from now on. */
  created(collection: string, legacy: unknown, lintel: unknown): void {
    const a = idOf(legacy);
    const b = idOf(lintel);
    if (a === null || b === null) return;
    this.made.set(collection, [...(this.made.get(collection) ?? []), a]);
    this.pairsOf(collection).add(a, b);
  }

  /** A write both sides answered: the calendar posts in the two answers, in the same places, are the same records (inline venues and organizers too). */
  learn(legacy: unknown, lintel: unknown): void {
    if (Array.isArray(legacy) && Array.isArray(lintel)) {
      if (legacy.length === lintel.length) for (const [i, v] of legacy.entries()) this.learn(v, lintel[i]);
      return;
    }
    if (!isObject(legacy) || !isObject(lintel)) return;
    if (isPost(legacy) && isPost(lintel)) this.posts.add(legacy.id as number, lintel.id as number);
    for (const k of Object.keys(legacy)) if (k in lintel) this.learn(legacy[k], lintel[k]);
  }

  /**
   * Lintel's answer with the IDs of records made during the run read as the legacy ones. On the routes
   * of calendar posts, the answer itself (or its envelope's body) and its archive's items are posts
   * even when `_fields` left out their `global_id`.
   */
  asLegacy(value: unknown, template = ''): unknown {
    const onPosts = /^\/calendar\/events\/v1\/(events|venues|organizers)\b/.test(template);
    return this.read(value, '', false, onPosts ? ROOT : NONE, template);
  }

  private read(value: unknown, key: string, inPost: boolean, posts: PostPlaces, template: string): unknown {
    if (Array.isArray(value)) return value.map((v) => this.read(v, '', inPost, posts === LIST ? ITEM : NONE, template));
    if (isObject(value)) {
      const post = typeof value.id === 'number' && ('global_id' in value || posts === ROOT || posts === ITEM);
      const below = (k: string) => (posts === ROOT && k === 'body' ? ROOT : posts === ROOT && /^(events|venues|organizers)$/.test(k) ? LIST : NONE);
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, post && k === 'id' ? this.postId(v as number) : this.read(v, k, inPost || post, below(k), template)]));
    }
    if (typeof value === 'number' && /^(id|ID|.+_id)$/.test(key)) return this.otherId(value, key, template);
    if (typeof value === 'string' && inPost) return value.replace(POST_ID_IN_TEXT, (_, before: string, id: string) => `${before}${this.postId(Number(id))}`);
    return value;
  }

  /**
   * Lintel's ID of another record as the legacy one, in the collection the key names (`group_id`: the
   * namespace's `group`), else the one the route names (`/redirection/v1/bulk/redirect/…`: `redirect`),
   * else the first pairing of any collection of the route's namespace (terms inside an event).
   */
  private otherId(id: number, key: string, template: string): number {
    const segments = template.split('/');
    const inNamespace = [...this.others].filter(([c]) => template.startsWith(`${c.slice(0, c.lastIndexOf('/'))}/`));
    const named = (name: string) => inNamespace.filter(([c]) => c.slice(c.lastIndexOf('/') + 1) === name);
    const byKey = /^(.+)_id$/.exec(key)?.[1];
    const byRoute = inNamespace.filter(([c]) => segments.includes(c.slice(c.lastIndexOf('/') + 1)));
    const scope = (byKey && named(byKey).length ? named(byKey) : byRoute.length === 1 && !byKey ? byRoute : inNamespace).map(([, p]) => p);
    for (const p of scope) {
      const legacy = p.legacyOf.get(id);
      if (legacy !== undefined) return legacy;
    }
    return id;
  }

  private postId(id: number): number {
    return this.posts.legacyOf.get(id) ?? id;
  }

  private pairsOf(collection: string | null): Pairs {
    if (collection === null) return new Pairs();
    if (POST_COLLECTION.test(collection)) return this.posts;
    const pairs = this.others.get(collection) ?? new Pairs();
    this.others.set(collection, pairs);
    return pairs;
  }
}

/**
 * The ID of a created record: `{id}`, or in a list answer (a redirection create answers its page of
 * items) the highest item ID, the newest record on either side: both give IDs in increasing order.
 */
function idOf(body: unknown): number | null {
  const b = body as { id?: unknown; items?: unknown } | null;
  if (typeof b?.id === 'number') return b.id;
  const ids = Array.isArray(b?.items) ? b.items.map((i) => (isObject(i) ? i.id : undefined)).filter((id): id is number => typeof id === 'number') : [];
  return ids.length ? Math.max(...ids) : null;
}
