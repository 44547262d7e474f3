-- Console sign-in sessions (docs/console.md): an API key exchanged for a random session token held in
-- an HttpOnly cookie. Only the token's SHA-256 hash is stored; the session acts as its key (same client,
-- same rate limit) and ends at expires_at, at sign-out, or when the key is revoked.
CREATE TABLE console_sessions (
  token_hash  text PRIMARY KEY,
  api_key_id  bigint NOT NULL REFERENCES api_keys(id),
  client_id   bigint NOT NULL REFERENCES clients(id),
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX console_sessions_expiry ON console_sessions (expires_at);
