/**
 * The one way an event enters the audit log. Write paths call `logEvent` with the store they write
 * through: inside a transaction the row is written in it, so a rolled-back write leaves no row.
 * Context is completed as the legacy loggers complete it: the message key, the user, whether the
 * request came through REST, and the client address (anonymised unless the site turned that off).
 */
import { fmt } from '../lib/time.ts';
import { createHash } from 'node:crypto';
import type { User } from '../lib/roles.ts';
import type { Clock } from '../clock.ts';
import type { TermRow } from '../store/calendar.ts';
import type { Initiator } from '../store/history.ts';
import type { Store } from '../store/store.ts';
import { LOGGERS } from './loggers.ts';

/** Who made the write: a REST context satisfies this. */
export interface Actor {
  user: User | null;
  ip: string;
  clock: Clock;
  /** False for writes outside a REST request (login page, command line). */
  rest?: boolean;
  initiator?: Initiator;
}

export interface LogEntry {
  logger: keyof typeof LOGGERS;
  key: string;
  level?: string;
  /** The logger's own context; values are stored as strings (lists and objects as pretty JSON, as PHP's print). */
  context?: Record<string, unknown>;
  /** GMT `Y-m-d H:i:s`; now when absent. */
  date?: string;
  /** Groups repeats by this key instead of by the whole context (the legacy `_occasionsID`). */
  occasionsKey?: string;
}

/** Site option `history`: `{anonymize_ip: false}` keeps full client addresses (the legacy option). */
export const HISTORY_OPTION = 'history';

/** The legacy anonymisation: the last part of the address replaced by `x` (`127.0.0.x`, `2001:db8::x`). */
export function anonymizeIp(ip: string): string {
  const v4 = ip.replace(/^::ffff:/, '');
  if (/^\d+\.\d+\.\d+\.\d+$/.test(v4)) return v4.replace(/\.\d+$/, '.x');
  return ip.includes(':') ? ip.replace(/:[0-9a-f]*$/i, ':x') : ip;
}

function asString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v, null, 4);
  return String(v);
}

/** PHP's json_encode: `/` and every non-ASCII character escaped. */
function phpJson(v: unknown): string {
  return JSON.stringify(v)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The legacy occasions ID: the MD5 of the event's logger, level, message template and the context
 * its logger passed (the message key last), or of an explicit occasions key with the logger, so
 * repeats of the same thing share it.
 */
export function occasionsId(logger: string, level: string, message: string, own: Record<string, unknown>, key: string, occasionsKey?: string): string {
  // PHP's `$data + $context` keeps the data's keys first, and theirs win.
  const data =
    occasionsKey !== undefined
      ? { _occasionsID: occasionsKey, _loggerSlug: logger }
      : { logger, level, message, ...Object.fromEntries(Object.entries(own).filter(([k]) => !['logger', 'level', 'message'].includes(k))), _message_key: key };
  return createHash('md5').update(phpJson(data)).digest('hex');
}

export async function logEvent(store: Store, actor: Actor, e: LogEntry): Promise<number> {
  const given = Object.fromEntries(Object.entries(e.context ?? {}).filter(([, v]) => v !== undefined));
  const context: Record<string, string> = { ...Object.fromEntries(Object.entries(given).map(([k, v]) => [k, asString(v)])), _message_key: e.key };
  if (actor.user) {
    context._user_id = String(actor.user.id);
    context._user_login = actor.user.login;
    context._user_email = actor.user.email;
  }
  if (actor.rest !== false) context._rest_api_request = 'true';
  const keepIp = (await store.options.get<{ anonymize_ip?: boolean }>(HISTORY_OPTION))?.anonymize_ip === false;
  if (actor.ip) context._server_remote_addr = keepIp ? actor.ip : anonymizeIp(actor.ip);
  const level = e.level ?? 'info';
  const message = LOGGERS[e.logger].messages[e.key] ?? e.key;
  // Joins the caller's transaction (the write being logged), or makes the append atomic on its own.
  return store.transaction((tx) => tx.history.log({
    logger: e.logger,
    level,
    message,
    messageKey: e.key,
    initiator: actor.initiator ?? (actor.user ? 'wp_user' : 'other'),
    context,
    date: e.date ?? fmt(actor.clock.now()),
    occasionsId: occasionsId(e.logger, level, message, given, e.key, e.occasionsKey),
  }));
}

/** The legacy post types and taxonomies of the calendar's records, as the post and term loggers name them. */
const POST_TYPES = { event: 'tribe_events', venue: 'tribe_venue', organizer: 'tribe_organizer' } as const;
const TAXONOMIES = { category: 'tribe_events_cat', tag: 'post_tag' } as const;

/** A calendar record as the post logger reads it. */
export interface LoggedPost {
  id: number;
  title?: string;
  name?: string;
  status: string;
  password?: string;
}

/** What an update changed that the post logger records: visibility and terms. */
export interface PostChange {
  before: { status: string; password: string; terms: TermRow[] };
  after: { status: string; password: string; terms: TermRow[] };
}

/** WordPress's get_the_title: a password-protected record's title reads "Protected: …", a private one's "Private: …". */
function theTitle(p: LoggedPost): string {
  const title = p.title ?? p.name ?? '';
  return p.password ? `Protected: ${title}` : p.status === 'private' ? `Private: ${title}` : title;
}

/** The legacy post logger's context for an update: how the password and visibility changed, and the terms added and removed. */
function changeContext({ before, after }: PostChange): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!before.password && after.status === 'publish' && after.password) out.post_password_protected = true;
  else if (before.password && before.status === 'publish' && !after.password && after.status === 'publish') out.post_password_unprotected = true;
  else if (before.password && after.password && before.password !== after.password) out.post_password_changed = true;
  else if (after.status === 'private' && before.status !== 'private') {
    out.post_private = true;
    if (before.password) out.post_password_unprotected = true;
  }
  const term = (t: TermRow) => ({ term_id: t.id, name: t.name, slug: t.slug, term_taxonomy_id: t.id, taxonomy: TAXONOMIES[t.taxonomy] });
  const missing = (from: TermRow[], of: TermRow[]) => from.filter((t) => !of.some((o) => o.id === t.id)).map(term);
  out.post_terms_added = missing(after.terms, before.terms);
  out.post_terms_removed = missing(before.terms, after.terms);
  return out;
}

