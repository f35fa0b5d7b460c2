-- Download packages (downloads): password locks with per-password usage counts, and the
-- expiring download keys that validate-captcha and validate-password hand out.
create table download_packages (
  id bigserial primary key,
  slug text not null unique,
  title text not null,
  content text not null default '',
  base_price numeric not null default 0,
  password_lock boolean not null default false,
  passwords text[] not null default '{}',
  -- 0: no limit; otherwise how many times each password may be used.
  password_usage_limit integer not null default 0,
  -- password -> times used
  password_usage jsonb not null default '{}',
  file_name text not null,
  file_type text not null default 'application/octet-stream',
  file_data bytea not null
);

create table download_keys (
  key text primary key,
  package_id bigint not null references download_packages(id) on delete cascade,
  expires_at timestamptz not null,
  uses_left integer not null
);
create index download_keys_expiry on download_keys(expires_at);
