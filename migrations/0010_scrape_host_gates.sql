-- Per-host politeness shared by every worker process (docs/scraping-fetcher.md, "Politeness"): when the
-- next request to a host may start, and one lease per request in flight to it. Times are microseconds
-- since the epoch on the database clock, so processes on different machines agree.
CREATE TABLE scrape_host_gates (
  host        text PRIMARY KEY,
  next_start  bigint NOT NULL DEFAULT 0,
  -- expiry of each request in flight; an expired lease (a crashed holder's) no longer counts
  leases      bigint[] NOT NULL DEFAULT '{}'
);
CREATE INDEX scrape_host_gates_next_start ON scrape_host_gates (next_start);
