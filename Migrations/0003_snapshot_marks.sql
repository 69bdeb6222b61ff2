-- Waypoint store, schema version 3.
-- Shipped: never edit this file. Change the schema with a new numbered file.

-- The restore bookkeeping (the crash-loop guard's count, quarantine marks) in a small table of its
-- own. SQLite rewrites a whole row when an UPDATE changes its size: kept in `snapshot`, a quarantine
-- mark or a count going from 1 to 2 rewrote the document too. A snapshot without a row here has no
-- mark and no unconfirmed restore; rows are deleted with their snapshots, in the same transaction.
CREATE TABLE snapshot_mark (
  snapshot_id INTEGER PRIMARY KEY,
  -- The snapshot's scene, copied so that a scene's marks are found without reading `snapshot`.
  scene_id TEXT NOT NULL,
  -- Restores of this snapshot that the app has not confirmed yet (the crash-loop guard).
  unconfirmed_restores INTEGER NOT NULL DEFAULT 0,
  -- NULL, or why the snapshot is kept aside: 'unrestorable' or 'crash-loop'.
  quarantine TEXT CHECK (quarantine IN ('unrestorable', 'crash-loop')),
  quarantine_detail TEXT,
  quarantined_at INTEGER
) STRICT;

CREATE INDEX snapshot_mark_by_scene ON snapshot_mark (scene_id, snapshot_id);

INSERT INTO snapshot_mark (
  snapshot_id, scene_id, unconfirmed_restores, quarantine, quarantine_detail, quarantined_at)
SELECT id, scene_id, unconfirmed_restores, quarantine, quarantine_detail, quarantined_at
FROM snapshot WHERE quarantine IS NOT NULL OR unconfirmed_restores != 0;

-- The old columns stay in `snapshot`, NULL and 0 from now on, never read or written again: SQLite's
-- DROP COLUMN cannot edit the commented definition of the table (3.40 answers "incomplete input").
-- The index that used one of them goes.
UPDATE snapshot
SET quarantine = NULL, quarantine_detail = NULL, quarantined_at = NULL, unconfirmed_restores = 0
WHERE quarantine IS NOT NULL OR unconfirmed_restores != 0;
DROP INDEX snapshot_unquarantined_by_scene;
