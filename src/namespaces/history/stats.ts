/**
 * The stats routes: counts of kinds of events in a date range, read from the store's hourly
 * counts (flat in the size of the log). Each kind is a set of `Logger:message_key` pairs.
 */
import { fmt, instantToWall, phpDate, wallToInstant } from '../../lib/time.ts';
import { arg, withValidateCallback } from '../../contract/args.ts';
import type { RestContext } from '../../contract/context.ts';
import type { Args, RestResult } from '../../contract/route.ts';
import { contentDetails, DETAIL_SOURCES, eventRows, pluginDetails, userDetails, type ReadEvents } from './stats-details.ts';

export const STAT_NAMES = ['summary', 'users', 'content', 'media', 'plugins', 'core', 'peak-days', 'peak-times', 'activity-overview', 'notes'] as const;
export type StatName = (typeof STAT_NAMES)[number];

/**
 * WP_REST_Controller's collection parameters (context, page, per_page, search) name
 * rest_validate_request_arg as their validate callback and are checked first; the stats' own are
 * typed only, checked when those pass.
 */
export const statsArgs = {
  context: withValidateCallback(arg.string({ description: 'Scope under which the request is made; determines fields present in response.' })),
  page: withValidateCallback(arg.integer({ description: 'Current page of the collection.', default: 1, minimum: 1 })),
  per_page: withValidateCallback(arg.integer({ description: 'Maximum number of items to be returned in result set.', default: 10, minimum: 1, maximum: 100 })),
  search: withValidateCallback(arg.string({ description: 'Limit results to those matching a string.' })),
  date_from: arg.integer({ description: 'Start date as Unix timestamp. If not provided, defaults to 30 days ago.' }),
  date_to: arg.integer({ description: 'End date as Unix timestamp. If not provided, defaults to end of today.' }),
  limit: arg.integer({ description: 'Maximum number of items to be returned in result set.', default: 50, minimum: 1, maximum: 100 }),
  include_details: arg.boolean({ description: 'Whether to include detailed stats.', default: false }),
};

type StatsArgs = Args<typeof statsArgs>;

/** What each summary figure counts (the legacy Events_Stats counters, each a list of `Logger:message_key`). */
const KINDS = {
  logins: DETAIL_SOURCES.successful_logins,
  failed_logins: DETAIL_SOURCES.failed_logins,
  profile_updates: DETAIL_SOURCES.profile_updates,
  created: DETAIL_SOURCES.created,
  updated: DETAIL_SOURCES.updated,
  // The legacy "deleted" figure counts deletions only; trashing is in the content total.
  deleted: ['SimplePostLogger:post_deleted'],
  uploads: ['SimpleMediaLogger:attachment_created'],
  edits: ['SimpleMediaLogger:attachment_updated'],
  deletions: ['SimpleMediaLogger:attachment_deleted'],
  plugin_updates: ['SimplePluginLogger:plugin_updated', 'SimplePluginLogger:plugin_bulk_updated'],
  installations: ['SimplePluginLogger:plugin_installed'],
  activations: ['SimplePluginLogger:plugin_activated'],
  core_updates: ['SimpleCoreUpdatesLogger:core_updated', 'SimpleCoreUpdatesLogger:core_auto_updated'],
  core_available: ['AvailableUpdatesLogger:core_update_available'],
  notes_added: ['NotesLogger:note_added', 'NotesLogger:note_reply_added'],
  notes_resolved: ['NotesLogger:note_resolved'],
  // Each area's total counts every event of its kind, not the sum of the figures shown beside it.
  users_total: ['user_logged_in', 'user_unknown_logged_in', 'user_login_failed', 'user_unknown_login_failed', 'user_updated_profile', 'user_created', 'user_deleted'].map((k) => `SimpleUserLogger:${k}`),
  content_total: ['post_created', 'post_updated', 'post_trashed', 'post_deleted', 'post_restored'].map((k) => `SimplePostLogger:${k}`),
  media_total: ['SimpleMediaLogger:attachment_created', 'SimpleMediaLogger:attachment_updated', 'SimpleMediaLogger:attachment_deleted'],
  plugins_total: [
    ...['plugin_updated', 'plugin_bulk_updated', 'plugin_installed', 'plugin_deleted', 'plugin_activated', 'plugin_deactivated', 'plugin_update_available'].map((k) => `SimplePluginLogger:${k}`),
    'AvailableUpdatesLogger:plugin_update_available',
  ],
  core_total: ['SimpleCoreUpdatesLogger:core_updated', 'SimpleCoreUpdatesLogger:core_auto_updated', 'SimpleCoreUpdatesLogger:core_update_available'],
  notes_total: ['note_added', 'note_reply_added', 'note_edited', 'note_deleted', 'note_resolved', 'note_reopened'].map((k) => `NotesLogger:${k}`),
} as const satisfies Record<string, readonly string[]>;

type Kind = keyof typeof KINDS;

const pair = (m: string) => ({ logger: m.split(':')[0], key: m.split(':')[1] });

