-- Waypoint store, schema version 7.
-- Shipped: never edit this file. Change the schema with a new numbered file.

-- The records of the latest restores from this file (RestoreOutcome, Docs/Outcomes.md), so that a
-- store pulled from a device carries its history: each row one record's JSON line, as the app
-- would send it (no scene id, no route value). The store keeps the newest 50 rows.
CREATE TABLE restore_outcome (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  -- When the record was kept, as Unix time in whole seconds.
  recorded_at INTEGER NOT NULL,
  -- The record: one JSON object, at most 2 KiB.
  record BLOB NOT NULL
) STRICT;
