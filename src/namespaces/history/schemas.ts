/** The shapes `history/v1` answers with (what `shape.ts` and the routes build), for the API reference. */
import { z } from 'zod';

const str = z.string();
const int = z.int();

/** A logged event as the list and single routes show it (`shape.ts` `eventObject`). */
export const HistoryEvent = z.object({
  id: int, date_local: str, date_gmt: str, via: str.nullable(), message: str, message_html: str, message_uninterpolated: str,
  details_data: z.unknown(), details_html: str, link: str, logger: str, message_key: str, loglevel: str, initiator: str,
  initiator_data: z.record(str, z.unknown()), ip_addresses: z.record(str, z.unknown()), occasions_id: str, subsequent_occasions_count: int,
  sticky: z.boolean(), sticky_appended: z.boolean(), backfilled: z.boolean(),
  reactions: z.union([z.record(str, z.object({ count: int, user_ids: z.array(int), user_names: z.array(str), reacted: z.boolean() })), z.tuple([])]).optional(),
  context: z.record(str, z.unknown()).nullable(), permalink: str,
}).meta({ id: 'HistoryEvent' });

export const DateRange = z.object({ from: int, to: int, from_formatted: str, to_formatted: str, duration_days: int });
/** A stats answer: its date range and the figures the stat names (each stat its own). */
export const Stats = z.looseObject({ date_range: DateRange });

export const UserMatch = z.object({ ID: str, user_login: str, user_nicename: str, user_email: str, display_name: str, id: str });

/** What the event log's search form offers (loggers, initiators, months) and the reader's settings. */
export const SearchOptions = z.looseObject({
  dates: z.looseObject({ result_months: z.array(z.object({ yearMonth: str })) }),
  loggers: z.array(z.looseObject({ slug: str, name: str })),
  initiators: z.array(z.object({ value: str, label: str })),
  current_user_id: int,
  current_user_can_manage_options: z.boolean(),
});
