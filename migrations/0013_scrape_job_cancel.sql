-- Scrape jobs can be cancelled (POST /v1/scraping/jobs/{id}/cancel): their results so far are kept.
ALTER TABLE scrape_jobs DROP CONSTRAINT scrape_jobs_status_check;
ALTER TABLE scrape_jobs ADD CONSTRAINT scrape_jobs_status_check
  CHECK (status IN ('pending', 'processing', 'complete', 'failed', 'cancelled'));
