-- The authorize-application page between login and approval: a short-lived, single-use session,
-- kept in the store so that any replica can finish what another began. Only hashes of the
-- session and CSRF tokens are stored; the tokens themselves travel in the form and a cookie.
create table auth_sessions (
  token_hash text primary key,
  user_id bigint not null references users(id) on delete cascade,
  csrf_hash text not null,
  -- the app_name/app_id/success_url/reject_url the user logged in for: approval must match them.
  request jsonb not null,
  expires_at timestamptz not null
);
create index auth_sessions_expires on auth_sessions(expires_at);
