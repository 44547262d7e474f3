-- The raw events' DSP macros as JSON text instead of jsonb. Nothing reads inside them in SQL
-- (reports read the rollups; the collector writes JSON.stringify's output, always valid JSON), and
-- parsing jsonb on every row was a sixth of the embedded engine's COPY time for a collector batch
-- (docs/pixel.md, "Performance"). To query them, cast: macros::jsonb ->> 'deal'.
-- Rewrites the table once: on a large events table expect the collector to buffer (and retry) its
-- writes for the duration (docs/operations.md, "Upgrades").
ALTER TABLE pixel_events ALTER COLUMN macros TYPE text USING macros::text;
