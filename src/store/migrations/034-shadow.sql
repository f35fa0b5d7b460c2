-- Shadow mode: per route, how many reads were compared and how many matched, and each mismatch
-- with its request, both answers and the first differing JSON paths (see src/backends/shadow.ts).
create table shadow_routes (
  namespace text not null,
  -- method and route with numbers generalised (GET /history/v1/events/{n})
  route text not null,
  compared bigint not null default 0,
  matched bigint not null default 0,
  last_at timestamptz not null,
  primary key (namespace, route)
);

create table shadow_mismatches (
  id bigserial primary key,
  at timestamptz not null,
  namespace text not null,
  route text not null,
  method text not null,
  url text not null,
  -- which side answered the client: legacy or lintel
  primary_side text not null,
  primary_answer jsonb not null,
  shadow_answer jsonb not null,
  -- [{path, expected, actual}], expected being the primary's value
  differences jsonb not null
);
create index shadow_mismatches_route on shadow_mismatches(namespace, route, at);
