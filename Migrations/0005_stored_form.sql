-- Waypoint store, schema version 5.
-- Shipped: never edit this file. Change the schema with a new numbered file.

-- From schema 5 on, `snapshot.document` holds a document in its stored form
-- (Docs/SnapshotFormat.md, "Stored form"): the document's JSON with the tag of a stack's route
-- record left out when it is the previous record's. A build that knows only schema 4 would find
-- such a document unreadable (a route without its tag is a missing field) and quarantine it; the
-- version makes it refuse to open the file instead, leaving it as it is. Rows written before
-- schema 5 are already in their stored form.

-- The document's length as JSON, tags included (its stored form is shorter): the size the store
-- reports (SnapshotInfo.byteCount, statistics). NULL for rows written before schema 5, whose
-- document is the JSON itself: their length is length(document).
ALTER TABLE snapshot ADD COLUMN document_length INTEGER;
