/**
 * Retention of the audit log: with LINTEL_HISTORY_RETENTION_DAYS set, events older than that many
 * days are deleted at start and then every hour (the legacy plugin purges daily, 60 days by default).
 */
import { fmt } from '../../lib/time.ts';
import type { Services } from '../../services.ts';

const HOUR_MS = 3_600_000;

export function startHistoryRetention(services: Pick<Services, 'config' | 'store' | 'clock' | 'log'>): { stop(): Promise<void> } {
  const days = services.config.historyRetentionDays;
  if (days <= 0) return { stop: async () => {} };
  const prune = async () => {
    try {
      const before = fmt(new Date(services.clock.now().getTime() - days * 86_400_000));
      const n = await services.store.history.prune(before);
      if (n > 0) services.log.info({ deleted: n, before }, 'history retention: old events deleted');
    } catch (err) {
      services.log.warn({ err }, 'history retention: prune failed');
    }
  };
  // The store must outlive a prune in progress: stopping waits for it.
  let running = prune();
  const timer = setInterval(() => {
    running = prune();
  }, HOUR_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
