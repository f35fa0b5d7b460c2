/**
 * search-options' `dates`: the legacy plugin's get_data_for_date_filter. Its two queries (the months
 * holding events, the distinct occasions since a day) are kept in transients for an hour from when they
 * were computed and never cleared when events are logged, so within that hour the answer does not move
 * with the log; Lintel keeps them the same way.
 */
import { fmt } from '../../lib/time.ts';
import type { RestContext } from '../../contract/context.ts';
import { readableLoggers } from './query.ts';

/** Events per page of the history page (the legacy `simple_history_pager_size`, default 20). */
export const PAGER_SIZE = 20;

/** HOUR_IN_SECONDS, the plugin's transient lifetime. */
const KEPT_MS = 3_600_000;

/** Values kept for an hour from when they were computed, by key (a WordPress transient: valid up to and including its expiry). */
export class Transients {
  private readonly kept = new Map<string, { value: unknown; until: number }>();

  async get<T>(key: string, now: Date, compute: () => Promise<T>): Promise<T> {
    const hit = this.kept.get(key);
    if (hit && now.getTime() <= hit.until) return hit.value as T;
    const value = await compute();
    this.kept.set(key, { value, until: now.getTime() + KEPT_MS });
    return value;
  }
}

/**
 * The default range: 1, then 7, 14 and 30 days back from the start of today (UTC, MySQL's CURDATE())
 * while the distinct occasions logged in that range fill fewer than 20 pages; back to 14 days if 30
 * would be over 1000 pages. Each step tried is reported in `arr_days_and_pages`. The counts cover every
 * logger (the plugin's query does not filter them), the months only those the reader may read.
 */
export async function dateFilter(ctx: RestContext, kept: Transients) {
  const now = ctx.clock.now();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const arr: { daysToShow: number; numPages: number }[] = [];
  for (const days of [1, 7, 14, 30]) {
    const occasions = await kept.get(`occasions:${days}`, now, () => ctx.store.history.occasionsSince(fmt(new Date(today - days * 86_400_000))));
    const numPages = occasions / PAGER_SIZE;
    arr.push({ daysToShow: days, numPages });
    if (numPages >= 20) break;
  }
  const last = arr.at(-1)!;
  const readable = readableLoggers(ctx.user);
  const months = await kept.get(`months:${readable?.join(',') ?? '*'}`, now, () => ctx.store.history.months(readable));
  return {
    arr_days_and_pages: arr,
    daysToShow: last.daysToShow === 30 && last.numPages > 1000 ? 14 : last.daysToShow,
    result_months: months.map((yearMonth) => ({ yearMonth })),
  };
}
