-- AdCP async tasks and test-controller directives (docs/adcp.md "Tasks", "Deterministic testing").
-- A task belongs to a client and to the account the caller named (account_key: brand domain and
-- operator, or account_id; '' for none): get_task_status and list_tasks see only that pair's tasks.
CREATE TABLE adcp_tasks (
  client_id          bigint NOT NULL REFERENCES clients(id),
  account_key        text NOT NULL,
  task_id            text NOT NULL,
  task_type          text NOT NULL,
  status             text NOT NULL CHECK (status IN ('submitted', 'working', 'input-required', 'completed', 'failed', 'canceled')),
  message            text,
  -- the request as received, and the terminal result (a get_signals response body)
  request            jsonb NOT NULL,
  result             jsonb,
  error              jsonb,
  -- push_notification_config: url, operation_id, and its token and authentication (the caller's
  -- secrets, encrypted with the webhook cipher: {token, scheme, credentials})
  webhook_url        text,
  webhook_operation  text,
  webhook_auth_enc   text,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL,
  completed_at       timestamptz,
  PRIMARY KEY (client_id, account_key, task_id)
);
CREATE INDEX adcp_tasks_recent ON adcp_tasks (client_id, account_key, created_at DESC);

-- One-shot directives of comply_test_controller (sandbox accounts only), consumed by the next
-- matching call from a sandbox account of the same client (account_key 'sandbox'): force_get_signals_arm.
CREATE TABLE adcp_directives (
  client_id    bigint NOT NULL REFERENCES clients(id),
  account_key  text NOT NULL,
  scenario     text NOT NULL,
  params       jsonb NOT NULL,
  created_at   timestamptz NOT NULL,
  PRIMARY KEY (client_id, account_key, scenario)
);

-- OAuth 2.0 access tokens of the client-credentials grant (POST /oauth/token, the API key as the
-- client secret): what an agent may present as `Authorization: Bearer` at /mcp instead of the key.
-- Stored as SHA-256 hashes; a token dies with its key (revocation) or at expires_at.
CREATE TABLE adcp_access_tokens (
  token_hash  text PRIMARY KEY,
  api_key_id  bigint NOT NULL REFERENCES api_keys(id),
  client_id   bigint NOT NULL REFERENCES clients(id),
  expires_at  timestamptz NOT NULL,
  created_at  timestamptz NOT NULL
);
CREATE INDEX adcp_access_tokens_expiry ON adcp_access_tokens (expires_at);
