import Foundation
import Waypoint
import WaypointSQLite

/// A restore's record as a store keeps it (``SnapshotStore/restoreOutcomes()``).
package struct StoredOutcome: Hashable, Sendable {
  /// The row's id: larger for later records.
  package var id: Int64
  /// When the record was kept (whole seconds).
  package var recordedAt: Date
  /// The record's JSON line as it was kept (`RestoreOutcome.jsonLine`); read it with
  /// `RestoreOutcome(jsonLine:)` (WaypointManifest), which judges bytes a file may hold.
  package var record: Data

  /// A kept record.
  package init(id: Int64, recordedAt: Date, record: Data) {
    self.id = id
    self.recordedAt = recordedAt
    self.record = record
  }
}

// Apps keep records (`recordOutcome(_:at:)`, in WaypointSQLite) and never read one back: reading
// them is for the tool (`waypoint outcomes`) and the tests.
extension SnapshotStore {
  /// The most bytes of a kept record that ``restoreOutcomes()`` loads; a longer row (no record this
  /// library writes is over 2 KiB) is returned empty.
  package static let maxOutcomeBytes = 65_536

  /// The restore records the store keeps, oldest first; none for a store of a schema before
  /// restore records (opened read-only, not migrated). A row over ``maxOutcomeBytes`` comes back
  /// with an empty record, never loaded.
  package func restoreOutcomes() throws(StoreError) -> [StoredOutcome] {
    try read { db throws(SQLiteError) in
      let exists =
        try db.scalar(
          "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'restore_outcome'"
        ) { $0.int64() } ?? 0
      guard exists > 0 else { return [] }
      return try db.rows(
        """
        SELECT id, recorded_at, CASE WHEN length(record) <= ? THEN record END
        FROM restore_outcome ORDER BY id
        """,
        [.integer(Int64(Self.maxOutcomeBytes))]
      ) { row in
        StoredOutcome(
          id: row.int64(), recordedAt: StoredTime.date(row.int64()), record: row.blob() ?? Data())
      }
    }
  }
}
