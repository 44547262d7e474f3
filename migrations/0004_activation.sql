-- Deal activation (spec 2.2, 3, 4.2; docs/activation.md). One activation issues one Deal ID.
CREATE TABLE activations (
  id                     bigserial PRIMARY KEY,
  client_id              bigint NOT NULL REFERENCES clients(id),
  segment_ids            bigint[] NOT NULL,
  dsp                    text NOT NULL,
  buyer_seat             text NOT NULL,
  connector              text NOT NULL,
  status                 text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processing', 'complete', 'failed')),
  deal_id                text UNIQUE,
  ttl_hours              integer,
  start_date             date,
  end_date               date,
  geo                    text[],
  formats                text[],
  devices                text[],
  kpis                   jsonb,
  budget                 jsonb,
  created_date           timestamptz NOT NULL,
  processed_date         timestamptz,
  -- When the SSP said the deal will be targetable (its sync latency), and why processing failed.
  ready_at               timestamptz,
  failure_reason         text,
  -- The deal after issuance: live, ended (end_date passed) or shut_down (unused too long).
  deal_state             text CHECK (deal_state IN ('live', 'ended', 'shut_down')),
  deal_state_reason      text,
  deal_state_changed_at  timestamptz,
  last_used_at           timestamptz,
  -- What the deal targets after KPI shaping: URL/domain counts and exclusions.
  targeting              jsonb
);
CREATE INDEX activations_client ON activations (client_id, id);
CREATE INDEX activations_segments ON activations USING gin (segment_ids);
CREATE INDEX activations_live ON activations (deal_state) WHERE deal_state = 'live';

-- A client's known connection to a DSP seat through a connector: the first deal on a new connection
-- takes longer to go live than later ones (spec 4.2: up to 2 days vs a few hours).
CREATE TABLE ssp_connections (
  client_id      bigint NOT NULL REFERENCES clients(id),
  connector      text NOT NULL,
  dsp            text NOT NULL,
  buyer_seat     text NOT NULL,
  first_deal_at  timestamptz NOT NULL,
  PRIMARY KEY (client_id, connector, dsp, buyer_seat)
);

-- The sandbox SSP's own book of deals (what a real SSP would hold on its side).
CREATE TABLE sandbox_deals (
  deal_id       text PRIMARY KEY,
  dsp           text NOT NULL,
  buyer_seat    text NOT NULL,
  status        text NOT NULL CHECK (status IN ('active', 'inactive')),
  targeting     jsonb NOT NULL,
  update_count  integer NOT NULL DEFAULT 0,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL
);

-- Impressions that carried a deal id, per day: "in use" for the deal lifecycle. Written by the pixel
-- feature (and recordDealUse in src/activation/deal-usage.ts).
CREATE TABLE deal_usage (
  deal_id      text NOT NULL,
  day          date NOT NULL,
  impressions  bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (deal_id, day)
);

-- Delivery per serving domain, filled by the pixel feature; read by KPI shaping.
CREATE TABLE domain_delivery_stats (
  domain                text PRIMARY KEY,
  impressions           bigint NOT NULL DEFAULT 0,
  clicks                bigint NOT NULL DEFAULT 0,
  measured_impressions  bigint NOT NULL DEFAULT 0,
  viewable_impressions  bigint NOT NULL DEFAULT 0,
  video_starts          bigint NOT NULL DEFAULT 0,
  video_completions     bigint NOT NULL DEFAULT 0,
  updated_at            timestamptz NOT NULL
);

-- How far the propagation job has read segment_changes.
CREATE TABLE activation_change_cursor (
  id              integer PRIMARY KEY CHECK (id = 1),
  last_change_id  bigint NOT NULL
);
INSERT INTO activation_change_cursor (id, last_change_id) VALUES (1, 0);