/** The range: the request's Unix timestamps, or the last 30 days including today in the site's zone. */
function dateRange(a: StatsArgs, zone: string, now: Date, site: { date_format: string; time_format: string }) {
  const today = instantToWall(now, zone);
  const day = (offset: number, h: number, m: number, s: number) =>
    Math.floor(wallToInstant(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + offset, h, m, s)), zone).getTime() / 1000);
  const from = a.date_from || day(-29, 0, 0, 0);
  const to = a.date_to || day(0, 23, 59, 59);
  const format = `${site.date_format} ${site.time_format}`;
  return {
    from,
    to,
    from_formatted: phpDate(format, new Date(from * 1000), 'UTC'),
    to_formatted: phpDate(format, new Date(to * 1000), 'UTC'),
    duration_days: Math.ceil((to - from) / 86400),
  };
}

export async function statsBody(ctx: RestContext, name: StatName, a: StatsArgs): Promise<RestResult> {
  const site = await ctx.store.options.site();
  const range = dateRange(a, site.timezone, ctx.clock.now(), site);
  const from = fmt(new Date(range.from * 1000));
  const to = fmt(new Date(range.to * 1000));
  const history = ctx.store.history;

  if (name === 'peak-days' || name === 'peak-times' || name === 'activity-overview') {
    const part = name === 'peak-days' ? 'dow' : name === 'peak-times' ? 'hour' : 'day';
    const rows = await history.countsBy(part, site.timezone, from, to);
    if (name === 'peak-days') {
      const names = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
      const days = rows.toSorted((x, y) => Number(x.key) - Number(y.key));
      return { body: { date_range: range, peak_days: days.map((r) => ({ day: r.key, count: String(r.n), day_name: names[Number(r.key)] })) } };
    }
    if (name === 'peak-times') {
      const hours = rows.toSorted((x, y) => Number(x.key) - Number(y.key));
      const hh = (h: string) => h.padStart(2, '0');
      return { body: { date_range: range, peak_times: hours.map((r) => ({ hour: r.key, count: String(r.n), time_span: `${hh(r.key)}:00-${hh(r.key)}:59` })) } };
    }
    const byDay = new Map(rows.map((r) => [r.key, String(r.n)]));
    const activity: { date: string; count: string | number }[] = [];
    const first = instantToWall(new Date(range.from * 1000), site.timezone);
    const last = fmt(instantToWall(new Date(range.to * 1000), site.timezone)).slice(0, 10);
    for (let d = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), first.getUTCDate())); ; d.setUTCDate(d.getUTCDate() + 1)) {
      const key = fmt(d).slice(0, 10);
      if (key > last) break;
      activity.push({ date: key, count: byDay.get(key) ?? 0 });
    }
    return { body: { date_range: range, activity_by_date: activity } };
  }

  const counts = await history.counts(from, to);
  const n = (k: Kind) => KINDS[k].reduce((sum, m) => sum + (counts.byMessage.get(m) ?? 0), 0);
  const users = { logins: n('logins'), failed_logins: n('failed_logins'), profile_updates: n('profile_updates'), total: n('users_total') };
  const content = { created: n('created'), updated: n('updated'), deleted: n('deleted'), total: n('content_total') };
  const media = { uploads: n('uploads'), edits: n('edits'), deletions: n('deletions'), total: n('media_total') };
  const core = { updates: n('core_updates'), available_updates: n('core_available'), total: n('core_total') };
  const notes = { added: n('notes_added'), resolved: n('notes_resolved'), total: n('notes_total') };
  // The grouped lists count every event of the range.
  const read: ReadEvents = (source, limit) => history.rowsOf(DETAIL_SOURCES[source].map(pair), from, to, limit ?? Number.MAX_SAFE_INTEGER);
  // Every event of a kind in the range (the media and plugin lists are not limited by the query).
  const all = (kind: Kind) => history.rowsOf(KINDS[kind].map(pair), from, to, Number.MAX_SAFE_INTEGER);
  switch (name) {
    case 'summary': {
      const plugins = { updates: n('plugin_updates'), installations: n('installations'), activations: n('activations'), total: n('plugins_total') };
      return { body: { date_range: range, total_events: counts.total, total_events_since_install: await history.totalEvents(), totals: { users, content, media, plugins, core, notes } } };
    }
    case 'users': {
      const body: Record<string, unknown> = { date_range: range, summary: users };
      if (a.include_details) body.details = await userDetails(read, a.limit);
      return { body };
    }
    case 'content': {
      const body: Record<string, unknown> = { date_range: range, summary: content };
      if (a.include_details) body.details = await contentDetails(read, a.limit);
      return { body };
    }
    case 'media': {
      const body: Record<string, unknown> = { date_range: range, summary: media };
      if (a.include_details) body.details = { uploads: eventRows(await all('uploads')), edits: eventRows(await all('edits')), deletions: eventRows(await all('deletions')) };
      return { body };
    }
    case 'plugins': {
      // Available plugin updates come from WordPress's update check, which Lintel has no plugins for.
      const plugins = { updates: n('plugin_updates'), installations: n('installations'), activations: n('activations'), available_updates: 0, total: n('plugins_total') };
      const body: Record<string, unknown> = { date_range: range, summary: plugins };
      if (a.include_details) {
        const list = async (kind: Kind) => pluginDetails(await all(kind), a.limit, ctx.clock.now());
        body.details = { updates: await list('plugin_updates'), installations: await list('installations'), activations: await list('activations'), available_updates: [] };
      }
      return { body };
    }
    case 'core':
      return { body: { date_range: range, summary: core } };
    default:
      return { body: { date_range: range, summary: notes } };
  }
}
