-- Site options (the legacy wp_options the contract shows: name, description, timezone, ...).
create table options (
  name text primary key,
  value jsonb not null
);

-- Records imported from the legacy site keep their IDs. As on the legacy site, events, venues
-- and organizers share one ID space (posts) and categories and tags another (terms); each
-- table takes its default ID from the shared sequence, and an import moves the sequence past
-- the largest imported ID (see store/ids.ts).
create sequence post_id_seq;
create sequence term_id_seq;

create table users (
  id bigserial primary key,
  login text not null unique,
  email text not null unique,
  display_name text not null,
  role text not null check (role in ('administrator', 'editor', 'author', 'contributor', 'subscriber')),
  -- scrypt hash of the login password (the authorize-application page); null: no interactive login.
  password_hash text,
  created_at timestamptz not null default now()
);

create table application_passwords (
  uuid uuid primary key,
  user_id bigint not null references users(id) on delete cascade,
  app_id text not null default '',
  name text not null,
  -- keyed hash of the 24-character secret; the secret itself is never stored.
  hash text not null,
  created_at timestamptz not null default now(),
  last_used timestamptz,
  last_ip text
);
create index application_passwords_user on application_passwords(user_id);
create unique index application_passwords_name on application_passwords(user_id, lower(name));
