-- Application passwords of the legacy site, adopted the first time a client uses one (src/auth/legacy-credentials.ts).
-- legacy_checked_at: when the legacy origin last accepted it (null: a password Lintel created itself).
-- revoked_at: revoked on Lintel's side; kept so that the origin is not asked about it again.
alter table application_passwords add column legacy_checked_at timestamptz;
alter table application_passwords add column revoked_at timestamptz;
