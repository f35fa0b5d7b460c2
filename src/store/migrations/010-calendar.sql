-- The calendar: events, venues and organizers share the post ID space, categories and tags the
-- term ID space. The legacy site's first free IDs were post 4 and term 2 (1-3 were WordPress's own
-- posts, 1 the default category), so a fresh store hands out the same IDs as the legacy seed did.
select setval('post_id_seq', 3, true);
select setval('term_id_seq', 1, true);

create table calendar_venues (
  id bigint primary key default nextval('post_id_seq'),
  author bigint not null default 0,
  status text not null default 'publish',
  slug text not null,
  name text not null,
  description text not null default '',
  excerpt text not null default '',
  address text not null default '',
  city text not null default '',
  country text not null default '',
  province text not null default '',
  state text not null default '',
  zip text not null default '',
  phone text not null default '',
  website text not null default '',
  stateprovince text not null default '',
  image text not null default '',
  show_map boolean not null default true,
  show_map_link boolean not null default true,
  latitude double precision,
  longitude double precision,
  created timestamptz not null,
  modified timestamptz not null
);
create unique index calendar_venues_slug on calendar_venues(slug);

create table calendar_organizers (
  id bigint primary key default nextval('post_id_seq'),
  author bigint not null default 0,
  status text not null default 'publish',
  slug text not null,
  name text not null,
  description text not null default '',
  excerpt text not null default '',
  phone text not null default '',
  website text not null default '',
  email text not null default '',
  image text not null default '',
  created timestamptz not null,
  modified timestamptz not null
);
create unique index calendar_organizers_slug on calendar_organizers(slug);

create table calendar_events (
  id bigint primary key default nextval('post_id_seq'),
  author bigint not null default 0,
  status text not null default 'publish',
  password text not null default '',
  slug text not null,
  title text not null,
  description text not null default '',
  excerpt text not null default '',
  -- wall-clock times in the event's time zone, and their UTC copies
  start_date timestamp not null,
  end_date timestamp not null,
  utc_start_date timestamp not null,
  utc_end_date timestamp not null,
  timezone text not null,
  all_day boolean not null default false,
  cost text not null default '',
  currency_symbol text not null default '',
  currency_code text not null default '',
  currency_position text not null default '',
  -- null: never set, the permalink stands in
  website text,
  image text not null default '',
  show_map boolean not null default false,
  show_map_link boolean not null default false,
  hide_from_listings boolean not null default false,
  sticky boolean not null default false,
  featured boolean not null default false,
  post_parent bigint not null default 0,
  created timestamptz not null,
  modified timestamptz not null
);
create unique index calendar_events_slug on calendar_events(slug);
create index calendar_events_start on calendar_events(start_date, id);
create index calendar_events_end on calendar_events(end_date);
create index calendar_events_status on calendar_events(status);

create table calendar_terms (
  id bigint primary key default nextval('term_id_seq'),
  taxonomy text not null check (taxonomy in ('category', 'tag')),
  name text not null,
  slug text not null,
  description text not null default '',
  parent bigint not null default 0
);
create unique index calendar_terms_slug on calendar_terms(taxonomy, slug);

create table calendar_event_terms (
  event_id bigint not null references calendar_events(id) on delete cascade,
  term_id bigint not null references calendar_terms(id) on delete cascade,
  primary key (event_id, term_id)
);
create index calendar_event_terms_term on calendar_event_terms(term_id);

create table calendar_event_venues (
  event_id bigint not null references calendar_events(id) on delete cascade,
  venue_id bigint not null references calendar_venues(id) on delete cascade,
  position int not null,
  primary key (event_id, venue_id)
);
create index calendar_event_venues_venue on calendar_event_venues(venue_id);

create table calendar_event_organizers (
  event_id bigint not null references calendar_events(id) on delete cascade,
  organizer_id bigint not null references calendar_organizers(id) on delete cascade,
  position int not null,
  primary key (event_id, organizer_id)
);
create index calendar_event_organizers_organizer on calendar_event_organizers(organizer_id);