/** A calendar record created, updated (with what changed) or moved to the trash (SimplePostLogger). */
export function logPost(store: Store, actor: Actor, key: 'post_created' | 'post_updated' | 'post_trashed', kind: keyof typeof POST_TYPES, p: LoggedPost, change?: PostChange) {
  return logEvent(store, actor, {
    logger: 'SimplePostLogger',
    key,
    context: { post_id: String(p.id), post_type: POST_TYPES[kind], post_title: theTitle(p), ...(change ? changeContext(change) : {}) },
    // Updates of one record are occasions of each other, under the legacy post logger's key.
    occasionsKey: key === 'post_updated' ? `Simple_History\\Loggers\\Post_Logger/maybe_log_post_change/post_updated/${p.id}` : undefined,
  });
}

type Term = { id: number; name: string; slug: string; description: string; taxonomy: keyof typeof TAXONOMIES };

/**
 * The legacy term logger's occasions keys (its class, method and action): every creation is an
 * occasion of the one before, whatever the term or taxonomy, and so is every deletion and every edit.
 */
const TERM_OCCASIONS = {
  created_term: 'Simple_History\\Loggers\\Categories_Logger/on_created_term/term_created',
  deleted_term: 'Simple_History\\Loggers\\Categories_Logger/on_delete_term/term_deleted',
  edited_term: 'Simple_History\\Loggers\\Categories_Logger/on_wp_update_term_parent/term_edited',
};

/** A category or tag created, edited or deleted (SimpleCategoriesLogger). */
export function logTerm(store: Store, actor: Actor, key: 'created_term' | 'deleted_term', t: Pick<Term, 'id' | 'name' | 'taxonomy'>) {
  return logEvent(store, actor, {
    logger: 'SimpleCategoriesLogger',
    key,
    context: { term_id: String(t.id), term_name: t.name, term_taxonomy: TAXONOMIES[t.taxonomy] },
    occasionsKey: TERM_OCCASIONS[key],
  });
}

export function logTermEdit(store: Store, actor: Actor, from: Term, to: Term) {
  const side = (p: string, t: Term) => ({ [`${p}_term_name`]: t.name, [`${p}_term_taxonomy`]: TAXONOMIES[t.taxonomy], [`${p}_term_slug`]: t.slug, [`${p}_term_description`]: t.description });
  return logEvent(store, actor, {
    logger: 'SimpleCategoriesLogger',
    key: 'edited_term',
    context: { term_id: String(from.id), ...side('from', from), ...side('to', to) },
    occasionsKey: TERM_OCCASIONS.edited_term,
  });
}

/** A change made through the redirection module (Plugin_Redirection, the legacy message keys). */
export function logRedirection(store: Store, actor: Actor, key: string, context: Record<string, unknown> = {}) {
  return logEvent(store, actor, { logger: 'Plugin_Redirection', key, context });
}

/** A bulk action's context: the IDs it was given and how many. */
export const bulkItems = (ids: readonly unknown[]) => ({ items: ids, items_count: ids.length });

/** A login through Lintel: with the right password, with a wrong one, or for a login that does not exist (SimpleUserLogger). */
export function logLogin(store: Store, actor: Actor, login: string, outcome: 'ok' | 'wrong_password' | 'unknown_user') {
  if (outcome === 'ok') return logEvent(store, actor, { logger: 'SimpleUserLogger', key: 'user_logged_in' });
  const failed = { ...actor, user: null, initiator: 'web_user' as const };
  return outcome === 'wrong_password'
    ? logEvent(store, failed, { logger: 'SimpleUserLogger', key: 'user_login_failed', level: 'warning', context: { login } })
    : logEvent(store, failed, { logger: 'SimpleUserLogger', key: 'user_unknown_login_failed', level: 'warning', context: { failed_username: login } });
}

/** An application password created or revoked for a user. */
export function logAppPassword(store: Store, actor: Actor, key: 'user_application_password_created' | 'user_application_password_deleted', user: User, name: string) {
  return logEvent(store, actor, {
    logger: 'SimpleUserLogger',
    key,
    context: { edited_user_id: String(user.id), edited_user_email: user.email, edited_user_login: user.login, application_password_name: name },
  });
}

export function logUserCreated(store: Store, actor: Actor, u: User) {
  return logEvent(store, actor, {
    logger: 'SimpleUserLogger',
    key: 'user_created',
    context: { created_user_id: String(u.id), created_user_email: u.email, created_user_login: u.login, created_user_role: u.role },
  });
}
