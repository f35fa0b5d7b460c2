-- The change feed: every committed write to a watched table notifies channel `lintel_changes` with
-- the table's topic (calendar, redirection, options, users: users and application passwords). Statement-level triggers, and Postgres
-- sends a transaction's notifications only at its commit, once per topic: a rolled-back write
-- notifies nobody. Every replica listens and drops what it cached from that topic.
create function lintel_notify_change() returns trigger language plpgsql as $f$ begin perform pg_notify('lintel_changes', tg_argv[0]); return null; end $f$;

-- A later migration watches its own tables with `select lintel_watch('table', 'topic')`.
create function lintel_watch(tbl regclass, topic text) returns void language plpgsql as $f$ begin execute format('create trigger lintel_change_feed after insert or update or delete or truncate on %s for each statement execute function lintel_notify_change(%L)', tbl, topic); end $f$;

select lintel_watch(c.oid::regclass, split_part(c.relname, '_', 1)) from pg_class c where c.relkind = 'r' and c.relnamespace = current_schema()::regnamespace and (c.relname like 'calendar\_%' or c.relname like 'redirection\_%');

select lintel_watch('options', 'options');

select lintel_watch('users', 'users');

select lintel_watch('application_passwords', 'users');
