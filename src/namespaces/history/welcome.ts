/**
 * The details of the plugin's welcome event (SimpleLogger, `is_welcome_message`), which an imported
 * log holds: the legacy installation's introduction, row by row, as one raw item.
 */

/** The legacy plugin's default retention, which its introduction names. */
const LEGACY_RETENTION_DAYS = 60;

const tracking = (campaign: string) => `https://simple-history.com/add-ons/?utm_source=wpadmin&#038;utm_medium=plugin&#038;utm_campaign=${campaign}`;

const ROWS: [string, string][] = [
  ['🚀', 'Simple History has been successfully installed on your WordPress site and is active and ready to log important changes on your website'],
  ['📝', 'As your users work on this site, this feed will update to contain information about their actions. Page edits, attachment uploads, plugin updates, user logins, site settings changes, and much more will show up in this log.'],
  ['👥', "If you have multiple users working on this website, you'll find Simple History especially useful . It logs events from all users, providing a centralized view of what's happening. This makes it easy for you to see and understand the activities of other users on the same website."],
  [
    '⏰',
    `Simple History will automatically backfill your history with events from existing content. Posts, pages, and user registrations will be added to your log, giving you a head start. Want to import even older WordPress posts? <a href="${tracking('premium_welcome_backfill')}" target="_blank">Simple History Premium</a> lets you manually run backfill with custom options.`,
  ],
  [
    '🌟',
    `By default, events are automatically cleared after ${LEGACY_RETENTION_DAYS} days to keep your database size in check. Need to keep your history longer? <a href="${tracking('premium_welcome_retention')}" target="_blank">Simple History Premium</a> lets you extend the retention period.`,
  ],
];

const row = ([emoji, text]: [string, string]) =>
  `\n\t\t\t<div class="sh-FeedIntroduction-row">\n\t\t\t\t<div><span class="sh-FeedIntroduction-emoji">${emoji}</span></div>\n\t\t\t\t<div>${text}</div>\n\t\t\t</div>\n\t\t`;

/** `details_data` and `details_html` of the welcome event. */
export const WELCOME_DETAILS = {
  data: [{ title: null, items: [[]] }],
  html: `<table class="SimpleHistoryLogitem__keyValueTable"><tbody><div class="sh-FeedIntroduction">${ROWS.map(row).join('')}</div></tbody></table>`,
};
