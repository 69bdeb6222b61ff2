-- Waypoint store, schema version 2.
-- Shipped: never edit this file. Change the schema with a new numbered file.

-- Saving trims a scene's history by walking its unquarantined snapshots, newest first. This index
-- holds exactly those rows, so the walk reads the index alone, however many snapshots are kept.
CREATE INDEX snapshot_unquarantined_by_scene ON snapshot (scene_id, id) WHERE quarantine IS NULL;
