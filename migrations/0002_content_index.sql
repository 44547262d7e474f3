-- The content index: one row per normalized URL, shared by every client (it describes the public
-- web, not client data). Scrape jobs and segments refer to pages by id.
CREATE TABLE pages (
  id                 bigserial PRIMARY KEY,
  url                text NOT NULL UNIQUE,
  tld                text NOT NULL,
  host               text NOT NULL,
  -- queued: submitted, not fetched yet (E001 to readers); done: fetched, with or without errors.
  state              text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'done')),
  errors             text[] NOT NULL DEFAULT '{}',
  requested_at       timestamptz NOT NULL,
  fetched_at         timestamptz,
  final_url          text,
  http_status        integer,
  content_type       text,
  title              text,
  full_text          text,
  language           text,
  word_count         integer,
  metadata           jsonb,
  published_date     timestamptz,
  last_updated_date  timestamptz,
  -- Scored IAB categories [{id, score}], best first, and the most specific one on the best branch.
  categories         jsonb NOT NULL DEFAULT '[]'::jsonb,
  primary_category   integer,
  embedding          jsonb,
  signals            jsonb,
  simhash            bigint,
  links              jsonb,
  search             tsvector GENERATED ALWAYS AS (
                       to_tsvector('simple'::regconfig, coalesce(title, '') || ' ' || left(coalesce(full_text, ''), 100000))
                     ) STORED
);
CREATE INDEX pages_tld ON pages (tld);
CREATE INDEX pages_queued ON pages (requested_at) WHERE state = 'queued';
CREATE INDEX pages_search ON pages USING gin (search);

-- Category membership, for finding candidate pages of a category without scanning the index.
CREATE TABLE page_categories (
  taxonomy_id  integer NOT NULL,
  page_id      bigint NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  score        real NOT NULL,
  PRIMARY KEY (taxonomy_id, page_id)
);
CREATE INDEX page_categories_page ON page_categories (page_id);

-- ads.txt per root domain, shared by every URL of the domain.
CREATE TABLE ads_txt (
  domain        text PRIMARY KEY,
  status        text NOT NULL CHECK (status IN ('found', 'not_found', 'error')),
  seller_count  integer NOT NULL DEFAULT 0,
  entries       jsonb NOT NULL DEFAULT '[]'::jsonb,
  variables     jsonb NOT NULL DEFAULT '{}'::jsonb,
  fetched_at    timestamptz NOT NULL
);
