-- Namespace modes set at run time (`lintel mode`): they override mappings/namespaces.json, and every
-- replica switches when the change feed announces a write here (topic `modes`).
create table namespace_modes (
  namespace text primary key,
  mode text not null check (mode in ('translate', 'forward', 'shadow')),
  -- shadow: which side answers the client (null: the mapping's, else legacy).
  primary_side text check (primary_side in ('legacy', 'lintel')),
  updated_at timestamptz not null default now()
);
select lintel_watch('namespace_modes', 'modes');
