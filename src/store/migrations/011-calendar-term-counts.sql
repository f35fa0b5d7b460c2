-- A term's count of published events is kept on the term, as the legacy site keeps it, so reading a
-- term (in every event of an archive) costs the same whatever the number of events. Triggers keep it
-- right for every write path: links added or removed, and events entering or leaving `publish`.
alter table calendar_terms add column published_count int8 not null default 0;

update calendar_terms t set published_count = (select count(*) from calendar_event_terms et join calendar_events e on e.id = et.event_id where et.term_id = t.id and e.status = 'publish');

create function calendar_term_link_count() returns trigger language plpgsql as $f$ begin if tg_op = 'INSERT' then update calendar_terms set published_count = published_count + 1 where id = new.term_id and exists (select 1 from calendar_events e where e.id = new.event_id and e.status = 'publish'); return new; end if; update calendar_terms set published_count = published_count - 1 where id = old.term_id and exists (select 1 from calendar_events e where e.id = old.event_id and e.status = 'publish'); return old; end $f$;

create trigger calendar_event_terms_count after insert or delete on calendar_event_terms for each row execute function calendar_term_link_count();

create function calendar_term_status_count() returns trigger language plpgsql as $f$ begin if (old.status = 'publish') is distinct from (new.status = 'publish') then update calendar_terms set published_count = published_count + case when new.status = 'publish' then 1 else -1 end where id in (select term_id from calendar_event_terms where event_id = new.id); end if; return new; end $f$;

create trigger calendar_events_term_count after update of status on calendar_events for each row execute function calendar_term_status_count();

-- A published event deleted outright takes its links with it: count them down before they go.
create function calendar_term_event_delete() returns trigger language plpgsql as $f$ begin if old.status = 'publish' then update calendar_terms set published_count = published_count - 1 where id in (select term_id from calendar_event_terms where event_id = old.id); end if; return old; end $f$;

create trigger calendar_events_term_delete before delete on calendar_events for each row execute function calendar_term_event_delete();
