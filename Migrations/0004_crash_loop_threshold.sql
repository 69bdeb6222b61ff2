-- Waypoint store, schema version 4.
-- Shipped: never edit this file. Change the schema with a new numbered file.

-- The crash-loop threshold (StoreConfiguration.crashLoopThreshold) the app counted a snapshot's
-- unconfirmed restores against, written with each count, so that a tool judging the store offline
-- (waypoint validate, repair) applies the app's own threshold instead of the default one. NULL for
-- counts made before schema 4, and for rows without a count: the default threshold applies.
ALTER TABLE snapshot_mark ADD COLUMN crash_loop_threshold INTEGER
  CHECK (crash_loop_threshold IS NULL OR crash_loop_threshold >= 1);
