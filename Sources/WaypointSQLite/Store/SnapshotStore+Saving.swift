import Foundation
import Waypoint

extension SnapshotStore {
  /// Saves a snapshot as the scene's newest version, unless it equals the scene's latest snapshot
  /// (its save time aside), in which case nothing is written.
  ///
  /// Each save is one `BEGIN IMMEDIATE` transaction, which also trims the scene's history to
  /// ``StoreConfiguration/retention`` snapshots (quarantined ones are kept). A save that returned is
  /// durable against an app crash; see ``StoreConfiguration/Durability`` for power loss.
  ///
  /// - Parameters:
  ///   - snapshot: The scene's navigation state.
  ///   - scene: On iOS, `UISceneSession.persistentIdentifier`; any string that ``SceneID`` accepts.
  /// - Throws: ``StoreError``: ``StoreError/invalidSceneID(_:reason:)`` for an id that
  ///   ``SceneID`` refuses, ``StoreError/invalidSnapshot(_:)`` for a document over
  ///   ``/Waypoint/InputLimits/maxDocumentBytes`` or one that fails
  ///   ``/Waypoint/SceneSnapshot/check()``, ``StoreError/busy(path:)`` when another process held
  ///   the lock past the busy timeout, ``StoreError/diskFull(path:)``,
  ///   ``StoreError/readOnly(path:detail:)``, ``StoreError/ioError(path:detail:)``,
  ///   ``StoreError/corrupt(path:detail:)``. Nothing is written when it throws.
  @discardableResult
  public func save(_ snapshot: SceneSnapshot, scene: String) throws(StoreError) -> SaveResult {
    // A scene's latest snapshot can never be negative: the condition always holds.
    guard let result = try save(snapshot, scene: scene, ifLatestIs: nil) else {
      throw .snapshotNotFound(scene: scene, id: -1)
    }
    return result
  }

  /// Saves a snapshot as ``save(_:scene:)`` does, but only while the scene's latest snapshot is
  /// still `expected`, checked in the same transaction: a tool that rewrites a snapshot it read
  /// earlier (`waypoint repair`) never buries a save the app made meanwhile.
  ///
  /// With `trimsHistory: false` nothing is deleted: the snapshot is added and every older one stays,
  /// whatever ``StoreConfiguration/retention`` says (for tools, which must not delete what they did
  /// not announce). With `expected` `nil` there is no condition, and a result always comes back.
  ///
  /// - Returns: `nil`, writing nothing, when the scene's latest snapshot is no longer `expected`.
  /// - Throws: as ``save(_:scene:)``.
  public func save(
    _ snapshot: SceneSnapshot, scene: String, ifLatestIs expected: Int64?,
    trimsHistory: Bool = true
  )
    throws(StoreError)
    -> SaveResult?
  {
    if let reason = SceneID.problem(with: scene) { throw .invalidSceneID(scene, reason: reason) }
    do {
      try snapshot.check()
    } catch {
      throw .invalidSnapshot(error)
    }
    let document = snapshot.encoded()
    let limit = configuration.limits.maxDocumentBytes
    guard document.count <= limit else {
      throw .invalidSnapshot(.tooLarge(byteCount: document.count, limit: limit))
    }
    let savedAt = StoredTime.seconds(snapshot.metadata.savedAt)
    let retention = configuration.retention
    return try write { db throws(SQLiteError) -> SaveResult? in
      var latest: (id: Int64, savedAt: Int64, document: Data?, quarantined: Bool)?
      // The latest document is read only when its length could equal the new one's: a planted
      // oversized document is never loaded, and compares unequal.
      try db.query(
        """
        SELECT s.id, s.saved_at, CASE WHEN length(s.document) = ?2 THEN s.document END,
          m.quarantine IS NOT NULL
        FROM snapshot s LEFT JOIN snapshot_mark m ON m.snapshot_id = s.id
        WHERE s.scene_id = ?1 ORDER BY s.id DESC LIMIT 1
        """,
        [.text(scene), .integer(Int64(document.count))]
      ) { row throws(SQLiteError) in
        latest = (row.int64(0), row.int64(1), row.blob(2), row.int(3) != 0)
      }
      if let expected, latest?.id != expected { return nil }
      // A document of another length was not read and cannot be equal: nothing to encode again
      // (the save time is written at a fixed width).
      if let latest, !latest.quarantined, let stored = latest.document {
        var comparable = document
        if latest.savedAt != savedAt {
          var same = snapshot
          same.metadata.savedAt = StoredTime.date(latest.savedAt)
          comparable = same.encoded()
        }
        if comparable == stored { return SaveResult(snapshotID: latest.id, wrote: false) }
      }
      try db.run(
        """
        INSERT INTO snapshot (scene_id, saved_at, format, route_schema_version, app_build, document)
        VALUES (?, ?, ?, ?, ?, ?)
        """,
        [
          .text(scene), .integer(savedAt), .integer(Int64(SceneSnapshot.currentFormatVersion)),
          .integer(Int64(snapshot.metadata.routeSchemaVersion)), .text(snapshot.metadata.appBuild),
          .blob(document),
        ])
      let id = db.lastInsertedRowID
      guard trimsHistory else { return SaveResult(snapshotID: id, wrote: true) }
      // Everything unquarantined older than the retention-th newest unquarantined snapshot: a
      // walk of the (scene_id, id) index, each row's mark looked up by its key; then the marks of
      // the snapshots deleted.
      let unquarantined =
        "NOT EXISTS (SELECT 1 FROM snapshot_mark m WHERE m.snapshot_id = s.id AND m.quarantine IS NOT NULL)"
      let deleted = try db.run(
        """
        DELETE FROM snapshot AS s WHERE s.scene_id = ?1 AND \(unquarantined) AND s.id < (
          SELECT s.id FROM snapshot s WHERE s.scene_id = ?1 AND \(unquarantined)
          ORDER BY s.id DESC LIMIT 1 OFFSET ?2 - 1)
        """,
        [.text(scene), .integer(Int64(retention))])
      if deleted > 0 {
        try db.run(
          """
          DELETE FROM snapshot_mark WHERE scene_id = ?1
            AND snapshot_id NOT IN (SELECT id FROM snapshot WHERE scene_id = ?1)
          """,
          [.text(scene)])
      }
      return SaveResult(snapshotID: id, wrote: true)
    }
  }
}
