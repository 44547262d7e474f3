-- Scrape jobs (spec 2.8, 4.7; docs/scraping.md). A job's URLs are stored compactly, 1,000 per chunk
-- row, in submission order; each chunk is one queue job, so paging reads only the chunks of its page
-- and a crashed worker re-runs one chunk. Results are read from the shared content index (pages).
CREATE TABLE scrape_jobs (
  id               bigserial PRIMARY KEY,
  client_id        bigint NOT NULL REFERENCES clients(id),
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processing', 'complete', 'failed')),
  -- true while the submission's chunks are being written: such a job is invisible and not queued yet.
  loading          boolean NOT NULL DEFAULT true,
  -- entries in the request, entries kept after de-duplication (url_count), and the invalid ones among them
  submitted_count  integer NOT NULL,
  url_count        integer NOT NULL,
  invalid_count    integer NOT NULL,
  chunk_count      integer NOT NULL,
  chunks_done      integer NOT NULL DEFAULT 0,
  failure_reason   text,
  created_date     timestamptz NOT NULL,
  processed_date   timestamptz
);
CREATE INDEX scrape_jobs_client ON scrape_jobs (client_id, id);
CREATE INDEX scrape_jobs_unfinished ON scrape_jobs (client_id) WHERE status IN ('pending', 'processing');

-- Entry i of a job is element (i % 1000) + 1 of chunk i / 1000. `urls` holds the normalized URL, or the
-- submitted text (cut to 2048 characters) of an invalid entry, whose reason is at the same position in
-- `invalid`; `invalid` is null when every entry of the chunk is valid.
CREATE TABLE scrape_job_chunks (
  job_id      bigint NOT NULL REFERENCES scrape_jobs(id) ON DELETE CASCADE,
  chunk_no    integer NOT NULL,
  client_id   bigint NOT NULL REFERENCES clients(id),
  urls        text[] NOT NULL,
  invalid     text[],
  -- entries of this chunk already in the index (progress); all of them once done_at is set
  done_count  integer NOT NULL DEFAULT 0,
  done_at     timestamptz,
  PRIMARY KEY (job_id, chunk_no)
);

-- The ads.txt cache (0002) also keeps when to ask again and why the last answer was not `found`.
ALTER TABLE ads_txt ADD COLUMN expires_at timestamptz;
ALTER TABLE ads_txt ADD COLUMN invalid_lines integer NOT NULL DEFAULT 0;
ALTER TABLE ads_txt ADD COLUMN source_url text;
ALTER TABLE ads_txt ADD COLUMN reason text;
