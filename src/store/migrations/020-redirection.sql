-- Redirection (redirection/v1): groups, redirects, the redirect log and the 404 log, as in the
-- legacy plugin's schema 4.2. Settings live in `options` under the name `redirection`.
create table redirection_groups (
  id bigserial primary key,
  name text not null,
  -- 1 WordPress (executed by the site), 2 Apache, 3 Nginx (export only).
  module_id integer not null check (module_id in (1, 2, 3)),
  enabled boolean not null default true,
  position integer not null default 0
);

create table redirection_items (
  id bigserial primary key,
  -- The source as sanitized (the pattern for regex redirects).
  url text not null,
  -- Normalized lookup key: lowercase path without trailing slash, or 'regex'.
  match_url text not null,
  -- Only the source flags that differ from the global settings, plus options ({log_exclude}); null when none.
  match_data jsonb,
  regex boolean not null default false,
  position integer not null default 0,
  hits integer not null default 0,
  -- null: never hit (the legacy 1970-01-01).
  last_access timestamptz,
  group_id bigint not null references redirection_groups(id) on delete cascade,
  enabled boolean not null default true,
  action_type text not null,
  action_code integer not null default 0,
  -- The action data as output ({url} for url matches, the match's object for the others), or null.
  action_data jsonb,
  title text,
  match_type text not null default 'url'
);
create index redirection_items_match on redirection_items(match_url) where enabled;
create index redirection_items_group on redirection_items(group_id, position);

create table redirection_logs (
  id bigserial primary key,
  created timestamptz not null default now(),
  url text not null,
  domain text,
  sent_to text,
  agent text,
  referrer text,
  http_code integer not null default 0,
  request_method text,
  request_data jsonb,
  redirect_by text,
  redirection_id bigint not null default 0,
  ip text
);
create index redirection_logs_created on redirection_logs(created);

create table redirection_404 (
  id bigserial primary key,
  created timestamptz not null default now(),
  url text not null,
  domain text,
  agent text,
  referrer text,
  http_code integer not null default 404,
  request_method text,
  request_data jsonb,
  ip text
);
create index redirection_404_created on redirection_404(created);

-- The legacy install creates these two groups; the first is the default (`last_group_id`).
insert into redirection_groups (id, name, module_id, enabled, position) values
  (1, 'Redirections', 1, true, 0),
  (2, 'Modified Posts', 1, true, 1);
select setval('redirection_groups_id_seq', 2, true);

-- A fresh install's settings over the plugin defaults: case-insensitive, trailing-slash-tolerant
-- sources, the first group as the default, a random RSS token and the schema version. The same
-- values as `installedRedirectionSettings` (src/store/redirection/settings.ts), which a wipe restores.
insert into options (name, value) values ('redirection', jsonb_build_object(
  'token', md5(random()::text), 'flag_case', true, 'flag_trailing', true, 'last_group_id', 1, 'database', '4.2'))
on conflict (name) do nothing;
