-- Per-site secrets created on first use (blocks/v3 generate_hash key, forms-views token key).
-- They never leave the store through the API.
create table site_secrets (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);
