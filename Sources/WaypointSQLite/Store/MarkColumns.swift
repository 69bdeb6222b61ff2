/// Where a store keeps each snapshot's restore bookkeeping (its unconfirmed-restore count and its
/// quarantine mark), and its document, as SQL for the queries that read them.
///
/// From schema 3 on, the bookkeeping lives in `snapshot_mark`, apart from the documents, so that
/// writing it never rewrites a document (SQLite rewrites a whole row when an `UPDATE` changes its
/// size). A store of schema 1 or 2 opened read-only is never migrated: its bookkeeping is still in
/// columns of `snapshot`, and reads take it from there. Writes only ever see schema 3 or later
/// (opening read-write migrates first). Likewise a store of schema 5 opened read-only may hold
/// documents in that schema's stored form (``/Waypoint/StoredForm``), expanded as they are read.
package struct MarkColumns: Sendable {
  /// Whether the marks are in `snapshot_mark` (schema 3 and later).
  package let separate: Bool
  /// Whether each count records the threshold it is counted against (schema 4 and later).
  package let recordsThreshold: Bool
  /// Whether documents may be kept in their stored form, with their length as JSON recorded
  /// apart (schema 5 only: migration 6 expanded them).
  package let storedForm: Bool

  package init(schemaVersion: Int) {
    separate = schemaVersion >= 3
    recordsThreshold = schemaVersion >= 4
    storedForm = schemaVersion == 5
  }

  /// What follows `FROM snapshot s`: the marks joined as `m`, or nothing.
  package var join: String { separate ? " LEFT JOIN snapshot_mark m ON m.snapshot_id = s.id" : "" }

  /// The quarantine kind of the snapshot `s` (NULL when none).
  package var quarantine: String { separate ? "m.quarantine" : "s.quarantine" }

  /// The unconfirmed-restore count of the snapshot `s` (0 when none).
  package var unconfirmedRestores: String {
    separate ? "coalesce(m.unconfirmed_restores, 0)" : "s.unconfirmed_restores"
  }

  /// The crash-loop threshold recorded with the count of `s` (NULL when none).
  package var crashLoopThreshold: String { recordsThreshold ? "m.crash_loop_threshold" : "NULL" }

  /// The mark columns of `s`, in the order ``SnapshotStore/info(_:)`` reads them: quarantine, its
  /// detail, its time, the unconfirmed-restore count, the threshold recorded with it.
  package var columns: String {
    let table = separate ? "m" : "s"
    return "\(quarantine), \(table).quarantine_detail, \(table).quarantined_at, "
      + "\(unconfirmedRestores), \(crashLoopThreshold)"
  }

  /// The number of quarantined snapshots of the scene of `s` (a correlated subquery).
  package var quarantinedInScene: String {
    separate
      ? "(SELECT count(*) FROM snapshot_mark WHERE scene_id = s.scene_id AND quarantine IS NOT NULL)"
      : "(SELECT count(quarantine) FROM snapshot WHERE scene_id = s.scene_id)"
  }

  /// The length of the snapshot `s`'s document as JSON. In schema 5's stored form, its
  /// recorded `document_length`, never less than the stored bytes (a value a file holds below
  /// them, or NULL, gives way to `length(document)`).
  package var documentLength: String {
    storedForm
      ? "max(coalesce(s.document_length, 0), length(s.document))" : "length(s.document)"
  }

  /// The snapshot `s`'s document when its stored bytes are at most `limit` (a parameter, `?1`
  /// or `?`), NULL otherwise, so that a planted oversized document is never loaded. In schema
  /// 5's stored form, expanded as it is read (the same limit applies to the expanded document;
  /// a document that would be over it is left unexpanded, and reads as unreadable).
  package func document(within limit: String) -> String {
    storedForm
      ? "CASE WHEN length(s.document) <= \(limit) THEN "
        + "\(Database.expandedDocumentFunction)(s.document, \(limit)) END"
      : "CASE WHEN length(s.document) <= \(limit) THEN s.document END"
  }

  /// The number of quarantined snapshots of the whole store.
  package var quarantinedInStore: String {
    separate
      ? "(SELECT count(*) FROM snapshot_mark WHERE quarantine IS NOT NULL)"
      : "(SELECT count(quarantine) FROM snapshot)"
  }
}
