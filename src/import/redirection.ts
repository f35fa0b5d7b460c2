/**
 * The redirection resources (`redirection/v1`): the plugin settings first (the redirects' stored
 * source flags are relative to them), then groups and redirects, every one whatever its state, then
 * the redirect log and the 404 log.
 * List pages of this namespace count from 0; the importer's pages count from 1.
 */
import { wallToInstant } from '../lib/time.ts';
import type { GroupJson, LogBaseJson, LogJson, RedirectJson } from '../namespaces/redirection/records.ts';
import type { LogKind, LogRow, NotFoundRow, RedirectionSettings, RedirectRow } from '../store/redirection/rows.ts';
import { storedMatchData } from '../namespaces/redirection/sanitize.ts';
import type { LegacyClient, LegacyPage } from './client.ts';
import type { ImportResource } from './resource.ts';

const NS = 'redirection/v1';
/** The lists' largest page. */
const PER_PAGE = 200;

type ImportedGroup = { id: number; name: string; moduleId: number; enabled: boolean; position: number };
/** The settings are one record. */
type ImportedSettings = { id: number; settings: RedirectionSettings };

async function list<T>(client: LegacyClient, route: string, page: number): Promise<LegacyPage<T>> {
  const { body } = await client.get<{ items: T[]; total: number }>(`${NS}/${route}`, { orderby: 'id', direction: 'asc', per_page: PER_PAGE, page: page - 1 });
  return { items: body.items, total: body.total, totalPages: Math.ceil(body.total / PER_PAGE) };
}

function settingsResource(settings: () => Promise<RedirectionSettings>): ImportResource<ImportedSettings> {
  return {
    name: 'redirection.settings',
    family: 'redirection',
    fetchPage: async (page) => ({ page, records: [{ id: 1, settings: await settings() }], total: 1, totalPages: 1 }),
    writeBatch: async (store, [r]) => void (await store.redirection.settings.save(r.settings)),
    sample: async (store) => new Map([[1, { id: 1, settings: await store.redirection.settings.get() }]]),
    storedIds: async () => [1],
    // There are always settings.
    remove: async () => undefined,
  };
}

function groupResource(client: LegacyClient): ImportResource<ImportedGroup> {
  return {
    name: 'redirection.groups',
    family: 'redirection',
    async fetchPage(page) {
      const l = await list<GroupJson>(client, 'group', page);
      // The API shows no position: the groups keep their order by ID.
      const records = l.items.map((g) => ({ id: g.id, name: g.name, moduleId: g.module_id, enabled: g.enabled, position: g.id }));
      return { page, records, total: l.total, totalPages: l.totalPages };
    },
    writeBatch: (store, rows) => store.redirection.groups.importRows(rows),
    storedIds: async (store) => (await store.redirection.groups.all()).map((g) => g.id),
    remove: async (store, ids) => void (await store.redirection.groups.delete({ ids })),
    async sample(store, ids) {
      const out = new Map<number, ImportedGroup>();
      for (const id of ids) {
        const g = await store.redirection.groups.byId(id);
        if (g) out.set(id, { id: g.id, name: g.name, moduleId: g.moduleId, enabled: g.enabled, position: g.position });
      }
      return out;
    },
  };
}

