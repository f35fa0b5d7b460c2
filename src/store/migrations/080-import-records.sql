-- `lintel import` as a sync: which records of the store came from the legacy site, per resource, so a
-- record gone from the legacy site is removed here (and only an imported one: records created in
-- Lintel are never touched), and the time each resource was last synced from (incremental runs).
create table import_records (
  resource text not null,
  id bigint not null,
  primary key (resource, id)
);
alter table import_checkpoints add column synced_from timestamptz;
