-- Waypoint store, schema version 6.
-- Shipped: never edit this file. Change the schema with a new numbered file.

-- Every row holds its snapshot document as Docs/SnapshotFormat.md specifies it. Schema 5 kept
-- some rows in a "stored form": a stack's route record whose tag was the previous record's was
-- written without its "tag" member, and `document_length` recorded the document's length as
-- JSON. Those rows are expanded back into their documents here, once
-- (waypoint_expanded_document, a function every Waypoint connection registers: it puts each
-- left-out tag back and leaves bytes it cannot read as they are), and the length column goes:
-- a row's length is length(document) again.
UPDATE snapshot SET document = waypoint_expanded_document(document, 16777216)
WHERE document_length IS NOT NULL AND document_length > length(document);

ALTER TABLE snapshot DROP COLUMN document_length;
