-- RFC 9421 request signing at /mcp (docs/adcp.md "Request signing").
-- The public keys (JWK) a client's agent signs with, registered by the operator
-- (`curata keys signing-add`); a keyid is global (a signed request names no other identity) and
-- acts for the API key it is bound to. revoked_at: the key is on the revocation list (its
-- signatures are request_signature_key_revoked). replay_cap: how many nonces the key may record
-- within 60 seconds before its requests are request_signature_rate_abuse.
CREATE TABLE adcp_signing_keys (
  kid          text PRIMARY KEY,
  api_key_id   bigint NOT NULL REFERENCES api_keys(id),
  client_id    bigint NOT NULL REFERENCES clients(id),
  jwk          jsonb NOT NULL,
  replay_cap   integer NOT NULL CHECK (replay_cap > 0),
  revoked_at   timestamptz,
  created_at   timestamptz NOT NULL
);

-- The replay cache: a (keyid, nonce) seen in an accepted signature, kept until the signature could
-- no longer be accepted (its expires plus the 60-second skew), then pruned.
CREATE TABLE adcp_signature_nonces (
  kid          text NOT NULL,
  nonce        text NOT NULL,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  PRIMARY KEY (kid, nonce)
);
CREATE INDEX adcp_signature_nonces_recent ON adcp_signature_nonces (kid, created_at);
CREATE INDEX adcp_signature_nonces_expiry ON adcp_signature_nonces (expires_at);
