/** Event categories and tags: archives, single terms, writes, and resolution of event term lists. */
import { can, type Capability } from '../../lib/roles.ts';
import { errors } from '../../contract/error-codes.ts';
import { lastOf } from '../../lib/php-params.ts';
import { slashedTrim } from '../../lib/legacy-html.ts';
import { slugify } from '../../lib/slug.ts';
import type { RestContext } from '../../contract/context.ts';
import { UniqueViolation, type Store } from '../../store/store.ts';
import type { Taxonomy, TermRow } from '../../store/calendar.ts';
import { asList, phpInt, type TermFields, type TermListArgs } from './args.ts';
import { clampPerPage, siteOf, totals } from './common.ts';
import { termObject } from './shape.ts';
import { termName } from './lookups.ts';
import { logTerm, logTermEdit } from '../../audit/log.ts';

export const PLURAL = { category: 'categories', tag: 'tags' } as const;
const ORDERBY = ['name', 'id', 'slug', 'count', 'description', 'term_group'] as const;

/** The slug path of a term's archive page (`arts/workshops` for a child category). */
async function pathOf(store: Store, t: TermRow): Promise<string> {
  const parts = [t.slug];
  let parent = t.parent;
  for (let i = 0; parent && i < 10; i++) {
    const p = await store.calendar.term(t.taxonomy, parent);
    if (!p) break;
    parts.unshift(p.slug);
    parent = p.parent;
  }
  return parts.join('/');
}

/** wp_parse_id_list, as get_terms reads `include` and `exclude`: each item's whole number, made positive (a slug is 0, no term). */
const idList = (items: (string | number)[]) => [...new Set(items.map((x) => Math.abs(phpInt(x))))];

export async function termArchive(ctx: RestContext, taxonomy: Taxonomy, a: TermListArgs) {
  const site = await siteOf(ctx);
  const perPage = clampPerPage(a.per_page);
  // WP_Term_Query: orderby lowercased (ASCII), term_id the ID, anything unknown the name; order ASC only when so asked, anything else given DESC.
  const asked = a.orderby?.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const orderby = asked === 'term_id' ? 'id' : (ORDERBY.find((o) => o === asked) ?? 'name');
  const post = a.event ?? a.post;
  const hideEmpty = a.hide_empty !== false;
  const { rows, total } = await ctx.store.calendar.termArchive({
    taxonomy, search: a.search, include: a.include && idList(a.include), exclude: a.exclude && idList(a.exclude),
    parent: a.parent, post, slug: a.slug, hideEmpty,
    orderby, order: a.order === undefined || /^asc$/i.test(a.order) ? 'asc' : 'desc', limit: perPage, offset: (a.page - 1) * perPage,
  });
  const pages = Math.ceil(total / perPage);
  const base = site.ctx.urls.rest(`/${site.ns}/${PLURAL[taxonomy]}/`);
  const items = await Promise.all(rows.map(async (t) => termObject(site, t, await pathOf(ctx.store, t))));
  const body: Record<string, unknown> = { rest_url: base, total, total_pages: pages, [PLURAL[taxonomy]]: items };
  if (a.page < pages) body.next_rest_url = `${base}?page=${a.page + 1}`;
  if (a.page > 1) body.previous_rest_url = a.page === 2 ? base : `${base}?page=${a.page - 1}`;
  return { body, headers: totals(total, pages) };
}

export async function loadTerm(ctx: RestContext, taxonomy: Taxonomy, id: number): Promise<TermRow> {
  const t = await ctx.store.calendar.term(taxonomy, id);
  // The validate callback found a term by the ID's absolute value (term_exists); a negative ID names none.
  if (!t) throw errors.calendar.termInvalid();
  return t;
}

/** Who may create, change and delete terms: categories authors and up, tags editors (the legacy capabilities). */
export const TERM_MANAGER: Record<Taxonomy, Capability> = { category: 'publish_posts', tag: 'manage_categories' };

export async function termBody(ctx: RestContext, t: TermRow) {
  // The self link's target hints name the methods the caller may use on the term, as WordPress
  // works them out from each method's permission check: whoever manages terms may change them.
  const allow = can(ctx.user, TERM_MANAGER[t.taxonomy]) ? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] : ['GET'];
  return termObject(await siteOf(ctx), t, await pathOf(ctx.store, t), { allow });
}

const termExists = (taxonomy: Taxonomy, id: number) => errors.calendar.termExists(taxonomy === 'category', id);

/**
 * Whether wp_insert_term finds the name as sent empty: trimmed before its filters run, of the slashed
 * name, where a NUL byte is `\0` and not trimmed. Such a name is refused, one the filters clean to
 * nothing (a NUL or tags only) is not a name either.
 */
const blankAsSent = (sent: unknown) => slashedTrim(String(lastOf(sent))) === '';

