-- Segment lifecycle (docs/curation.md, "Lifecycle"): a deleted segment's deals stop, through the same
-- change feed that hands optimizations and rebuilds to the deals.
ALTER TABLE segment_changes DROP CONSTRAINT segment_changes_kind_check;
ALTER TABLE segment_changes ADD CONSTRAINT segment_changes_kind_check
  CHECK (kind IN ('build', 'optimization', 'tld_removal', 'deleted'));

-- Fetch failures are retried sooner than successes are refreshed (docs/scraping.md, "Freshness"):
-- consecutive failed fetches of a page, for the backoff.
ALTER TABLE pages ADD COLUMN failed_fetches integer NOT NULL DEFAULT 0;

-- A scrape job may ask for younger copies than the index holds (max_age / force), in ms after the minimum.
ALTER TABLE scrape_jobs ADD COLUMN max_age_ms bigint;
