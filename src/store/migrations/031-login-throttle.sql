-- Failed-login counters shared by every replica on one PostgreSQL database (see src/auth/rate-limit.ts).
-- key: a hash of the (client, login) pair or of the client alone; a row counts the failures of one
-- fixed window, which ends at window_end (the key is refused while failures reach the limit before it).
create table login_throttle (
  key text primary key,
  failures integer not null,
  window_end timestamptz not null
);

create index login_throttle_window_end on login_throttle (window_end);
