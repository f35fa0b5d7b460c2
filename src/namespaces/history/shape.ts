/** The legacy event object (prepare_item_for_response), field by field in the legacy order. */
import { fmt, instantToWall } from '../../lib/time.ts';
import { createHash } from 'node:crypto';
import type { SiteUrls } from '../../contract/site-urls.ts';
import type { HistoryRow } from '../../store/history.ts';
import { LOGGERS, interpolate } from '../../audit/loggers.ts';
import { escHtml, htmlEntityDecode, stripAllTags } from '../../lib/legacy-html.ts';
import { WELCOME_DETAILS } from './welcome.ts';

export interface ShapeSite {
  urls: SiteUrls;
  zone: string;
}

/** The history page's address of an event (`link` and `permalink`). */
export const eventLink = (urls: SiteUrls, id: number) => `${urls.admin}/admin.php?page=simple_history_admin_menu_page#simple-history/event/${id}`;

function avatar(email: string | undefined, size: number): string {
  const hash = email ? createHash('sha256').update(email.trim().toLowerCase()).digest('hex') : '';
  return `https://secure.gravatar.com/avatar/${hash}?s=${size}&d=mm&r=g`;
}

/**
 * WordPress's get_edit_user_link: the reader's own profile, another existing user's edit page for a
 * reader who may edit users, else ''.
 */
function editUserLink(urls: SiteUrls, id: number | null, o: ShapeOptions): string {
  if (id === null) return '';
  if (id === o.reader) return `${urls.admin}/profile.php`;
  return o.editsUsers && o.users?.has(id) ? `${urls.admin}/user-edit.php?user_id=${id}` : '';
}

/** A context value naming a record (a user, a post); 0 or none is none. */
export function idIn(c: Record<string, string>, key: string): number | null {
  const v = c[key];
  return v !== undefined && /^\d+$/.test(v) && v !== '0' ? Number(v) : null;
}

/** The event's user's link (the reader's own when the event names none). */
function profileUrl(urls: SiteUrls, c: Record<string, string>, o: ShapeOptions): string {
  return editUserLink(urls, idIn(c, '_user_id') ?? o.reader ?? null, o);
}

/**
 * The user logger's own HTML for a user created who still exists: the new user's name and email
 * link to their edit page (values as logged, unescaped, as the legacy interpolation leaves them).
 */
function userCreatedHtml(urls: SiteUrls, row: HistoryRow, o: ShapeOptions): string | null {
  const c = row.context;
  const id = idIn(c, 'created_user_id');
  if (row.logger !== 'SimpleUserLogger' || row.message_key !== 'user_created' || id === null || !o.users?.has(id)) return null;
  const link = editUserLink(urls, id, o);
  return '_backfilled_event' in c
    ? `Created user <a href="${link}">${c.created_user_login ?? '{created_user_login}'}</a>`
    : `Created user <a href="${link}">${c.created_user_login ?? '{created_user_login}'} (${c.created_user_email ?? '{created_user_email}'})</a> with role ${c.created_user_role ?? '{created_user_role}'}`;
}

/** The post logger's messages that link the record to its edit page while it exists. */
const POST_LINKED: Record<string, string> = {
  post_created: 'Created {post_type} <a href="{edit_link}">"{post_title}"</a>',
  post_updated: 'Updated {post_type} <a href="{edit_link}">"{post_title}"</a>',
  post_trashed: 'Moved {post_type} <a href="{edit_link}">"{post_title}"</a> to the trash',
};

/**
 * The post logger's own HTML: only the post type's name and the title are escaped (the rest is as
 * logged), and a record created, updated or trashed that still exists links to its edit page
 * (get_edit_post_link: only editors and administrators read this logger, and both may edit every record).
 */
function postHtml(urls: SiteUrls, row: HistoryRow, o: ShapeOptions): string | null {
  if (row.logger !== 'SimplePostLogger') return null;
  const c = row.context;
  const id = idIn(c, 'post_id');
  const linked = id !== null && o.posts?.has(id) ? POST_LINKED[row.message_key ?? ''] : undefined;
  return interpolate(linked ?? row.message, {
    ...c,
    // interpolate shows the type by its label (a post type's name has nothing to escape).
    post_type: escHtml(c.post_type ?? ''),
    post_title: escHtml(c.post_title ?? ''),
    ...(linked ? { edit_link: `${urls.admin}/post.php?post=${id}&amp;action=edit` } : {}),
  });
}

/** The calendar's taxonomies as WordPress registers them: the label the term logger names them by, and the post type their edit link names. */
const TAXONOMIES: Record<string, { label: string; postType: string }> = {
  post_tag: { label: 'Tag', postType: 'post' },
  tribe_events_cat: { label: 'Event Category', postType: 'tribe_events' },
};

