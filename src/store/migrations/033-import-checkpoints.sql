-- `lintel import`: per legacy source and resource, the last page whose records are written. The
-- checkpoint is saved in the same transaction as the page's records, so a resumed import starts
-- exactly after what is already in the store.
create table import_checkpoints (
  source text not null,
  resource text not null,
  last_page integer not null,
  -- the whole resource is imported; a re-run starts it again from the first page
  done boolean not null default false,
  updated_at timestamptz not null default now(),
  primary key (source, resource)
);
