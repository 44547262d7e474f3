-- Webhooks (docs/webhooks.md): subscriptions and the delivery outbox.
-- A delivery row is written in the transaction of the state change it reports, so an event exists
-- exactly when the change committed; a queue job (webhooks.deliver) sends it, retrying with backoff.

CREATE TABLE webhook_subscriptions (
  id            bigserial PRIMARY KEY,
  client_id     bigint NOT NULL,
  url           text NOT NULL,
  event_types   text[] NOT NULL,
  description   text,
  -- The signing secret (whsec_…), AES-256-GCM encrypted under the webhook key (WEBHOOK_SECRET_KEY or
  -- the generated one below): it has to be recoverable to sign, and never sits in the clear.
  secret_enc    text NOT NULL,
  status        text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'failing')),
  failing_since timestamptz,
  created_date  timestamptz NOT NULL,
  deleted_at    timestamptz
);
CREATE INDEX webhook_subscriptions_client ON webhook_subscriptions (client_id) WHERE deleted_at IS NULL;

CREATE TABLE webhook_deliveries (
  id               bigserial PRIMARY KEY,
  client_id        bigint NOT NULL,
  -- Null for a delivery with its own target (an AdCP push_notification_config): url and credentials here.
  subscription_id  bigint REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
  url              text NOT NULL,
  credentials_enc  text,
  -- The webhook-id header: the same on every attempt and redelivery, so receivers can deduplicate.
  message_id       text NOT NULL UNIQUE,
  event_type       text NOT NULL,
  -- The exact body sent (the signature covers these bytes): the same on every attempt.
  payload          text NOT NULL,
  idempotency_key  text,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz,
  last_attempt_at  timestamptz,
  last_status      integer,
  last_error       text,
  delivered_at     timestamptz,
  created_date     timestamptz NOT NULL
);
CREATE INDEX webhook_deliveries_subscription ON webhook_deliveries (subscription_id, id);
CREATE UNIQUE INDEX webhook_deliveries_idempotency ON webhook_deliveries (client_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

-- The key encrypting signing secrets when WEBHOOK_SECRET_KEY is not set: generated once.
CREATE TABLE webhook_key (
  id          integer PRIMARY KEY CHECK (id = 1),
  key         text NOT NULL,
  created_at  timestamptz NOT NULL
);
