import Foundation
import Waypoint

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
      SELECT \(infoColumns), CASE WHEN length(s.document) <= ?1 THEN s.document END
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
      SELECT \(infoColumns), CASE WHEN length(s.document) <= ?1 THEN s.document END
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
        body(Self.storedSnapshot(&row, limit: limit)) ? .continue : .stop
      }
    }
  }
}

/// A scene's latest snapshot as ``SnapshotStore/forEachLatestSnapshot(batchSize:summarizing:_:)``
/// passes it: the summary made of it, or the snapshot itself when there is none.
package enum LatestSnapshot<Summary> {
  /// The scene, its latest snapshot's id and the summary made of that snapshot.
  case summarized(scene: String, id: Int64, Summary)
  /// The latest snapshot, for which no summary was made.
  case stored(StoredSnapshot)
}

extension SnapshotStore {
  /// Calls `body` with the latest snapshot of every scene, by scene id, in one read transaction, as
  /// ``forEachLatestSnapshot(after:limit:_:)`` does, but reads the documents in the table's order:
  /// on a big store, rows read in the order of scene ids are pages read at random, a page read (a
  /// system call, or a disk seek when the file is not cached) per scene.
  ///
  /// The scenes go in batches of at most `batchSize`: the batch's latest snapshot ids are read from
  /// the index on (scene_id, id); the table is read once in id order, and `summarize` gets each of
  /// those snapshots and makes a summary of it, or `nil`; then `body` gets the batch's scenes in
  /// scene-id order, each as its summary or, where `summarize` made none, as the snapshot read again.
  /// Memory: an id and a summary per scene of a batch. Documents over the size limit come without
  /// their bytes, as in ``forEachSnapshot(_:)``. `body` returns `false` to stop early; neither
  /// closure may call the store.
  ///
  /// - Throws: ``StoreError`` when the store cannot be read.
  package func forEachLatestSnapshot<Summary>(
    batchSize: Int = 1 << 20,
    summarizing summarize: (StoredSnapshot) -> Summary?,
    _ body: (LatestSnapshot<Summary>) -> Bool
  ) throws(StoreError) {
    let limit = configuration.limits.maxDocumentBytes
    let batch = Int64(max(1, batchSize))
    let latest = """
      SELECT scene_id, max(id) FROM snapshot WHERE ?1 IS NULL OR scene_id > ?1
      GROUP BY scene_id ORDER BY scene_id LIMIT ?2
      """
    let rows = """
      SELECT \(infoColumns), CASE WHEN length(s.document) <= ?1 THEN s.document END
      FROM snapshot s\(marks.join) WHERE s.id BETWEEN ?2 AND ?3 ORDER BY s.id
      """
    let one = """
      SELECT \(infoColumns), CASE WHEN length(s.document) <= ?1 THEN s.document END
      FROM snapshot s\(marks.join) WHERE s.id = ?2
      """
    try read { db throws(SQLiteError) in
      var after: String?
      while true {
        // The batch's latest ids, sorted.
        var ids: [Int64] = []
        var last: String?
        try db.query(latest, [.text(after), .integer(batch)]) { row throws(SQLiteError) in
          last = row.text()
          ids.append(row.int64())
          return .continue
        }
        guard !ids.isEmpty else { return }
        ids.sort()
        // Their snapshots, in the table's order.
        var summaries: [Summary?] = Array(repeating: nil, count: ids.count)
        var next = 0
        try db.query(
          rows, [.integer(Int64(limit)), .integer(ids[0]), .integer(ids[ids.count - 1])]
        ) { row throws(SQLiteError) in
          var peek = row
          let id = peek.int64()
          while next < ids.count, ids[next] < id { next += 1 }
          guard next < ids.count else { return .stop }
          guard ids[next] == id else { return .continue }
          summaries[next] = summarize(Self.storedSnapshot(&row, limit: limit))
          return .continue
        }
        // The scenes in order.
        let stopped = try db.query(latest, [.text(after), .integer(batch)]) {
          row throws(SQLiteError) in
          let scene = row.text() ?? ""
          let id = row.int64()
          let position = Self.position(of: id, in: ids)
          let item: LatestSnapshot<Summary>
          if let position, let summary = summaries[position] {
            item = .summarized(scene: scene, id: id, summary)
          } else if let stored = try db.scalar(
            one, [.integer(Int64(limit)), .integer(id)],
            {
              row in Self.storedSnapshot(&row, limit: limit)
            })
          {
            item = .stored(stored)
          } else {
            return .continue
          }
          return body(item) ? .continue : .stop
        }
        guard stopped == .continue, ids.count == batch else { return }
        after = last
      }
    }
  }

  /// The index of `id` in the sorted `ids`.
  private static func position(of id: Int64, in ids: [Int64]) -> Int? {
    var low = 0
    var high = ids.count
    while low < high {
      let middle = low + (high - low) / 2
      if ids[middle] < id { low = middle + 1 } else { high = middle }
    }
    return low < ids.count && ids[low] == id ? low : nil
  }
}
