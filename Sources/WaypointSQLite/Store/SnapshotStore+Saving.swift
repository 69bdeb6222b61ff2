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
  /// - Throws: ``StoreError``: ``StoreError/Code/invalidSceneID`` for an id that
  ///   ``SceneID`` refuses, ``StoreError/Code/invalidSnapshot`` for a document over
  ///   ``/Waypoint/InputLimits/maxDocumentBytes`` or one that fails
  ///   ``/Waypoint/SceneSnapshot/check()``, ``StoreError/Code/busy`` when another process held
  ///   the lock past the busy timeout, ``StoreError/Code/diskFull``,
  ///   ``StoreError/Code/readOnly``, ``StoreError/Code/ioError``,
  ///   ``StoreError/Code/corrupt``. Nothing is written when it throws.
  @discardableResult
  public func save(_ snapshot: SceneSnapshot, scene: String) throws(StoreError) -> SaveResult {
    try save(snapshot, scene: scene, trimsHistory: true)
  }

  /// Saves a snapshot as ``save(_:scene:)`` does; with `trimsHistory: false` nothing is deleted:
  /// the snapshot is added and every older one stays, whatever ``StoreConfiguration/retention``
  /// says (for tools, which must not delete what they did not announce).
  ///
  /// - Throws: as ``save(_:scene:)``.
  @discardableResult
  package func save(_ snapshot: SceneSnapshot, scene: String, trimsHistory: Bool)
    throws(StoreError) -> SaveResult
  {
    let document = try Self.document(of: snapshot, scene: scene, limits: configuration.limits)
    let retention = configuration.retention
    return try write { db throws(SQLiteError) -> SaveResult in
      let latest = try Self.latest(of: scene, db, comparedWith: document)
      return try Self.insert(
        snapshot, document, scene: scene, after: latest, retention: trimsHistory ? retention : nil,
        db)
    }
  }

  /// Saves a snapshot as ``save(_:scene:trimsHistory:)`` does, but only while the scene's latest
  /// snapshot is still `expected`, checked in the same transaction: a tool that rewrites a snapshot
  /// it read earlier (`waypoint repair`) never buries a save the app made meanwhile.
  ///
  /// - Returns: `nil`, writing nothing, when the scene's latest snapshot is no longer `expected`
  ///   (or the scene has no snapshot).
  /// - Throws: as ``save(_:scene:)``.
  package func save(
    _ snapshot: SceneSnapshot, scene: String, ifLatestIs expected: Int64,
    trimsHistory: Bool = true
  ) throws(StoreError) -> SaveResult? {
    let document = try Self.document(of: snapshot, scene: scene, limits: configuration.limits)
    let retention = configuration.retention
    return try write { db throws(SQLiteError) -> SaveResult? in
      let latest = try Self.latest(of: scene, db, comparedWith: document)
      guard latest?.id == expected else { return nil }
      return try Self.insert(
        snapshot, document, scene: scene, after: latest, retention: trimsHistory ? retention : nil,
        db)
    }
  }

  /// The document a save writes, after the checks that need no file: the scene id, the snapshot's
  /// own check, the size limit. Saves and imports both go through it.
  static func document(of snapshot: SceneSnapshot, scene: String, limits: InputLimits)
    throws(StoreError) -> Data
  {
    if let reason = SceneID.problem(with: scene) { throw .invalidSceneID(scene, reason: reason) }
    do {
      try snapshot.check()
    } catch {
      throw .invalidSnapshot(error)
    }
    let document = snapshot.encoded()
    let limit = limits.maxDocumentBytes
    guard document.count <= limit else {
      throw .invalidSnapshot(.tooLarge(byteCount: document.count, limit: limit))
    }
    return document
  }

  /// The scene's latest snapshot, as a save compares with it.
  private struct Latest {
    var id: Int64
    var savedAt: Int64
    /// The document, read only when its length equals the new one's (`nil` otherwise).
    var document: Data?
    var quarantined: Bool
  }

  /// The scene's latest snapshot. Its document is read only when its length could equal the new
  /// one's: a planted oversized document is never loaded, and compares unequal.
  private static func latest(of scene: String, _ db: Database, comparedWith document: Data)
    throws(SQLiteError) -> Latest?
  {
    try db.scalar(
      """
      SELECT s.id, s.saved_at, CASE WHEN length(s.document) = ?2 THEN s.document END,
        m.quarantine IS NOT NULL
      FROM snapshot s LEFT JOIN snapshot_mark m ON m.snapshot_id = s.id
      WHERE s.scene_id = ?1 ORDER BY s.id DESC LIMIT 1
      """,
      [.text(scene), .integer(Int64(document.count))]
    ) { row in
      Latest(
        id: row.int64(), savedAt: row.int64(), document: row.blob(), quarantined: row.int() != 0)
    }
  }

  /// Writes the snapshot unless it equals `latest` (its save time aside), then, with a
  /// `retention`, trims the scene's history to it.
  private static func insert(
    _ snapshot: SceneSnapshot, _ document: Data, scene: String, after latest: Latest?,
    retention: Int?, _ db: Database
  ) throws(SQLiteError) -> SaveResult {
    let savedAt = StoredTime.seconds(snapshot.metadata.savedAt)
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
    guard let retention else { return SaveResult(snapshotID: id, wrote: true) }
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
