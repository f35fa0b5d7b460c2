import { describe, expect, it } from 'vitest';
import type { HistoryRow } from '../../store/history.ts';
import { eventRows, humanTimeDiff, pluginDetails } from './stats-details.ts';

describe('humanTimeDiff (WordPress human_time_diff)', () => {
  it('names the largest whole unit, rounded half up, at least 1', () => {
    const day = 86_400;
    expect([0, 59, 90, 3_600, 6 * day, 10 * day, 45 * day, 365 * day, 900 * day].map((d) => humanTimeDiff(1000, 1000 + d))).toEqual([
      '1 second', '59 seconds', '2 minutes', '1 hour', '6 days', '1 week', '2 months', '1 year', '2 years',
    ]);
  });
});

describe('pluginDetails (get_plugin_details)', () => {
  const row = (date: string, context: Record<string, string>) => ({ id: 1, date, logger: 'SimplePluginLogger', message_key: 'plugin_installed', context }) as unknown as HistoryRow;
  it('lists name, version and how long ago, leaving out an event without both values, up to the limit', () => {
    const rows = [
      row('2026-11-21 12:06:28', { plugin_name: 'Simple History', plugin_version: '5.23.1' }),
      row('2026-11-20 12:00:00', { plugin_name: 'No version' }),
      row('2026-11-01 12:00:00', { plugin_name: 'Redirection', plugin_version: '5.5' }),
      row('2026-10-01 12:00:00', { plugin_name: 'Older', plugin_version: '1' }),
    ];
    expect(pluginDetails(rows, 2, new Date('2026-11-27T06:00:00Z'))).toEqual([
      { name: 'Simple History', version: '5.23.1', when: '6 days ago' },
      { name: 'Redirection', version: '5.5', when: '4 weeks ago' },
    ]);
  });
});

describe('eventRows (get_detailed_stats_for_logger_and_value)', () => {
  it('shows each event as its table row of strings with its whole context, [] for none', () => {
    const row = { id: 7, date: '2026-11-21 10:00:00', logger: 'SimpleMediaLogger', level: 'info', message: 'Created {post_type} "{attachment_title}"', message_key: 'attachment_created', occasions_id: 'abc', initiator: 'wp_user', context: { _message_key: 'attachment_created', attachment_id: '9' }, run_size: 1 } as HistoryRow;
    expect(eventRows([row, { ...row, id: 6, context: {} }])).toEqual([
      { id: '7', date: '2026-11-21 10:00:00', logger: 'SimpleMediaLogger', level: 'info', message: 'Created {post_type} "{attachment_title}"', occasionsID: 'abc', initiator: 'wp_user', context: { _message_key: 'attachment_created', attachment_id: '9' } },
      { id: '6', date: '2026-11-21 10:00:00', logger: 'SimpleMediaLogger', level: 'info', message: 'Created {post_type} "{attachment_title}"', occasionsID: 'abc', initiator: 'wp_user', context: [] },
    ]);
  });
});
