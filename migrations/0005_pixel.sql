-- Pixel: campaigns (spec 2.4), raw events from the collector and from server logs, the daily
-- rollups reports read, and publisher reports (spec 2.6). See docs/pixel.md.

CREATE TABLE pixel_campaigns (
  id                 bigserial PRIMARY KEY,
  client_id          bigint NOT NULL REFERENCES clients(id),
  name               text NOT NULL,
  use_case           text NOT NULL CHECK (use_case IN ('campaign_optimization', 'campaign_reporting', 'publisher_bot_detection', 'publisher_agent_targeting', 'other')),
  description        text,
  created_date       timestamptz NOT NULL,
  last_updated_date  timestamptz NOT NULL
);
CREATE INDEX pixel_campaigns_client ON pixel_campaigns (client_id, id);

-- One row per pixel load, beacon or ingested log line, classified at ingest. The client's address is
-- never stored: only its /24 (IPv4) or /48 (IPv6) prefix. Rows of an unknown campaign have no
-- client_id and keep what was sent in campaign_ref. `flags` labels the event: unexpanded:<param>,
-- audit:<param>, bad:<param>, risk:<reason>, verified / unverified (published crawler ranges),
-- ai_referral:<source>. Deleted after PIXEL_RAW_RETENTION_DAYS; reports read the rollups below,
-- never this table. It takes every collector batch, so it has no foreign keys and one index: a
-- BRIN on received_at (tiny, nearly free to maintain on an append-mostly table) serving retention
-- and log de-duplication (a time window, then prefix, user agent and path).
CREATE TABLE pixel_events (
  received_at         timestamptz NOT NULL,
  client_id           bigint,
  campaign_id         bigint,
  campaign_ref        text,
  source              text NOT NULL CHECK (source IN ('pixel', 'beacon', 'log')),
  invalid_reason      text,
  flags               text[] NOT NULL DEFAULT '{}',
  domain              text,
  page_url            text,
  url_path            text NOT NULL,
  referrer_host       text,
  user_agent          text,
  sec_ch_ua           text,
  sec_ch_ua_mobile    text,
  sec_ch_ua_platform  text,
  accept_language     text,
  macros              jsonb,
  agent               text,
  agent_type          text NOT NULL,
  high_risk           boolean NOT NULL,
  ip_prefix           text
);
CREATE INDEX pixel_events_received ON pixel_events USING brin (received_at);

-- Rollups: valid loads per campaign and UTC day at three grains (src/pixel/rollups.ts), upserted
-- in the transaction that inserts each batch. Reports read these, never the raw events. agent is ''
-- for humans. high_risk_loads > 0 marks a high-risk agent on that day (distinct high-risk agents).
CREATE TABLE pixel_rollup_agents (
  client_id        bigint NOT NULL,
  campaign_id      bigint NOT NULL REFERENCES pixel_campaigns(id),
  day              date NOT NULL,
  agent_type       text NOT NULL,
  agent            text NOT NULL,
  loads            bigint NOT NULL,
  high_risk_loads  bigint NOT NULL,
  PRIMARY KEY (campaign_id, day, agent_type, agent)
);

CREATE TABLE pixel_rollup_paths (
  client_id    bigint NOT NULL,
  campaign_id  bigint NOT NULL REFERENCES pixel_campaigns(id),
  day          date NOT NULL,
  url_path     text NOT NULL,
  loads        bigint NOT NULL,
  bot_loads    bigint NOT NULL,
  PRIMARY KEY (campaign_id, day, url_path)
);

CREATE TABLE pixel_rollup_daily (
  client_id        bigint NOT NULL,
  campaign_id      bigint NOT NULL REFERENCES pixel_campaigns(id),
  day              date NOT NULL,
  agent_type       text NOT NULL,
  agent            text NOT NULL,
  url_path         text NOT NULL,
  loads            bigint NOT NULL,
  high_risk_loads  bigint NOT NULL,
  PRIMARY KEY (campaign_id, day, agent_type, agent, url_path)
);
-- The dominant agent of a hot spot: one URL path across the report's days.
CREATE INDEX pixel_rollup_daily_path ON pixel_rollup_daily (campaign_id, url_path, day);

-- Human loads that arrived from an AI assistant (Referer or utm_source), per source and URL path.
CREATE TABLE pixel_rollup_referrals (
  client_id    bigint NOT NULL,
  campaign_id  bigint NOT NULL REFERENCES pixel_campaigns(id),
  day          date NOT NULL,
  source       text NOT NULL,
  url_path     text NOT NULL,
  loads        bigint NOT NULL,
  PRIMARY KEY (campaign_id, day, source, url_path)
);

CREATE TABLE pixel_publisher_reports (
  id                  bigserial PRIMARY KEY,
  client_id           bigint NOT NULL REFERENCES clients(id),
  campaign_id         bigint NOT NULL REFERENCES pixel_campaigns(id),
  status              text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processing', 'complete', 'failed')),
  start_date          date NOT NULL,
  end_date            date NOT NULL,
  dimensions          jsonb NOT NULL DEFAULT '[]'::jsonb,
  hot_spot_min_loads  integer NOT NULL,
  result              jsonb,
  failure_reason      text,
  created_date        timestamptz NOT NULL,
  processed_date      timestamptz
);
CREATE INDEX pixel_publisher_reports_client ON pixel_publisher_reports (client_id, id);
