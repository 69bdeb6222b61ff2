import Foundation
import Waypoint
import WaypointSQLite

extension SnapshotStore {
  /// Calls `body` with the id of every scene that has snapshots, in the store's order of ids
  /// (by UTF-8 bytes), one at a time, in one read transaction, reading the scene index alone: no
  /// document is read, and memory stays the same however many scenes the store holds (tools that
  /// look for an id close to a misspelt one).
  ///
  /// - Parameters:
  ///   - lengths: Only ids whose length in Unicode scalars (SQLite's `length()`) falls in this
  ///     range, filtered inside SQLite, so that ids of other lengths never become Swift strings.
  ///     `nil` passes every id.
  ///   - body: Returns `false` to stop early. It runs while the store's lock is held, so it must
  ///     not call the store.
  ///   - center: When given, only the `window` index entries on each side of this id, in the
  ///     store's order of ids, are read (at most `2 × window`), so that the work does not grow with
  ///     the store; a store with fewer entries is read whole.
  ///   - window: How many index entries (snapshots) each side of `center` reads.
  /// - Throws: ``StoreError`` when the store cannot be read; the ids already passed stay passed.
  package func forEachSceneID(
    lengths: ClosedRange<Int>? = nil, near center: String? = nil, window: Int = 10_000,
    _ body: (String) -> Bool
  ) throws(StoreError) {
    let lower = Int64(lengths?.lowerBound ?? 0)
    let upper = Int64(lengths?.upperBound ?? Int.max)
    let queries: [(String, [SQLValue])]
    if let center {
      let side = Int64(max(0, window))
      queries = [
        (
          """
          SELECT scene_id FROM (
            SELECT scene_id FROM snapshot WHERE scene_id >= ?3 ORDER BY scene_id LIMIT ?4)
          WHERE length(scene_id) BETWEEN ?1 AND ?2
          """, [.integer(lower), .integer(upper), .text(center), .integer(side)]
        ),
        (
          """
          SELECT scene_id FROM (
            SELECT scene_id FROM snapshot WHERE scene_id < ?3 ORDER BY scene_id DESC LIMIT ?4)
          WHERE length(scene_id) BETWEEN ?1 AND ?2
          """, [.integer(lower), .integer(upper), .text(center), .integer(side)]
        ),
      ]
    } else {
      queries = [
        (
          "SELECT scene_id FROM snapshot WHERE length(scene_id) BETWEEN ? AND ? ORDER BY scene_id",
          [.integer(lower), .integer(upper)]
        )
      ]
    }
    var previous: String?
    try read { db throws(SQLiteError) in
      for (sql, arguments) in queries {
        let iteration = try db.query(sql, arguments) { row throws(SQLiteError) in
          // The index returns a scene's rows together; each id is passed once. (DISTINCT would
          // make SQLite compare every row again, at several times the cost of the scan.)
          let id = row.text() ?? ""
          // `==` first: a fast comparison of native strings that rules out almost every pair.
          if let previous, previous == id, SceneID.same(previous, id) { return .continue }
          previous = id
          return body(id) ? .continue : .stop
        }
        if iteration == .stop { return }
      }
    }
  }
}
