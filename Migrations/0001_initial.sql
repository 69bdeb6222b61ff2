-- Waypoint store, schema version 1.
-- Shipped: never edit this file. Change the schema with a new numbered file.

-- One row per saved snapshot of a scene. The newest row of a scene (highest id) is its latest
-- snapshot; older rows are its history.
CREATE TABLE snapshot (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  -- The app's scene identifier (on iOS, UISceneSession.persistentIdentifier).
  scene_id TEXT NOT NULL,
  -- The document's savedAt, as Unix time in whole seconds.
  saved_at INTEGER NOT NULL,
  -- The document's format version and the app's route-schema version, copied for queries.
  format INTEGER NOT NULL,
  route_schema_version INTEGER NOT NULL,
  app_build TEXT,
  -- The snapshot JSON document (Docs/SnapshotFormat.md), bound as a blob.
  document BLOB NOT NULL,
  -- NULL, or why the snapshot is kept aside: 'unrestorable' or 'crash-loop'.
  quarantine TEXT CHECK (quarantine IN ('unrestorable', 'crash-loop')),
  quarantine_detail TEXT,
  quarantined_at INTEGER,
  -- Restores of this snapshot that the app has not confirmed yet (the crash-loop guard).
  unconfirmed_restores INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE INDEX snapshot_by_scene ON snapshot (scene_id, id);
