-- The audit log (history/v1). One row per event, its context as a JSON object of strings, as the
-- legacy plugin keeps it in its contexts table. Events imported from the legacy site keep their IDs.
--
-- Grouping of consecutive occasions is kept at write time so the list never scans the log:
-- `run_start` is the ID of the oldest row of the run the row belongs to, `is_head` marks the newest
-- row of each run (the one the grouped list shows) and `run_size` on the head is the run's length.
create table history_events (
  id bigserial primary key,
  date timestamp(0) not null,
  logger text not null,
  level text not null,
  message text not null,
  message_key text,
  occasions_id text not null,
  initiator text not null,
  user_id bigint,
  context jsonb not null default '{}',
  run_start bigint not null default 0,
  run_size integer not null default 1,
  is_head boolean not null default true
);
create index history_events_order on history_events (date desc, id desc);
create index history_events_heads on history_events (date desc, id desc) where is_head;
create index history_events_logger on history_events (logger, message_key);
create index history_events_logger_heads on history_events (logger, date desc, id desc) where is_head;
create index history_events_user on history_events (user_id) where user_id is not null;
create index history_events_occasions on history_events (occasions_id, id desc);
create index history_events_sticky on history_events (id) where context ? '_sticky';

-- Event counts per UTC hour, logger and message key (`n`: events, `heads`: the newest events of their
-- runs, which the grouped list shows), and the total, kept by statement triggers: list totals and the
-- stats routes read these (a few rows per hour of history) instead of the log, so they cost the same
-- at 10k or 1M events. Rows of a partial hour at either end of a range are counted from the log itself.
-- (Statements inside the function bodies end mid-line: the migration runner splits on `;` at line ends.)
create table history_hourly (
  hour timestamp(0) not null,
  logger text not null,
  message_key text not null default '',
  n bigint not null,
  heads bigint not null,
  primary key (hour, logger, message_key)
);

-- The same counts over all time, per logger and message key: the unbounded list total (the default
-- list) and the stats' total since install read a handful of rows.
create table history_kinds (
  logger text not null,
  message_key text not null default '',
  n bigint not null,
  heads bigint not null,
  primary key (logger, message_key)
);

create function history_hourly_add() returns trigger language plpgsql as $f$ begin
  insert into history_hourly (hour, logger, message_key, n, heads)
    select date_trunc('hour', date), logger, coalesce(message_key, ''), count(*), count(*) filter (where is_head) from inserted group by 1, 2, 3
    on conflict (hour, logger, message_key) do update set n = history_hourly.n + excluded.n, heads = history_hourly.heads + excluded.heads; insert into history_kinds (logger, message_key, n, heads)
    select logger, coalesce(message_key, ''), count(*), count(*) filter (where is_head) from inserted group by 1, 2
    on conflict (logger, message_key) do update set n = history_kinds.n + excluded.n, heads = history_kinds.heads + excluded.heads; return null; end $f$;

create function history_hourly_remove() returns trigger language plpgsql as $f$ begin
  update history_hourly h set n = h.n - d.n, heads = h.heads - d.heads
    from (select date_trunc('hour', date) as hour, logger, coalesce(message_key, '') as message_key, count(*) as n, count(*) filter (where is_head) as heads from deleted group by 1, 2, 3) d where h.hour = d.hour and h.logger = d.logger and h.message_key = d.message_key; delete from history_hourly where n <= 0; update history_kinds k set n = k.n - d.n, heads = k.heads - d.heads
    from (select logger, coalesce(message_key, '') as message_key, count(*) as n, count(*) filter (where is_head) as heads from deleted group by 1, 2) d where k.logger = d.logger and k.message_key = d.message_key; return null; end $f$;

create trigger history_events_hourly_add after insert on history_events
  referencing new table as inserted for each statement execute function history_hourly_add();
create trigger history_events_hourly_remove after delete on history_events
  referencing old table as deleted for each statement execute function history_hourly_remove();