/** The term logger's messages that link the term (while it exists) and its taxonomy to their wp-admin pages. */
const TERM_LINKED: Record<string, { template: string; needsTerm: boolean }> = {
  created_term: { template: 'Added term <a href="{term_edit_link}">"{term_name}"</a> in taxonomy <a href="{tax_edit_link}">"{termTaxonomySlugOrName}"</a>', needsTerm: true },
  deleted_term: { template: 'Deleted term "{term_name}" from taxonomy <a href="{tax_edit_link}">"{termTaxonomySlugOrName}"</a>', needsTerm: false },
  edited_term: { template: 'Edited term <a href="{term_edit_link}">"{to_term_name}"</a> in taxonomy <a href="{tax_edit_link}">"{toTermTaxonomySlugOrName}"</a>', needsTerm: true },
};

/**
 * The term logger's own HTML (Categories_Logger::get_log_row_plain_text_output): nothing escaped (the
 * names are logged as WordPress stores them); a taxonomy the site does not register leaves the message as
 * logged; else the taxonomy links to its terms page, and the term, while it exists, to its edit page
 * (get_edit_tag_link: only administrators read this logger, and they may edit every term).
 */
function termHtml(urls: SiteUrls, row: HistoryRow, o: ShapeOptions): string | null {
  if (row.logger !== 'SimpleCategoriesLogger') return null;
  const c = row.context;
  const taxonomy = (row.message_key === 'edited_term' ? c.from_term_taxonomy : c.term_taxonomy) ?? '';
  const registered = TAXONOMIES[taxonomy];
  if (!registered) return interpolate(row.message, c);
  const id = idIn(c, 'term_id');
  const termLink = id !== null && o.terms?.has(id) ? `${urls.admin}/term.php?taxonomy=${taxonomy}&tag_ID=${id}&post_type=${registered.postType}` : null;
  const linked = TERM_LINKED[row.message_key ?? ''];
  const template = linked && (termLink || !linked.needsTerm) ? linked.template : row.message;
  // Taxonomies by their label where the site registers them, else by their slug; an absent one stays a placeholder.
  const named = (key: string, t: string | undefined) => (t === undefined ? {} : { [key]: TAXONOMIES[t]?.label ?? t });
  return interpolate(template, {
    ...c,
    tax_edit_link: `${urls.admin}/term.php?taxonomy=${taxonomy}`,
    ...(termLink ? { term_edit_link: termLink } : {}),
    ...named('termTaxonomySlugOrName', c.term_taxonomy),
    ...named('toTermTaxonomySlugOrName', c.to_term_taxonomy),
  });
}

function initiatorData(urls: SiteUrls, c: Record<string, string>, o: ShapeOptions) {
  const email = c._user_email;
  const img = email
    ? `<img alt='' src='${avatar(email, 32).replace(/&/g, '&#038;')}' srcset='${avatar(email, 64).replace(/&/g, '&#038;')} 2x' class='avatar avatar-32 photo' height='32' width='32' loading='lazy' decoding='async'/>`
    : '';
  return {
    user_id: c._user_id ?? null,
    user_login: c._user_login ?? null,
    user_email: email ?? null,
    user_image: img,
    user_avatar_url: avatar(email, 96),
    user_profile_url: profileUrl(urls, c, o),
    user_display_name: c._user_display_name ?? c._user_login ?? null,
  };
}

/** A row of the plugin logger's key-value table, laid out as its PHP template prints it. */
const pluginRow = (label: string, value: string) => `\n\t\t\t\t<tr>\n\t\t\t\t\t<td>${label}</td>\n\t\t\t\t\t<td>${value}</td>\n\t\t\t\t</tr>\n\t\t\t\t`;

/**
 * The plugin logger's details (Plugin_Logger::get_log_row_details_output) of the events Lintel holds
 * from an imported log: an installation's table (description up to its `<cite>`, source, version,
 * author and URL as logged, a link to the plugin's page when it came from the repository) and an
 * activation's or deactivation's link; other events (updates: the plugin's own notes) have none here.
 */
function pluginDetails(urls: SiteUrls, row: HistoryRow): string {
  const c = row.context;
  const info = `${urls.admin}/plugin-install.php?tab=plugin-information&amp;plugin=${c.plugin_slug}&amp;section=&amp;TB_iframe=true&amp;width=640&amp;height=550`;
  if ((row.message_key === 'plugin_activated' || row.message_key === 'plugin_deactivated') && c.plugin_slug && !c.plugin_github_url) {
    return `<p><a title="View plugin info" class="thickbox" href="${info}">View plugin info</a></p>`;
  }
  if (row.message_key !== 'plugin_installed' || c.plugin_description === undefined) return '';
  const cite = c.plugin_description.indexOf('<cite>');
  const source = c.plugin_install_source;
  const values: [string, string][] = [
    ['Description', cite > 0 ? c.plugin_description.slice(0, cite) : c.plugin_description],
    ['Source', source === undefined ? '' : source === 'web' ? 'WordPress Plugin Repository' : source === 'upload' ? 'Uploaded ZIP archive' : escHtml(source)],
    ['Source file name', source === 'upload' && c.plugin_upload_name !== undefined ? escHtml(c.plugin_upload_name) : ''],
    ['Version', escHtml(c.plugin_version ?? '')],
    ['Author', c.plugin_author ?? ''],
    ['URL', `<a href="${escHtml(c.plugin_url ?? '')}">${escHtml(c.plugin_url ?? '')}</a>`],
  ];
  const rows = values.filter(([, v]) => v.trim() !== '').map(([label, v]) => pluginRow(label, v));
  const link = c.plugin_slug && source === 'web' ? pluginRow('', `<a title="View plugin info" class="thickbox" href="${info}">View plugin info</a>`) : '';
  return `<table class='SimpleHistoryLogitem__keyValueTable'>${rows.join('')}${link}</table>`;
}

