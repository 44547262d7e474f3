-- The AdCP signals agent over MCP (docs/adcp.md). Every row belongs to a client and every query
-- filters by client_id.

-- Conversations (context_id): what get_signals was asked, so a follow-up call can refer to it.
CREATE TABLE adcp_contexts (
  id          text PRIMARY KEY,
  client_id   bigint NOT NULL REFERENCES clients(id),
  -- {signal_spec, destinations, countries} as normalized by the agent
  request     jsonb NOT NULL,
  -- the signal_agent_segment_ids the last get_signals of the context returned
  signal_ids  text[] NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
CREATE INDEX adcp_contexts_client ON adcp_contexts (client_id, updated_at);

-- Signals the agent made for a client: custom proposals (the spec and category they were proposed
-- for) and the client-owned segment behind a marketplace or custom signal once it was activated.
CREATE TABLE adcp_signals (
  client_id    bigint NOT NULL REFERENCES clients(id),
  -- the signal_agent_segment_id: iab:…, seasonal:…, custom:…
  signal_id    text NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('marketplace', 'custom')),
  name         text NOT NULL,
  description  text NOT NULL,
  spec         text,
  taxonomy_id  integer,
  segment_id   bigint REFERENCES segment_requests(id),
  created_at   timestamptz NOT NULL,
  PRIMARY KEY (client_id, signal_id)
);
CREATE INDEX adcp_signals_segment ON adcp_signals (client_id, segment_id) WHERE segment_id IS NOT NULL;

-- activate_signal calls: the request (for idempotent replays) and, per destination, the activation
-- made for it. `pending` while a custom signal's segment is still being built: its activations are
-- created when the build completes (the adcp.settle job).
CREATE TABLE adcp_activations (
  id               bigserial PRIMARY KEY,
  client_id        bigint NOT NULL REFERENCES clients(id),
  idempotency_key  text,
  request_hash     text NOT NULL,
  signal_id        text NOT NULL,
  segment_id       bigint NOT NULL REFERENCES segment_requests(id),
  context_id       text,
  -- [{type, platform, dsp, agent_url, account, activation_id}]
  destinations     jsonb NOT NULL,
  geo              text[],
  pending          boolean NOT NULL DEFAULT false,
  -- a process settling the pending activation holds it until then
  settling_until   timestamptz,
  created_at       timestamptz NOT NULL
);
CREATE UNIQUE INDEX adcp_activations_idempotency ON adcp_activations (client_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX adcp_activations_signal ON adcp_activations (client_id, signal_id);
CREATE INDEX adcp_activations_pending ON adcp_activations (segment_id) WHERE pending;
