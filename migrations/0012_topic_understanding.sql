-- Topic understanding (docs/curation.md): how a prompt was read, and why each URL is in a segment.
ALTER TABLE segment_requests ADD COLUMN interpretation jsonb;
ALTER TABLE segment_urls ADD COLUMN reasons jsonb;
-- Which classifier version produced a page's categories and embedding (the reclassification job
-- moves pages to the current one in the background).
ALTER TABLE pages ADD COLUMN classifier_version integer NOT NULL DEFAULT 1;
-- Term associations learned from the index (src/curation/build/associations.ts): for a word of the
-- index, the words most often found on the same pages (normalised PMI), used to expand prompt words
-- the topic model never saw.
CREATE TABLE term_associations (
  term     text NOT NULL,
  related  text NOT NULL,
  score    real NOT NULL,
  PRIMARY KEY (term, related)
);
