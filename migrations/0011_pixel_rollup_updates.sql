-- Cheaper rollup updates for the collector's write path (src/pixel/rollups.ts).
--
-- Every batch adds to rows that already exist. With full pages an update writes the new row
-- version to another page and a new entry into every index; with free room on the page it stays
-- there (a HOT update) and no index is touched. 30 % of each page is left for that.
ALTER TABLE pixel_rollup_agents SET (fillfactor = 70);
ALTER TABLE pixel_rollup_paths SET (fillfactor = 70);
ALTER TABLE pixel_rollup_daily SET (fillfactor = 70);
ALTER TABLE pixel_rollup_referrals SET (fillfactor = 70);
ALTER TABLE deal_delivery_daily SET (fillfactor = 70);
ALTER TABLE deal_usage SET (fillfactor = 70);
ALTER TABLE domain_delivery_stats SET (fillfactor = 70);
ALTER TABLE domain_traffic_stats SET (fillfactor = 70);

-- pixel_rollup_daily keeps agents only: a path's human loads are pixel_rollup_paths' loads less
-- its bot_loads (reports/compute.ts), so human rows repeated the per-path rollup one for one.
DELETE FROM pixel_rollup_daily WHERE agent_type = 'human';
