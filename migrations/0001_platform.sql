-- Clients own every record; each API key belongs to one client. Keys are stored only as a SHA-256 hash
-- (they are 256-bit random, so a slow password hash buys nothing); the prefix is kept for display.
CREATE TABLE clients (
  id          bigserial PRIMARY KEY,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id          bigserial PRIMARY KEY,
  client_id   bigint NOT NULL REFERENCES clients(id),
  key_prefix  text NOT NULL,
  key_hash    text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz
);

-- Fixed one-minute windows per key, shared by every API process that uses the database.
CREATE TABLE rate_limit_windows (
  api_key_id    bigint NOT NULL REFERENCES api_keys(id),
  window_start  timestamptz NOT NULL,
  count         integer NOT NULL,
  PRIMARY KEY (api_key_id, window_start)
);

-- The durable job queue (see src/platform/jobs). A job is claimed by setting locked_by/locked_until;
-- a worker that dies simply lets its lease run out and another worker claims the job again.
CREATE TABLE jobs (
  id             bigserial PRIMARY KEY,
  kind           text NOT NULL,
  payload        jsonb NOT NULL DEFAULT '{}'::jsonb,
  status         text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  attempts       integer NOT NULL DEFAULT 0,
  max_attempts   integer NOT NULL DEFAULT 5,
  run_at         timestamptz NOT NULL,
  locked_by      text,
  locked_until   timestamptz,
  singleton_key  text,
  last_error     text,
  created_at     timestamptz NOT NULL,
  finished_at    timestamptz
);
CREATE INDEX jobs_ready ON jobs (run_at, id) WHERE status IN ('queued', 'running');
-- At most one unfinished job per singleton key (periodic jobs, one build per segment, ...).
CREATE UNIQUE INDEX jobs_singleton ON jobs (singleton_key) WHERE singleton_key IS NOT NULL AND status IN ('queued', 'running');

-- Campaign registration group (spec 2.5).
CREATE TABLE snowball_campaigns (
  id                 bigserial PRIMARY KEY,
  client_id          bigint NOT NULL REFERENCES clients(id),
  description        text NOT NULL,
  deleted            boolean NOT NULL DEFAULT false,
  created_date       timestamptz NOT NULL,
  last_updated_date  timestamptz NOT NULL
);
CREATE INDEX snowball_campaigns_client ON snowball_campaigns (client_id, id);

-- Idempotency-Key replay store for creating POSTs: the first response is kept and replayed.
CREATE TABLE idempotency_keys (
  client_id     bigint NOT NULL REFERENCES clients(id),
  route         text NOT NULL,
  key           text NOT NULL,
  request_hash  text NOT NULL,
  status_code   integer NOT NULL,
  response      jsonb NOT NULL,
  created_at    timestamptz NOT NULL,
  PRIMARY KEY (client_id, route, key)
);
