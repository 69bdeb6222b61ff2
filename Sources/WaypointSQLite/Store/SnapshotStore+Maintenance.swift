import Foundation
import Waypoint

extension SnapshotStore {
  /// Makes an earlier snapshot of the scene its latest again, by saving a copy of it (stamped now)
  /// as a new version. The snapshots in between stay, within ``StoreConfiguration/retention`` as
  /// with any save; with `trimsHistory: false` every one of them stays.
  ///
  /// - Returns: the id of the scene's latest snapshot afterwards: the copy's, or, when the copy equals
  ///   the latest snapshot (rolling back to the latest), that snapshot's.
  /// - Throws: ``StoreError/Code/snapshotNotFound`` when the id is not one of the scene's
  ///   (scene ids compared as bytes, ``SceneID/same(_:_:)``: "café" in NFC and in NFD are two
  ///   scenes); ``StoreError/Code/invalidSnapshot`` when its document cannot be read (over the size
  ///   limit, which is checked before the document is read; a newer format; damaged); otherwise as
  ///   ``save(_:scene:)``.
  @discardableResult
  public func rollback(scene: String, to id: Int64, trimsHistory: Bool = true) throws(StoreError)
    -> Int64
  {
    guard let stored = try snapshot(id: id), SceneID.same(stored.info.scene, scene) else {
      throw .snapshotNotFound(scene: scene, id: id)
    }
    var snapshot: SceneSnapshot
    switch stored.document {
    case .tooLarge(let byteCount, let limit):
      throw .invalidSnapshot(.tooLarge(byteCount: byteCount, limit: limit))
    case .read(let document):
      do {
        snapshot = try SceneSnapshot(decoding: document, limits: configuration.limits)
      } catch {
        throw .invalidSnapshot(error)
      }
    }
    snapshot.metadata.savedAt = Date()
    return try save(snapshot, scene: scene, trimsHistory: trimsHistory).snapshotID
  }

  /// Deletes every snapshot of the given scenes, in one transaction: pass the identifiers from
  /// `application(_:didDiscardSceneSessions:)`.
  ///
  /// - Returns: how many snapshots were deleted.
  @discardableResult
  public func discard(scenes: some Sequence<String>) throws(StoreError) -> Int {
    let ids = Array(scenes)
    return try write { db throws(SQLiteError) in
      var count = 0
      for scene in ids {
        count += try db.run("DELETE FROM snapshot WHERE scene_id = ?", [.text(scene)])
        try db.run("DELETE FROM snapshot_mark WHERE scene_id = ?", [.text(scene)])
      }
      return count
    }
  }

  /// Deletes old snapshots: those saved before `date`, and in each scene all but the newest
  /// `keepingLatest` of the others (quarantined ones included). `nil` leaves that rule out.
  ///
  /// - Returns: how many snapshots were deleted.
  @discardableResult
  public func prune(keepingLatest: Int? = nil, olderThan date: Date? = nil) throws(StoreError)
    -> Int
  {
    try write { db throws(SQLiteError) in
      let count = try db.run(
        "DELETE FROM snapshot WHERE id IN (\(Self.prunedIDs))",
        Self.pruneArguments(keepingLatest: keepingLatest, olderThan: date))
      if count > 0 {
        try db.run("DELETE FROM snapshot_mark WHERE snapshot_id NOT IN (SELECT id FROM snapshot)")
      }
      return count
    }
  }

  /// What ``prune(keepingLatest:olderThan:)`` would delete now, without deleting anything: how many
  /// snapshots of each scene, for the scenes that would lose any, in the store's order of scene
  /// ids (their bytes: "café" in NFC and in NFD are two entries, as they are two scenes). Works on
  /// a store opened read-only.
  public func prunable(keepingLatest: Int? = nil, olderThan date: Date? = nil)
    throws(StoreError) -> [(scene: String, snapshots: Int)]
  {
    try read { db throws(SQLiteError) in
      try db.rows(
        """
        SELECT scene_id, count(*) FROM snapshot WHERE id IN (\(Self.prunedIDs))
        GROUP BY scene_id ORDER BY scene_id
        """,
        Self.pruneArguments(keepingLatest: keepingLatest, olderThan: date)
      ) { row in (scene: row.text() ?? "", snapshots: row.int()) }
    }
  }

  /// The ids both rules of a prune select, shared by the prune and its dry run so that the two
  /// cannot differ: those saved before `?1`, and among the others, all but each scene's newest
  /// `?2`. A `NULL` leaves that rule out.
  private static let prunedIDs = """
    SELECT id FROM snapshot WHERE saved_at < ?1
    UNION ALL
    SELECT id FROM (
      SELECT id, row_number() OVER (PARTITION BY scene_id ORDER BY id DESC) AS rank
      FROM snapshot WHERE ?2 IS NOT NULL AND (?1 IS NULL OR saved_at >= ?1))
    WHERE rank > ?2
    """

  private static func pruneArguments(keepingLatest: Int?, olderThan date: Date?) -> [SQLValue] {
    [
      date.map { .integer(StoredTime.seconds($0)) } ?? .null,
      keepingLatest.map { .integer(Int64(max(0, $0))) } ?? .null,
    ]
  }
}
