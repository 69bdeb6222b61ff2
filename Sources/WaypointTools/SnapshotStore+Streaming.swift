import Foundation
import Waypoint
import WaypointSQLite

extension SnapshotStore {
  /// Calls `body` with every stored snapshot, oldest id first, one at a time, in one read
  /// transaction, so that memory stays the same however many snapshots the store holds (tools that
  /// export or count a whole store).
  ///
  /// A document over the configuration's `limits.maxDocumentBytes` is not read into memory: `body`
  /// gets it as ``StoredSnapshot/Document/tooLarge(byteCount:limit:)``.
  /// `body` returns `false` to stop early. It runs while the store's lock is held, so it must not
  /// call the store.
  ///
  /// - Throws: ``StoreError`` when the store cannot be read; the snapshots already passed to `body`
  ///   stay passed.
  package func forEachSnapshot(_ body: (StoredSnapshot) -> Bool) throws(StoreError) {
    try stream(
      """
      SELECT \(infoColumns), \(marks.document(within: "?1"))
      FROM snapshot s\(marks.join) ORDER BY s.id
      """, [], body)
  }

  /// Calls `body` with the latest snapshot of every scene, by scene id, one at a time, in one read
  /// transaction, with constant memory (tools that validate or repair a whole store). Documents over
  /// the size limit come without their bytes (``StoredSnapshot/Document/tooLarge(byteCount:limit:)``), as in ``forEachSnapshot(_:)``. `body` returns `false`
  /// to stop early and must not call the store.
  ///
  /// - Parameters:
  ///   - scene: Start after this scene id (by the store's ordering of ids), to go through a store in
  ///     batches between which the caller may write.
  ///   - limit: At most this many scenes.
  ///   - body: Called with each snapshot; returns `false` to stop early.
  /// - Throws: ``StoreError`` when the store cannot be read.
  package func forEachLatestSnapshot(
    after scene: String? = nil, limit: Int = .max, _ body: (StoredSnapshot) -> Bool
  ) throws(StoreError) {
    // One pass over the index on (scene_id, id), which GROUP BY reads in order, taking each
    // scene's last entry, then each row by its id: not a lookup of the scene's latest id for every
    // row of the table. CROSS JOIN keeps that pass the outer loop, so the rows come out in its
    // order, by scene id, without sorting them (an ORDER BY here would sort the documents too).
    try stream(
      """
      SELECT \(infoColumns), \(marks.document(within: "?1"))
      FROM (
        SELECT scene_id, max(id) AS id FROM snapshot
        WHERE ?2 IS NULL OR scene_id > ?2
        GROUP BY scene_id ORDER BY scene_id LIMIT ?3
      ) latest
      CROSS JOIN snapshot s ON s.id = latest.id\(marks.join)
      """, [.text(scene), .integer(Int64(max(0, limit)))], body)
  }

  /// Runs a query of snapshot rows (info columns, then the document or NULL when it is over the size
  /// limit, bound as `?1`; `bindings` follow as `?2`, …) in one read transaction, passing each row to
  /// `body` until it returns `false`.
  private func stream(_ sql: String, _ bindings: [SQLValue], _ body: (StoredSnapshot) -> Bool)
    throws(StoreError)
  {
    let limit = configuration.limits.maxDocumentBytes
    try read { db throws(SQLiteError) in
      try db.query(sql, [.integer(Int64(limit))] + bindings) { row throws(SQLiteError) in
        body(Self.storedSnapshot(&row, limits: configuration.limits)) ? .continue : .stop
      }
    }
  }
}
