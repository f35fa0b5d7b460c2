-- Idempotency-Key on writes: the first answer to a user's key, saved in the transaction of the write it
-- answers, so a retry (after a lost answer or a 503 from an outage after the commit) gets it again and
-- writes nothing. Kept 24 hours; `request` fingerprints the method, route, query and body, so the key
-- cannot be reused for another request.
create table idempotency_keys (
  user_id bigint not null,
  key text not null,
  request text not null,
  status int not null,
  headers jsonb not null,
  body text,
  created_at timestamptz not null default now(),
  primary key (user_id, key)
);
create index idempotency_keys_created on idempotency_keys (created_at);
