-- Activation: one deal per activation, and every segment change reaches the live deals
-- (docs/activation.md).

-- The sandbox SSP holds at most one deal per activation: a retried issue (say, after the SSP issued
-- the deal but recording it failed) gets the first deal back instead of a second one. This is the
-- SspConnector contract (src/activation/connectors/connector.ts). Older rows have no activation.
ALTER TABLE sandbox_deals ADD COLUMN activation_id bigint;
CREATE UNIQUE INDEX sandbox_deals_activation ON sandbox_deals (activation_id) WHERE activation_id IS NOT NULL;

-- Segment changes are marked propagated one by one instead of read past a cursor: a transaction
-- that took its id before a later change but committed after it was skipped by `id > cursor`.
ALTER TABLE segment_changes ADD COLUMN propagated_at timestamptz;
UPDATE segment_changes SET propagated_at = created_at
 WHERE id <= (SELECT last_change_id FROM activation_change_cursor WHERE id = 1);
CREATE INDEX segment_changes_unpropagated ON segment_changes (id) WHERE propagated_at IS NULL;
DROP TABLE activation_change_cursor;
