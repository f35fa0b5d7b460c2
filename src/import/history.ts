/**
 * The audit log (`simple-history/v1` on the legacy site): every event, each occasion its own row
 * (`ungrouped`), with its ID, raw message template, context and occasions ID, so the target groups
 * and interpolates them as the source does. The list is newest first: events logged on the source
 * during an import push older ones to later pages, so a page is read twice rather than skipped.
 */
import type { HistoryRow, Initiator, NewHistoryEvent } from '../store/history.ts';
import type { LegacyClient } from './client.ts';
import type { ImportResource } from './resource.ts';

const NS = 'simple-history/v1';
const NAME = 'history.events';
/** The list's largest page. */
const PER_PAGE = 100;
/** Only the fields the store keeps (the legacy site still builds the rest, but does not send them). */
const FIELDS = 'id,date_gmt,logger,message_key,loglevel,initiator,occasions_id,message_uninterpolated,context';

type ImportedEvent = NewHistoryEvent & { id: number };

/** The legacy event object, as far as the importer reads it. */
interface EventJson {
  id: number | string;
  date_gmt: string;
  logger: string;
  message_key: string | null;
  loglevel: string;
  initiator: Initiator;
  occasions_id: string;
  /** The raw `message` column: the template with `{placeholders}` (`message` is interpolated). */
  message_uninterpolated: string;
  /** `null` when the event has no context rows. */
  context: Record<string, string> | null;
}

const fromJson = (e: EventJson): ImportedEvent => ({
  id: Number(e.id), date: e.date_gmt, logger: e.logger, level: e.loglevel, message: e.message_uninterpolated,
  messageKey: e.message_key, initiator: e.initiator, context: e.context ?? {}, occasionsId: e.occasions_id,
});

const fromRow = (r: HistoryRow): ImportedEvent => ({
  id: r.id, date: r.date, logger: r.logger, level: r.level, message: r.message,
  messageKey: r.message_key, initiator: r.initiator, context: r.context, occasionsId: r.occasions_id,
});

function eventResource(client: LegacyClient): ImportResource<ImportedEvent> {
  return {
    name: NAME,
    family: 'history',
    async fetchPage(page) {
      const l = await client.list<EventJson>(`${NS}/events`, { ungrouped: true, per_page: PER_PAGE, page, _fields: FIELDS });
      return { page, records: l.items.map(fromJson), total: l.total, totalPages: l.totalPages };
    },
    appendOnly: true,
    writeBatch: async (store, rows) => store.history.importEvents(rows, new Set(await store.importCheckpoints.imported(NAME, rows.map((r) => r.id)))),
    storedIds: (store) => store.history.allIds(),
    remove: (store, ids) => store.history.deleteEvents(ids),
    finish: (store) => store.history.rebuildRuns(),
    async sample(store, ids) {
      const out = new Map<number, ImportedEvent>();
      for (const id of ids) {
        const r = await store.history.byId(id);
        if (r) out.set(id, fromRow(r));
      }
      return out;
    },
  };
}

export function historyResources(client: LegacyClient): ImportResource[] {
  return [eventResource(client)] as ImportResource[];
}