export async function createTerm(ctx: RestContext, taxonomy: Taxonomy, a: TermFields) {
  if (blankAsSent(ctx.params.name)) throw errors.calendar.emptyTermName();
  // The name comes as the pre_term_name filters leave it (the endpoint's saveFilters).
  const name = String(a.name);
  if (name === '') throw errors.calendar.invalidTermName();
  const slug = a.slug ? slugify(String(a.slug)) : slugify(name);
  const parent = taxonomy === 'category' ? (a.parent ?? 0) : 0;
  // The validate callback found a category by the parent's absolute value; the terms controller then
  // looks the parent up as given, so a negative one (`-4` for category 4) names none.
  if (parent && !(await ctx.store.calendar.term(taxonomy, parent))) throw errors.calendar.parentTermMissing();
  const existing = await ctx.store.calendar.termBySlugOrName(taxonomy, slug);
  if (existing) throw termExists(taxonomy, existing.id);
  const t = await ctx.store.transaction(async (store) => {
    const { id, created } = await store.calendar.createTerm({ taxonomy, name, slug, description: String(a.description ?? ''), parent });
    if (!created) throw termExists(taxonomy, id);
    const term = (await store.calendar.term(taxonomy, id))!;
    await logTerm(store, ctx, 'created_term', term);
    return term;
  });
  const id = t.id;
  return { status: 201, body: await termBody(ctx, t), headers: { Location: ctx.urls.rest(`/wp/v2/${taxonomy === 'category' ? 'tribe_events_cat' : 'tags'}/${id}`) } };
}

export async function updateTerm(ctx: RestContext, t: TermRow, a: TermFields) {
  const patch: Partial<Pick<TermRow, 'name' | 'slug' | 'description' | 'parent'>> = {};
  if (a.name !== undefined) patch.name = String(a.name);
  // wp_update_term checks the name once its filters have run.
  if (patch.name === '') throw errors.calendar.emptyTermName();
  // The terms controller checks the parent before wp_update_term checks the slug.
  if (t.taxonomy === 'category' && a.parent !== undefined) {
    if (a.parent && !(await ctx.store.calendar.term(t.taxonomy, a.parent))) throw errors.calendar.parentTermMissing();
    patch.parent = a.parent;
  }
  if (a.slug !== undefined) {
    // wp_update_term: an empty slug is made from the name; one another term has is refused.
    const slug = slugify(String(a.slug)) || slugify(patch.name ?? t.name);
    const other = await ctx.store.calendar.termBySlugOrName(t.taxonomy, slug);
    if (other && other.id !== t.id && other.slug === slug) {
      throw errors.calendar.duplicateTermSlug(slug);
    }
    patch.slug = slug;
  }
  if (a.description !== undefined) patch.description = String(a.description);
  const updated = await ctx.store.transaction(async (store) => {
    if (patch.parent) {
      // Checked under the taxonomy's hierarchy lock: two moves at once could otherwise each see no loop and make one.
      await store.calendar.lockTermHierarchy(t.taxonomy);
      if (await isOwnAncestor(store, t, patch.parent)) patch.parent = 0;
    }
    try {
      await store.calendar.updateTerm(t.id, patch);
    } catch (e) {
      if (e instanceof UniqueViolation) throw errors.calendar.duplicateTermSlug(patch.slug!);
      throw e;
    }
    const after = (await store.calendar.term(t.taxonomy, t.id))!;
    await logTermEdit(store, ctx, t, after);
    return after;
  });
  return { body: await termBody(ctx, updated) };
}

/** wp_check_term_hierarchy_for_loops: a parent that is the term itself or one of its descendants makes it top-level (parent 0). */
async function isOwnAncestor(store: Store, t: TermRow, parent: number): Promise<boolean> {
  const seen = new Set<number>();
  for (let p = parent; p && !seen.has(p); p = (await store.calendar.term(t.taxonomy, p))?.parent ?? 0) {
    if (p === t.id) return true;
    seen.add(p);
  }
  return false;
}

export async function deleteTerm(ctx: RestContext, t: TermRow) {
  // The deleted term's last answer has no links: there is nothing left to link to.
  const body = termObject(await siteOf(ctx), t, await pathOf(ctx.store, t));
  await ctx.store.transaction(async (store) => {
    await store.calendar.deleteTerm(t.id);
    await logTerm(store, ctx, 'deleted_term', t);
  });
  return { body };
}

/** wp_unique_term_slug: a slug another term has gets `-2`, `-3`, ...; an empty one (a name of symbols only) starts from "term". */
async function freeTermSlug(store: Store, taxonomy: Taxonomy, wanted: string): Promise<string> {
  const base = wanted || 'term';
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    const t = await store.calendar.termBySlugOrName(taxonomy, slug);
    if (!t || t.slug !== slug) return slug;
  }
}

/** Event writes: numeric items are existing IDs (unknown ones skipped); others an existing slug or name, or a new term. */
export async function resolveTermsForWrite(ctx: RestContext, taxonomy: Taxonomy, value: unknown): Promise<number[]> {
  const out: number[] = [];
  for (const x of asList(value)) {
    if (/^\d+$/.test(x)) {
      if (await ctx.store.calendar.term(taxonomy, Number(x))) out.push(Number(x));
      continue;
    }
    // A new term's name is as the pre_term_name filters leave it (wp_insert_term), its slug made from that; a name they empty makes none.
    const name = termName(x);
    const t = (await ctx.store.calendar.termBySlugOrName(taxonomy, x)) ?? (await ctx.store.calendar.termBySlugOrName(taxonomy, name));
    if (!t && name === '') continue;
    const { id, created } = t ? { id: t.id, created: false } : await ctx.store.calendar.createTerm({ taxonomy, name, slug: await freeTermSlug(ctx.store, taxonomy, slugify(name)), description: '', parent: 0 });
    if (created) await logTerm(ctx.store, ctx, 'created_term', { id, name, taxonomy });
    out.push(id);
  }
  return out;
}
