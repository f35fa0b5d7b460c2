-- Shadow comparisons per route and hour, for the match rate over time (/lintel/migration).
-- auth_mismatches: mismatches where one side refused the credentials (401/403), counted apart from data differences.
create table shadow_hourly (
  namespace text not null,
  route text not null,
  hour timestamptz not null,
  compared bigint not null default 0,
  matched bigint not null default 0,
  auth_mismatches bigint not null default 0,
  primary key (namespace, route, hour)
);
