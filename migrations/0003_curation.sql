-- Segment curation (spec 2.1, 2.3, 4.1, 4.3; docs/curation.md). Every client-owned row carries
-- client_id and every query filters by it.

-- A segment request and its build state. `status` is internal (the spec record reads readiness from
-- processed_date); the API shows it as an extra field.
CREATE TABLE segment_requests (
  id                   bigserial PRIMARY KEY,
  client_id            bigint NOT NULL REFERENCES clients(id),
  name                 text,
  prompt               text,
  taxonomy_id          integer,
  level1_name          text,
  level2_name          text,
  level3_name          text,
  -- true when taxonomy_id came from the request, false when the build derived it.
  taxonomy_given       boolean NOT NULL DEFAULT false,
  example_urls         text[] NOT NULL DEFAULT '{}',
  extra_hops_count     integer CHECK (extra_hops_count BETWEEN 0 AND 2),
  block_tlds           text[],
  block_keywords       text[],
  status               text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processing', 'complete')),
  url_count            integer,
  -- URLs per page language ({"en": 812, ...}): the catalog's coverage figures.
  language_counts      jsonb,
  deleted              boolean NOT NULL DEFAULT false,
  created_date         timestamptz NOT NULL,
  processed_date       timestamptz,
  processing_errors    jsonb,
  processing_warnings  jsonb,
  last_updated_date    timestamptz
);
CREATE INDEX segment_requests_client ON segment_requests (client_id, id);

-- The URLs of a built segment, best first. url/host/tld are copied from pages so listings and
-- removals by domain need no join.
CREATE TABLE segment_urls (
  segment_id   bigint NOT NULL REFERENCES segment_requests(id) ON DELETE CASCADE,
  client_id    bigint NOT NULL REFERENCES clients(id),
  page_id      bigint NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  rank         integer NOT NULL,
  score        real NOT NULL,
  url          text NOT NULL,
  host         text NOT NULL,
  tld          text NOT NULL,
  -- the page's own most specific category (result_taxonomy_leaf_id)
  taxonomy_id  integer,
  language     text,
  source       text NOT NULL CHECK (source IN ('prompt', 'example', 'hop', 'expand')),
  PRIMARY KEY (segment_id, page_id)
);
CREATE INDEX segment_urls_rank ON segment_urls (segment_id, rank, page_id);
CREATE INDEX segment_urls_client_tld ON segment_urls (client_id, tld);

-- Why a candidate URL was left out of a segment (quality filters and blocks), one reason per URL.
CREATE TABLE segment_exclusions (
  segment_id  bigint NOT NULL REFERENCES segment_requests(id) ON DELETE CASCADE,
  client_id   bigint NOT NULL REFERENCES clients(id),
  page_id     bigint NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  url         text NOT NULL,
  tld         text NOT NULL,
  reason      text NOT NULL,
  detail      jsonb,
  score       real,
  created_at  timestamptz NOT NULL,
  PRIMARY KEY (segment_id, page_id)
);
CREATE INDEX segment_exclusions_reason ON segment_exclusions (segment_id, reason, page_id);

-- DELETE /v1/curation/url-classifications/by-tld: a domain removed from an audience (taxonomy
-- leaf) for one client. Builds and optimizations keep these domains out.
CREATE TABLE tld_removals (
  client_id         bigint NOT NULL REFERENCES clients(id),
  tld               text NOT NULL,
  taxonomy_leaf_id  integer NOT NULL,
  deleted_count     integer NOT NULL DEFAULT 0,
  created_at        timestamptz NOT NULL,
  PRIMARY KEY (client_id, tld, taxonomy_leaf_id)
);

-- Optimizations (spec 2.3). The record is what was submitted; applied_date is set by the job.
CREATE TABLE optimizations (
  id                           bigserial PRIMARY KEY,
  client_id                    bigint NOT NULL REFERENCES clients(id),
  segment_id                   bigint NOT NULL REFERENCES segment_requests(id),
  status                       text NOT NULL DEFAULT 'accepted',
  expand                       jsonb,
  block                        jsonb,
  estimated_propagation_hours  integer NOT NULL DEFAULT 3,
  created_date                 timestamptz NOT NULL,
  applied_date                 timestamptz,
  result                       jsonb
);
CREATE INDEX optimizations_segment ON optimizations (client_id, segment_id, id);

-- Hook for the activation feature: one row per change to a segment's URL list (build, rebuild,
-- optimization, removal by domain), written in the transaction that changes the list. The
-- activation feature consumes rows to hand the change to live deals of the segment.
CREATE TABLE segment_changes (
  id               bigserial PRIMARY KEY,
  segment_id       bigint NOT NULL REFERENCES segment_requests(id) ON DELETE CASCADE,
  client_id        bigint NOT NULL REFERENCES clients(id),
  optimization_id  bigint REFERENCES optimizations(id),
  kind             text NOT NULL CHECK (kind IN ('build', 'optimization', 'tld_removal')),
  created_at       timestamptz NOT NULL
);
CREATE INDEX segment_changes_segment ON segment_changes (segment_id, id);

-- Traffic per serving domain, filled by the pixel feature's rollups; read by the bot-heavy filter.
CREATE TABLE domain_traffic_stats (
  domain           text PRIMARY KEY,
  loads            bigint NOT NULL DEFAULT 0,
  non_human_loads  bigint NOT NULL DEFAULT 0,
  updated_at       timestamptz NOT NULL
);

-- The public catalog (pre-built IAB and seasonal segments), rebuilt by the curation.catalog job.
CREATE TABLE catalog_segments (
  id             text PRIMARY KEY,
  type           text NOT NULL CHECK (type IN ('public', 'seasonal')),
  name           text NOT NULL,
  description    text NOT NULL,
  taxonomy_id    integer,
  window_start   date,
  window_end     date,
  page_count     integer NOT NULL DEFAULT 0,
  share_of_index double precision NOT NULL DEFAULT 0,
  by_language    jsonb NOT NULL DEFAULT '{}'::jsonb,
  built_at       timestamptz NOT NULL
);
CREATE INDEX catalog_segments_type ON catalog_segments (type, id);

-- Indexed pages per language at the last catalog run: the denominators of coverage figures.
CREATE TABLE catalog_index_stats (
  language    text PRIMARY KEY,
  pages       integer NOT NULL,
  updated_at  timestamptz NOT NULL
);

-- URL lists of seasonal catalog segments (IAB entries are read from page_categories directly).
CREATE TABLE catalog_segment_urls (
  catalog_id  text NOT NULL REFERENCES catalog_segments(id) ON DELETE CASCADE,
  page_id     bigint NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  rank        integer NOT NULL,
  score       real NOT NULL,
  PRIMARY KEY (catalog_id, page_id)
);
CREATE INDEX catalog_segment_urls_rank ON catalog_segment_urls (catalog_id, rank);