/** The custom entry's note is its one detail, shown as the legacy key-value table; the plugin's welcome event has its introduction. */
function details(urls: SiteUrls, row: HistoryRow): { data: unknown[]; html: string | null } {
  if (row.logger === 'SimpleLogger' && row.context.is_welcome_message) return WELCOME_DETAILS;
  if (row.logger === 'SimplePluginLogger') return { data: [], html: pluginDetails(urls, row) };
  if (row.logger !== 'CustomEntryLogger') return { data: [], html: '' };
  const note = row.context.note;
  if (!note) return { data: [], html: null };
  return {
    data: [{ title: null, items: [{ name: 'Entry notes', new_value: note, slug_new: 'note' }] }],
    html: `<table class="SimpleHistoryLogitem__keyValueTable"><tbody>\n                <tr>\n                    <td>Entry notes</td>\n                    <td><span class="SimpleHistoryLogitem__keyValueTable__addedThing">${escHtml(note)}</span></td>\n                </tr>\n            </tbody></table>`,
  };
}

/** The `_reactions` context value: reaction type → IDs of the users who reacted. */
export function storedReactions(context: Record<string, string>): Record<string, number[]> {
  try {
    const v = JSON.parse(context._reactions ?? '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, number[]>) : {};
  } catch {
    return {};
  }
}

/** Reactions as `{type: {count, user_ids, user_names, reacted}}`. */
function reactions(row: HistoryRow, userId: number | null, names: Map<number, string>) {
  const stored = storedReactions(row.context);
  const out: Record<string, unknown> = {};
  for (const [type, ids] of Object.entries(stored)) {
    if (ids.length === 0) continue;
    out[type] = { count: ids.length, user_ids: ids, user_names: ids.map((id) => names.get(id) ?? ''), reacted: userId !== null && ids.includes(userId) };
  }
  return Object.keys(out).length ? out : [];
}

export interface ShapeOptions {
  stickyAppended?: boolean;
  /** The reader's ID and the display names of reacting users: reactions are shown once an event has any. */
  reader?: number | null;
  names?: Map<number, string>;
  /** Whether the reader may edit other users (administrators), and the users the events name (`_user_id`, `created_user_id`) who exist. */
  editsUsers?: boolean;
  users?: Set<number>;
  /** The records the post logger's events name (`post_id`) that exist. */
  posts?: Set<number>;
  /** The terms the term logger's events name (`term_id`) that exist. */
  terms?: Set<number>;
  /**
   * Whether the answer shows `message` or `message_html`: writing them (get_log_row_plain_text_output)
   * adds `_message_key: null` to the legacy event's context when it has none, and the context shown is that one.
   */
  messageShown?: boolean;
}

export function eventObject(site: ShapeSite, row: HistoryRow, o: ShapeOptions = {}) {
  const c = row.context;
  const hasContext = Object.keys(c).length > 0;
  // The logger's HTML (most loggers: the interpolated message, escaped); the message is that HTML as text.
  const html = userCreatedHtml(site.urls, row, o) ?? postHtml(site.urls, row, o) ?? termHtml(site.urls, row, o) ?? escHtml(interpolate(row.message, hasContext ? c : null));
  const d = details(site.urls, row);
  const link = eventLink(site.urls, row.id);
  const gmt = new Date(`${row.date.replace(' ', 'T')}Z`);
  const out: Record<string, unknown> = {
    id: row.id,
    date_local: fmt(instantToWall(gmt, site.zone)),
    date_gmt: row.date,
    via: LOGGERS[row.logger]?.via ?? null,
    message: stripAllTags(htmlEntityDecode(html)),
    message_html: html,
    message_uninterpolated: row.message,
    details_data: d.data,
    details_html: d.html,
    link,
    logger: row.logger,
    message_key: row.message_key,
    loglevel: row.level,
    initiator: row.initiator,
    initiator_data: initiatorData(site.urls, c, o),
    ip_addresses: {},
    occasions_id: row.occasions_id,
    subsequent_occasions_count: row.run_size,
    sticky: '_sticky' in c,
    sticky_appended: o.stickyAppended ?? false,
    backfilled: '_backfilled_event' in c,
  };
  if ('_reactions' in c) out.reactions = reactions(row, o.reader ?? null, o.names ?? new Map());
  out.context = o.messageShown && !('_message_key' in c) ? { ...c, _message_key: null } : hasContext ? c : null;
  out.permalink = link;
  return out;
}
