import Foundation
import Waypoint

/// A restore's record as a store keeps it (``SnapshotStore/restoreOutcomes()``).
public struct StoredOutcome: Hashable, Sendable {
  /// The row's id: larger for later records.
  public var id: Int64
  /// When the record was kept (whole seconds).
  public var recordedAt: Date
  /// The record's JSON line as it was kept (``/Waypoint/RestoreOutcome/jsonLine``); read it with
  /// `RestoreOutcome(jsonLine:)` (WaypointManifest), which judges bytes a file may hold.
  public var record: Data

  /// A kept record.
  public init(id: Int64, recordedAt: Date, record: Data) {
    self.id = id
    self.recordedAt = recordedAt
    self.record = record
  }
}

extension SnapshotStore {
  /// How many restore records a store keeps: the newest.
  public static let keptOutcomes = 50

  /// The most bytes of a kept record that ``restoreOutcomes()`` loads; a longer row (no record this
  /// library writes is over 2 KiB) is returned empty.
  public static let maxOutcomeBytes = 65_536

  /// Keeps `outcome`'s record in the store, with the newest ``keptOutcomes`` others, so that a store
  /// pulled from a device carries the history of its restores. Older records are deleted in the
  /// same transaction. Snapshots are not touched.
  ///
  /// - Throws: ``StoreError`` when the record cannot be written (read-only store, busy, disk
  ///   full); a record is information, so an app may ignore the error.
  public func recordOutcome(_ outcome: RestoreOutcome, at date: Date = Date()) throws(StoreError) {
    let record = outcome.jsonLine
    let seconds = StoredTime.seconds(date)
    try withWritableDatabase { db throws(SQLiteError) in
      try db.transaction(immediate: true) { () throws(SQLiteError) in
        try db.run(
          "INSERT INTO restore_outcome (recorded_at, record) VALUES (?, ?)",
          [.integer(seconds), .blob(record)])
        try db.run(
          """
          DELETE FROM restore_outcome WHERE id <=
            (SELECT id FROM restore_outcome ORDER BY id DESC LIMIT 1 OFFSET ?)
          """,
          [.integer(Int64(Self.keptOutcomes))])
      }
    }
  }

  /// The restore records the store keeps, oldest first; none for a store of a schema before
  /// restore records (opened read-only, not migrated). A row over ``maxOutcomeBytes`` comes back
  /// with an empty record, never loaded.
  public func restoreOutcomes() throws(StoreError) -> [StoredOutcome] {
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
