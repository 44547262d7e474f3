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
  -- push_notification_config.url / operation_id (the token is not kept: it is the caller's secret)
  webhook_url        text,
  webhook_operation  text,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL,
  completed_at       timestamptz,
  PRIMARY KEY (client_id, account_key, task_id)
);
CREATE INDEX adcp_tasks_recent ON adcp_tasks (client_id, account_key, created_at DESC);

-- One-shot directives of comply_test_controller (sandbox accounts only), consumed by the next
-- matching call of the same client and account: force_get_signals_arm.
CREATE TABLE adcp_directives (
  client_id    bigint NOT NULL REFERENCES clients(id),
  account_key  text NOT NULL,
  scenario     text NOT NULL,
  params       jsonb NOT NULL,
  created_at   timestamptz NOT NULL,
  PRIMARY KEY (client_id, account_key, scenario)
);
