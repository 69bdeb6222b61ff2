import Foundation
import Waypoint

extension SnapshotStore {
  /// Saves a snapshot as the scene's newest version, unless it equals the scene's latest snapshot
  /// (its save time aside), in which case nothing is written.
  ///
  /// Each save that writes is one `BEGIN IMMEDIATE` transaction. Once the scene holds more than
  /// ``StoreConfiguration/retention`` + ``StoreConfiguration/retentionSlack`` snapshots, that
  /// transaction also trims its history back to ``StoreConfiguration/retention`` (quarantined
  /// ones are kept). A save of an unchanged state that the connection already knows to be the
  /// latest takes no transaction at all. A save that returned is durable against an app crash
  /// (see ``StoreConfiguration/Durability`` for power loss), and holds no lock on the file.
  ///
  /// - Parameters:
  ///   - snapshot: The scene's navigation state.
  ///   - scene: On iOS, `UISceneSession.persistentIdentifier`; any string that ``SceneID`` accepts.
  /// - Throws: ``StoreError``: ``StoreError/Code/invalidSceneID`` for an id that
  ///   ``SceneID`` refuses, ``StoreError/Code/invalidSnapshot`` for a document over
  ///   ``/Waypoint/InputLimits/maxDocumentBytes`` or one that fails
  ///   ``/Waypoint/SceneSnapshot/check()``, ``StoreError/Code/busy`` when another process held
  ///   the lock past the busy timeout, ``StoreError/Code/diskFull``,
  ///   ``StoreError/Code/readOnly``, ``StoreError/Code/ioError``, ``StoreError/Code/corrupt``,
  ///   ``StoreError/Code/replaced`` or ``StoreError/Code/cannotOpen`` when the file is no longer
  ///   at the path. Nothing is written when it throws.
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
    return try withWritableDatabase { db throws(SQLiteError) in
      if let unchanged = try unchangedAnswer(document, scene: scene, db) { return unchanged }
      return try writing(db) { () throws(SQLiteError) in
        let latest = try latestSnapshot(of: scene, db)
        return try store(document, of: snapshot, scene: scene, after: latest, trimsHistory, db)
      }
    }
  }

  /// The document a save writes, with where its save time lies, after the checks that need no
  /// file: the scene id, the snapshot's own check, the size limit. Saves and imports both go
  /// through it.
  package static func document(of snapshot: SceneSnapshot, scene: String, limits: InputLimits)
    throws(StoreError) -> EncodedSnapshot
  {
    if let reason = SceneID.problem(with: scene) {
      throw .invalidSceneID(scene, reason: reason)
    }
    do {
      try snapshot.check()
    } catch {
      throw .invalidSnapshot(error)
    }
    let (document, savedAt) = snapshot.encodedLocatingSavedAt()
    guard document.count <= limits.maxDocumentBytes else {
      throw .invalidSnapshot(
        .tooLarge(byteCount: document.count, limit: limits.maxDocumentBytes))
    }
    return EncodedSnapshot(bytes: document, savedAt: savedAt, metadata: snapshot.metadata)
  }

  /// The answer to a save of an unchanged state, found without a transaction: the scene's latest
  /// snapshot as this connection knows it has the same document but for its save time, is not
  /// quarantined, and no other connection has committed since (`PRAGMA data_version`). `nil`
  /// when that is not certain: the save goes on in a transaction.
  private func unchangedAnswer(_ document: EncodedSnapshot, scene: String, _ db: Database)
    throws(SQLiteError) -> SaveResult?
  {
    guard let known = latestSnapshots[scene], !known.quarantined,
      document.equalsButForSaveTime(known.document)
    else { return nil }
    // A transaction left open by a failed COMMIT and ROLLBACK would show an older data_version.
    try db.rollBackLeftoverTransaction()
    guard try latestSnapshots.sync(db) else { return nil }
    return SaveResult(snapshotID: known.id, wrote: false)
  }

  /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`) after bringing the cache of each
  /// scene's latest snapshot up to date with the file (read under the write lock, so nobody can
  /// commit meanwhile). The cache is emptied when the transaction fails, so that nothing `body`
  /// recorded in it outlives a rollback.
  package func writing<T>(_ db: Database, _ body: () throws(SQLiteError) -> T)
    throws(SQLiteError) -> T
  {
    do {
      return try db.transaction(immediate: true) { () throws(SQLiteError) in
        try latestSnapshots.sync(db)
        return try body()
      }
    } catch {
      latestSnapshots.invalidate()
      throw error
    }
  }

  /// The scene's latest snapshot, from the cache or else from the file (and then cached); inside
  /// the save's write transaction.
  package func latestSnapshot(of scene: String, _ db: Database) throws(SQLiteError)
    -> LatestSnapshotCache.Entry?
  {
    if let known = latestSnapshots[scene] { return known }
    let limit = Int64(configuration.limits.maxDocumentBytes)
    // A planted oversized document is never loaded: it compares unequal to any save.
    let found = try db.scalar(
      """
      SELECT s.id, CASE WHEN length(s.document) <= ?2 THEN s.document END,
        m.quarantine IS NOT NULL
      FROM snapshot s LEFT JOIN snapshot_mark m ON m.snapshot_id = s.id
      WHERE s.scene_id = ?1 ORDER BY s.id DESC LIMIT 1
      """,
      [.text(scene), .integer(limit)]
    ) { row in
      LatestSnapshotCache.Entry(
        id: row.int64(), document: row.blob() ?? Data(), quarantined: row.int() != 0, count: 0)
    }
    guard var found else { return nil }
    found.count =
      try db.scalar("SELECT count(*) FROM snapshot WHERE scene_id = ?", [.text(scene)]) {
        $0.int()
      } ?? 0
    latestSnapshots[scene] = found
    return found
  }

  /// The rest of a save inside its transaction: nothing when `latest` is the same state (but for
  /// its save time, and not quarantined); otherwise the insert, then the trim by the rule of
  /// ``StoreConfiguration/retentionSlack``, recorded in the cache.
  package func store(
    _ document: EncodedSnapshot, of snapshot: SceneSnapshot, scene: String,
    after latest: LatestSnapshotCache.Entry?, _ trimsHistory: Bool, _ db: Database
  ) throws(SQLiteError) -> SaveResult {
    if let latest, !latest.quarantined, document.equalsButForSaveTime(latest.document) {
      return SaveResult(snapshotID: latest.id, wrote: false)
    }
    let id = try Self.insert(document.bytes, metadata: snapshot.metadata, scene: scene, db)
    var count = (latest?.count ?? 0) + 1
    // Trimmed only past the slack, then back to the retention: a DELETE on every save would
    // rewrite an old page, the index and the freelist each time.
    let retention = configuration.retention
    if trimsHistory && count - retention > configuration.retentionSlack {
      count -= try Self.trim(scene, to: retention, db)
    }
    latestSnapshots[scene] = LatestSnapshotCache.Entry(
      id: id, document: document.bytes, quarantined: false, count: count)
    return SaveResult(snapshotID: id, wrote: true)
  }

  /// Inserts the row of a snapshot whose document and metadata are given, and returns its id.
  /// Saves and imports both insert through it.
  package static func insert(
    _ document: Data, metadata: SnapshotMetadata, scene: String, _ db: Database
  ) throws(SQLiteError) -> Int64 {
    try db.run(
      """
      INSERT INTO snapshot (scene_id, saved_at, format, route_schema_version, app_build, document)
      VALUES (?, ?, ?, ?, ?, ?)
      """,
      [
        .text(scene), .integer(StoredTime.seconds(metadata.savedAt)),
        .integer(Int64(SceneSnapshot.currentFormatVersion)),
        .integer(Int64(metadata.routeSchemaVersion)), .text(metadata.appBuild), .blob(document),
      ])
    return db.lastInsertedRowID
  }

  /// Trims the scene's history to its `retention` newest unquarantined snapshots (quarantined ones
  /// are kept), with the marks of the snapshots deleted, and returns how many were deleted.
  private static func trim(_ scene: String, to retention: Int, _ db: Database)
    throws(SQLiteError) -> Int
  {
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
    return deleted
  }
}

/// A snapshot's document as a save writes it, with where its save time lies.
package struct EncodedSnapshot {
  /// The document (``/Waypoint/SceneSnapshot/encoded()``).
  package var bytes: Data
  /// Where the 20 bytes `YYYY-MM-DDTHH:MM:SSZ` of its `savedAt` lie.
  package var savedAt: Range<Int>
  /// The metadata the document holds.
  package var metadata: SnapshotMetadata

  /// Whether `stored` is this document but for its save time: the same length, the same bytes
  /// outside ``savedAt``, and a date of the same form inside it.
  package func equalsButForSaveTime(_ stored: Data) -> Bool {
    guard bytes.count == stored.count, savedAt.count == 20, savedAt.upperBound <= bytes.count
    else { return false }
    return bytes.withUnsafeBytes { new in
      stored.withUnsafeBytes { old in
        guard let newBase = new.baseAddress, let oldBase = old.baseAddress else { return false }
        let start = savedAt.lowerBound
        let end = savedAt.upperBound
        // The stored date must read as one: a row whose bytes differ only there is not taken
        // for the same state when that row's document would not read.
        return memcmp(newBase, oldBase, start) == 0
          && memcmp(newBase + end, oldBase + end, new.count - end) == 0
          && ISO8601Seconds.parse(String(decoding: old[start..<end], as: UTF8.self)) != nil
      }
    }
  }
}
