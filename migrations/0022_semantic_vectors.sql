-- Sentence vectors of pages (src/content/semantic/, docs/curation.md "Scores"): 512 signed bytes
-- computed from an English page's title and lead by the background job index.semantic. An empty
-- value marks a page the encoder does not read (no text, another language); NULL means not done yet,
-- or the page's text changed since.
ALTER TABLE pages ADD COLUMN semantic bytea;
CREATE INDEX pages_semantic_todo ON pages (id) WHERE state = 'done' AND semantic IS NULL;
