/**
 * The legacy loggers: all the plugin's loggers as its search options list them, with who may read
 * their events; and those Lintel writes as, with their `via` line and message templates by message
 * key (the uninterpolated `message` of each row), in the legacy wording.
 */
import { can, type Capability, type User } from '../lib/roles.ts';
import legacyLoggers from './legacy-loggers.json' with { type: 'json' };

/**
 * A logger of Simple History 5.23.1 as `search-options` lists it to an administrator (read from
 * the legacy answer), with the WordPress capability its `get_info()` declares (default manage_options).
 */
export interface LegacyLogger {
  slug: string;
  capability: string;
  name: string;
  /** Search labels and their `Logger:message_key` options; PHP's empty array when it has none. */
  search_data: Record<string, unknown> | [];
}

export const ALL_LOGGERS: readonly LegacyLogger[] = legacyLoggers as LegacyLogger[];

/** The WordPress capabilities the loggers name, as the roles Lintel knows grant them. */
const GRANTED_AS: Record<string, Capability> = {
  edit_posts: 'edit_posts',
  upload_files: 'publish_posts',
  edit_pages: 'edit_others_posts',
  moderate_comments: 'edit_others_posts',
};

/** Whether the user may read the logger's events (user_can with its capability); admin-only capabilities are manage_options. */
export function mayReadLogger(user: User | null, logger: LegacyLogger): boolean {
  return can(user, GRANTED_AS[logger.capability] ?? 'manage_options');
}

export interface LoggerInfo {
  name: string;
  via: string | null;
  messages: Record<string, string>;
}

export const LOGGERS: Record<string, LoggerInfo> = {
  CustomEntryLogger: {
    name: 'Custom Entry Logger',
    via: null,
    messages: { custom_entry_added: 'Added a custom entry: {message}' },
  },
  SimplePostLogger: {
    name: 'Post Logger',
    via: null,
    messages: {
      post_created: 'Created {post_type} "{post_title}"',
      post_updated: 'Updated {post_type} "{post_title}"',
      post_trashed: 'Moved {post_type} "{post_title}" to the trash',
      post_restored: 'Restored {post_type} "{post_title}" from the trash',
      post_deleted: 'Deleted {post_type} "{post_title}"',
    },
  },
  SimpleCategoriesLogger: {
    name: 'Categories Logger',
    via: null,
    messages: {
      created_term: 'Added term "{term_name}" in taxonomy "{term_taxonomy}"',
      edited_term: 'Edited term "{to_term_name}" in taxonomy "{to_term_taxonomy}"',
      deleted_term: 'Deleted term "{term_name}" from taxonomy "{term_taxonomy}"',
    },
  },
  Plugin_Redirection: {
    name: 'Redirection',
    via: 'In plugin Redirection',
    messages: {
      redirection_redirection_added: 'Added a redirection for URL "{source_url}"',
      redirection_redirection_edited: 'Edited redirection for URL "{prev_source_url}"',
      redirection_redirection_enabled: 'Enabled redirection for {items_count} URL(s)',
      redirection_redirection_disabled: 'Disabled redirection for {items_count} URL(s)',
      redirection_redirection_deleted: 'Deleted redirection for {items_count} URL(s)',
      redirection_group_added: 'Added redirection group "{group_name}"',
      redirection_group_edited: 'Edited redirection group "{prev_group_name}"',
      redirection_group_enabled: 'Enabled {items_count} redirection group(s)',
      redirection_group_disabled: 'Disabled {items_count} redirection group(s)',
      redirection_group_deleted: 'Deleted {items_count} redirection group(s)',
      redirection_options_saved: 'Updated redirection options',
      redirection_options_removed_all: 'Removed all redirection options and deleted tables',
      redirection_imported: 'Imported {items_count} redirection(s)',
    },
  },
  SimpleUserLogger: {
    name: 'User Logger',
    via: null,
    messages: {
      user_logged_in: 'Logged in',
      user_login_failed: 'Failed to login with username "{login}" (incorrect password entered)',
      user_unknown_login_failed: 'Failed to login with username "{failed_username}" (username does not exist)',
      user_created: 'Created user {created_user_login} ({created_user_email}) with role {created_user_role}',
      user_updated_profile: 'Edited the profile for user "{edited_user_login}" ({edited_user_email})',
      user_application_password_created: 'Added application password "{application_password_name}" for user "{edited_user_login}"',
      user_application_password_deleted: 'Deleted application password "{application_password_name}" for user "{edited_user_login}"',
    },
  },
  SimpleOptionsLogger: {
    name: 'Options Logger',
    via: null,
    messages: { option_updated: 'Updated setting "{option}" on the "{option_page}" settings page' },
  },
};

/** The post logger shows a post type by its label ("Updated event"); the term logger names taxonomies itself (shape.ts). */
const LABELS: Record<string, Record<string, string>> = {
  post_type: { tribe_events: 'event', tribe_venue: 'venue', tribe_organizer: 'organizer' },
};

/** `{key}` placeholders replaced by the context's values; unknown ones stay as written (as the legacy does). */
export function interpolate(template: string, context: Record<string, string> | null): string {
  return template.replace(/\{([A-Za-z0-9_.]+)\}/g, (m, k: string) => (context && k in context ? (LABELS[k]?.[context[k]] ?? context[k]) : m));
}