function redirectResource(client: LegacyClient, settings: () => Promise<RedirectionSettings>): ImportResource<RedirectRow> {
  return {
    name: 'redirection.redirects',
    family: 'redirection',
    async fetchPage(page) {
      const l = await list<RedirectJson>(client, 'redirect', page);
      const s = await settings();
      const zone = await client.timezone();
      const records = l.items.map((r): RedirectRow => ({
        id: r.id, url: r.url, matchUrl: r.match_url,
        matchData: r.match_data ? storedMatchData(r.match_data.source, r.match_data.options?.log_exclude === true, s) : null,
        regex: r.regex, position: r.position, hits: r.hits, lastAccess: lastAccess(r.last_access, zone), groupId: r.group_id, enabled: r.enabled,
        actionType: r.action_type, actionCode: r.action_code, actionData: r.action_data, title: r.title === '' ? null : r.title, matchType: r.match_type,
      }));
      return { page, records, total: l.total, totalPages: l.totalPages };
    },
    writeBatch: (store, rows) => store.redirection.redirects.importRows(rows),
    storedIds: async (store) => (await store.redirection.redirects.list({}, 'id', 'asc', { page: 0, perPage: 1_000_000 })).items.map((r) => r.id),
    remove: async (store, ids) => void (await store.redirection.redirects.delete({ ids })),
    async sample(store, ids) {
      const out = new Map<number, RedirectRow>();
      for (const id of ids) {
        const r = await store.redirection.redirects.byId(id);
        if (r) out.set(id, r);
      }
      return out;
    },
  };
}

/** A log entry as the API shows it (`log` adds the redirect's fields to the 404 log's). */
type LogEntryJson = LogBaseJson & Partial<Pick<LogJson, 'sent_to' | 'redirection_id' | 'redirect_by_slug'>>;

/**
 * The redirect log or the 404 log, newest first: entries are only ever added (or expired), so an
 * incremental run stops at the first page it already holds. The API shows the time to the minute,
 * in the site's zone; that is what is kept.
 */
function logResource(client: LegacyClient, kind: LogKind): ImportResource<LogRow | NotFoundRow> {
  return {
    name: kind === 'log' ? 'redirection.log' : 'redirection.404',
    family: 'redirection',
    appendOnly: true,
    async fetchPage(page) {
      const { body } = await client.get<{ items: LogEntryJson[]; total: number }>(`${NS}/${kind}`, { per_page: PER_PAGE, page: page - 1 });
      const zone = await client.timezone();
      const records = body.items.map((e): LogRow | NotFoundRow => {
        const base = {
          id: e.id, created: wallToInstant(new Date(Date.parse(`${e.created} ${e.created_time} UTC`)), zone), url: e.url, domain: e.domain, agent: e.agent,
          referrer: e.referrer, ip: e.ip, httpCode: e.http_code, requestMethod: e.request_method, requestData: e.request_data === '' ? null : e.request_data,
        };
        return kind === 'log' ? { ...base, sentTo: e.sent_to ?? null, redirectBy: e.redirect_by_slug ?? null, redirectionId: e.redirection_id ?? 0 } : base;
      });
      return { page, records, total: body.total, totalPages: Math.ceil(body.total / PER_PAGE) };
    },
    writeBatch: (store, rows) => store.redirection.logs.importRows(kind, rows),
    sample: async (store, ids) => new Map((await store.redirection.logs.byIds(kind, ids)).map((r) => [r.id, r])),
    storedIds: (store) => store.redirection.logs.ids(kind),
    remove: async (store, ids) => void (await store.redirection.logs.delete(kind, { ids })),
  };
}

/**
 * The last hit as the API shows it: a day in the site's date format, or "-" for never. The day is
 * kept (at noon in the site's zone, so it shows as the same day); the time of day is not shown.
 */
function lastAccess(shown: string, zone: string): Date | null {
  if (shown === '-' || shown === '') return null;
  const day = Date.parse(`${shown} 12:00 UTC`);
  return Number.isNaN(day) ? null : wallToInstant(new Date(day), zone);
}

export function redirectionResources(client: LegacyClient): ImportResource[] {
  let settings: Promise<RedirectionSettings> | undefined;
  const sourceSettings = () =>
    (settings ??= client.get<{ settings: RedirectionSettings }>(`${NS}/setting`).then(({ body }) => ({
      ...body.settings,
      // PHP shows an empty map as [].
      modules: Array.isArray(body.settings.modules) ? {} : body.settings.modules,
    })));
  return [settingsResource(sourceSettings), groupResource(client), redirectResource(client, sourceSettings), logResource(client, 'log'), logResource(client, '404')] as ImportResource[];
}
