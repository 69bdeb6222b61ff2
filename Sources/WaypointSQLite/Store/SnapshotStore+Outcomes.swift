import Foundation
import Waypoint

extension SnapshotStore {
  /// How many restore records a store keeps: the newest.
  public static let keptOutcomes = 50

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
}
