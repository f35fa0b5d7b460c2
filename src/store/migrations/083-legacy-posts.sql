-- The legacy site's posts that are no calendar record (WordPress's posts and pages, revisions, menus,
-- attachments...): they share the post ID space with events, venues and organizers, and the legacy
-- answers to a calendar route naming one depend on what it is (its type, status, author and, for a
-- revision, the post it belongs to). Filled by `lintel import`; the post ID sequence moves past them.
create table legacy_posts (
  id bigint primary key,
  post_type text not null,
  status text not null,
  author bigint not null default 0,
  parent bigint not null default 0
);

select lintel_watch('legacy_posts', 'calendar');
