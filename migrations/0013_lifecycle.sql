-- Lifecycle operations (docs/scraping.md, docs/pixel.md).
-- Scrape jobs can be cancelled (POST /v1/scraping/jobs/{id}/cancel): their results so far are kept.
ALTER TABLE scrape_jobs DROP CONSTRAINT scrape_jobs_status_check;
ALTER TABLE scrape_jobs ADD CONSTRAINT scrape_jobs_status_check
  CHECK (status IN ('pending', 'processing', 'complete', 'failed', 'cancelled'));

-- Pixel campaigns can be deleted (DELETE /v1/pixel/campaigns/{id}): soft, so the events and reports
-- that name them stay whole; the collector stops accepting their hits.
ALTER TABLE pixel_campaigns ADD COLUMN deleted_at timestamptz;
