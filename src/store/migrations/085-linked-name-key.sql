-- A venue or organizer create first looks for a record of the same name in MySQL's collation
-- (Tribe__Duplicate__Post, CalendarRepo.findDuplicates). Without an index on the key every create
-- computed it for every record (43-85 ms per 10,000 venues on PostgreSQL; 0.6 ms with it). Not a
-- partial index: the planner takes its statistics only from whole ones, and without them it walks
-- the primary key instead.
create index calendar_venues_name_key on calendar_venues (mysql_ci_key(name));
create index calendar_organizers_name_key on calendar_organizers (mysql_ci_key(name));
