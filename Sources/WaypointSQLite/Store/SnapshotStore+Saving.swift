import Foundation
import Waypoint

extension SnapshotStore {
  /// Saves a snapshot as the scene's newest version, unless it equals the scene's latest snapshot
  /// (its save time aside), in which case nothing is written.
  ///
  /// Each save that writes is one `BEGIN IMMEDIATE` transaction. Once the scene holds more than
  /// ``StoreConfiguration/retention`` + ``StoreConfiguration/retentionSlack`` snapshots, that
  /// transaction also trims its history back to ``StoreConfiguration/retention`` (quarantined
  /// ones are kept). A save of an unchanged state (equal documents but for `savedAt`) that the
  /// connection already knows to be the latest takes no transaction at all. A save that returned
  /// is durable against an app crash; see ``StoreConfiguration/Durability`` for power loss.
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
    let saved = try save(snapshot, scene: scene, expecting: nil, trimsHistory: trimsHistory)
    // Unreachable: without an expected latest snapshot, every save has a result.
    guard let saved else { throw .readOnly(path: path, detail: "the save was not made") }
    return saved
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
    try save(snapshot, scene: scene, expecting: expected, trimsHistory: trimsHistory)
  }

  /// The one save, in one hold of the store's lock: answers from the connection's cache of the
  /// scene's latest snapshot when it can (an unchanged state: nothing encoded, no transaction),
  /// otherwise encodes the snapshot once, into the store's ``documentBuffer``, inserts it in a
  /// write transaction and trims the history by the rule of
  /// ``StoreConfiguration/retentionSlack``.
  private func save(
    _ snapshot: SceneSnapshot, scene: String, expecting expected: Int64?, trimsHistory: Bool
  ) throws(StoreError) -> SaveResult? {
    let key = LatestSnapshotCache.Key(scene)
    let limits = configuration.limits
    let retention = configuration.retention
    let slack = configuration.retentionSlack
    let buffer = documentBuffer
    return try locked { () throws(StoreError) -> SaveResult? in
      // The same state as the latest snapshot this connection saved: answered without encoding
      // (that snapshot passed the checks, and this one encodes to the same bytes).
      // The id of a latest snapshot this connection saved that this one was found to differ from:
      // `encodesLike` is exact, so their documents differ too and need no comparing (rows never
      // change once written).
      var found: Int64?
      // Whether the cache holds the scene: it holds only scenes whose id passed the check (each
      // entry was made by a save), and the same bytes pass it again.
      var known = false
      let unchanged = try answerSaveLocked { cache -> SaveResult?? in
        guard let latest = cache[key] else { return nil }
        known = true
        guard let saved = latest.saved else { return nil }
        if let expected, latest.id != expected { return .some(nil) }
        guard !latest.quarantined else { return nil }
        guard saved.isEncoded(like: snapshot) else {
          found = latest.id
          return nil
        }
        return .some(SaveResult(snapshotID: latest.id, wrote: false))
      }
      if let unchanged { return unchanged }
      // A constant for the closures below: a variable they captured would be checked for
      // exclusive access at run time at every read.
      let differs = found
      // A document once large keeps nothing large alive, whether it was saved or refused (over
      // the size limit, it was encoded whole first).
      defer { buffer.release(above: Self.documentBufferKept) }
      let (savedAt, jsonLength) = try Self.encode(
        snapshot, scene: scene, sceneChecked: known, limits: limits, into: buffer)
      return try buffer.withBytes { document throws(StoreError) -> SaveResult? in
        /// The answer when `latest` decides the save without writing.
        func answer(_ latest: LatestSnapshotCache.Entry?) -> SaveResult?? {
          if let expected, latest?.id != expected { return .some(nil) }
          guard let latest, !latest.quarantined else { return nil }
          if let saved = latest.saved {
            // A snapshot this connection saved: compared as the unchanged-state answer compares,
            // unless it was already found to differ.
            guard latest.id != differs, saved.isEncoded(like: snapshot) else { return nil }
          } else {
            guard let stored = latest.document,
              LatestSnapshotCache.equalButForSaveTime(document, stored, savedAt: savedAt)
            else { return nil }
          }
          return .some(SaveResult(snapshotID: latest.id, wrote: false))
        }
        return try saveLocked(
          lookUp: { cache in
            // Already found to differ from the scene's latest snapshot: nothing to look up.
            guard differs == nil, let latest = cache[key], let decided = answer(latest) else {
              return .write
            }
            return .answered(decided)
          },
          { db, cache throws(SQLiteError) -> SaveResult? in
            // The scene's entry, updated where the cache holds it.
            try cache.update(key) { latest throws(SQLiteError) -> SaveResult? in
              if latest == nil { latest = try Self.latest(of: scene, db, length: document.count) }
              if let decided = answer(latest) { return decided }
              let id = try Self.insert(
                document, jsonLength: jsonLength, metadata: snapshot.metadata, scene: scene, db)
              var count = (latest?.count ?? 0) + 1
              // Trimmed only past the slack, then back to the retention: a DELETE on every save
              // rewrote an old page, the index and the freelist each time.
              if trimsHistory && count - retention > slack {
                count -= try Self.trim(scene, to: retention, db)
              }
              // The document is not kept: the snapshot stands for it (`encodesLike`), and the
              // buffer holding it is the next save's.
              latest = LatestSnapshotCache.Entry(
                id: id, document: nil, quarantined: false, count: count,
                saved: LatestSnapshotCache.Saved(snapshot))
              return SaveResult(snapshotID: id, wrote: true)
            }
          })
      }
    }
  }

  /// The most memory ``documentBuffer`` keeps after a save: documents are a few KiB; one that
  /// needed more (the writer grows its memory by doubling, and reserves room for the worst case
  /// of a string's escapes) is encoded into memory freed after its save.
  static let documentBufferKept = 64 * 1024

  /// The checks of a snapshot to be written that need no file: the scene id (unless
  /// `sceneChecked`: an id that passed already), the snapshot's own check. Saves and imports both
  /// go through them.
  private static func check(_ snapshot: SceneSnapshot, scene: String, sceneChecked: Bool = false)
    throws(StoreError)
  {
    if !sceneChecked, let reason = SceneID.problem(with: scene) {
      throw .invalidSceneID(scene, reason: reason)
    }
    do {
      try snapshot.check()
    } catch {
      throw .invalidSnapshot(error)
    }
  }

  /// Refuses a document whose JSON (tags included) is `jsonLength` bytes when that is over
  /// `limits.maxDocumentBytes`.
  private static func checkSize(_ jsonLength: Int, limits: InputLimits) throws(StoreError) {
    let limit = limits.maxDocumentBytes
    guard jsonLength <= limit else {
      throw .invalidSnapshot(.tooLarge(byteCount: jsonLength, limit: limit))
    }
  }

  /// Encodes the document a save writes, in its stored form (``/Waypoint/StoredDocument``), into
  /// `buffer`, after ``check(_:scene:sceneChecked:)``, and refuses it over the size limit
  /// (``checkSize(_:limits:)``).
  ///
  /// - Returns: where the document's save time lies, and its length as JSON.
  private static func encode(
    _ snapshot: SceneSnapshot, scene: String, sceneChecked: Bool, limits: InputLimits,
    into buffer: DocumentBuffer
  ) throws(StoreError) -> (savedAt: Range<Int>, jsonLength: Int) {
    try check(snapshot, scene: scene, sceneChecked: sceneChecked)
    let encoded = snapshot.encodeLocatingSavedAt(storedForm: true, into: buffer)
    try checkSize(encoded.jsonCount, limits: limits)
    return (encoded.savedAt, encoded.jsonCount)
  }

  /// The document a save writes, in its stored form (``/Waypoint/StoredDocument``), with where
  /// its save time lies and its length as JSON, after the checks that need no file: the scene id,
  /// the snapshot's own check, the size limit (the document's JSON, tags included). Imports go
  /// through it.
  static func documentLocatingSavedAt(
    of snapshot: SceneSnapshot, scene: String, limits: InputLimits
  ) throws(StoreError) -> (document: Data, savedAt: Range<Int>, jsonLength: Int) {
    try check(snapshot, scene: scene)
    let encoded = snapshot.encodedLocatingSavedAt(storedForm: true)
    try checkSize(encoded.jsonCount, limits: limits)
    return (encoded.document, encoded.savedAt, encoded.jsonCount)
  }

  /// The scene's latest snapshot and its number of snapshots, read when the connection's cache
  /// does not know them. The document is read only when its length equals `length`, the new
  /// one's: a planted oversized document is never loaded, and compares unequal.
  private static func latest(of scene: String, _ db: Database, length: Int)
    throws(SQLiteError) -> LatestSnapshotCache.Entry?
  {
    let found = try db.scalar(
      """
      SELECT s.id, CASE WHEN length(s.document) = ?2 THEN s.document END,
        m.quarantine IS NOT NULL
      FROM snapshot s LEFT JOIN snapshot_mark m ON m.snapshot_id = s.id
      WHERE s.scene_id = ?1 ORDER BY s.id DESC LIMIT 1
      """,
      [.text(scene), .integer(Int64(length))]
    ) { row in
      LatestSnapshotCache.Entry(
        id: row.int64(), document: row.blob(), quarantined: row.int() != 0, count: 0,
        saved: nil)
    }
    guard var found else { return nil }
    found.count =
      try db.scalar("SELECT count(*) FROM snapshot WHERE scene_id = ?", [.text(scene)]) {
        $0.int()
      } ?? 0
    return found
  }

  /// Inserts the row of a snapshot whose document (in its stored form, `jsonLength` bytes as
  /// JSON) and metadata are given, and returns its id. Saves and imports both insert through it.
  static func insert(
    _ document: UnsafeRawBufferPointer, jsonLength: Int, metadata: SnapshotMetadata,
    scene: String, _ db: Database
  ) throws(SQLiteError) -> Int64 {
    // Found by its literal and bound value by value: no text hashed, no array of values made.
    let statement = try db.statement(
      literal: """
        INSERT INTO snapshot (
          scene_id, saved_at, format, route_schema_version, app_build, document, document_length)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """)
    // The scene id, the app's build and the document are bound where they are, not copied by
    // SQLite, and the statement reset (which clears the bindings) before the closures that lend
    // their bytes return.
    var scene = scene
    var build = metadata.appBuild ?? ""
    let stepped = scene.withUTF8 { sceneBytes in
      build.withUTF8 { buildBytes -> SQLiteError? in
        defer { statement.reset() }
        do throws(SQLiteError) {
          try statement.bind(borrowingText: sceneBytes, at: 1)
          try bindNumbers(metadata, to: statement, at: 2)
          if metadata.appBuild == nil {
            try statement.bind(.null, at: 5)
          } else {
            try statement.bind(borrowingText: buildBytes, at: 5)
          }
          try statement.bind(borrowing: document, at: 6)
          try statement.bind(integer: Int64(jsonLength), at: 7)
          _ = try statement.step()
          return nil
        } catch {
          return error
        }
      }
    }
    if let stepped { throw stepped }
    return db.lastInsertedRowID
  }

  /// Binds a row's `scene_id, saved_at, format, route_schema_version, app_build, document,
  /// document_length`, in that order, from parameter `first` on (the bulk import's rows).
  static func bindRow(
    _ document: Data, jsonLength: Int, metadata: SnapshotMetadata, scene: String,
    to statement: Statement, at first: Int32
  ) throws(SQLiteError) {
    try bindColumns(metadata: metadata, scene: scene, to: statement, at: first)
    try statement.bind(.blob(document), at: first + 5)
    try statement.bind(.integer(Int64(jsonLength)), at: first + 6)
  }

  /// Binds a row's `scene_id, saved_at, format, route_schema_version, app_build` from parameter
  /// `first` on: ``bindRow(_:jsonLength:metadata:scene:to:at:)`` without the document.
  private static func bindColumns(
    metadata: SnapshotMetadata, scene: String, to statement: Statement, at first: Int32
  ) throws(SQLiteError) {
    try statement.bind(.text(scene), at: first)
    try bindNumbers(metadata, to: statement, at: first + 1)
    try statement.bind(.text(metadata.appBuild), at: first + 4)
  }

  /// Binds a row's `saved_at, format, route_schema_version` from parameter `first` on: the save's
  /// insert and the bulk import's rows (each binds `app_build` its own way).
  private static func bindNumbers(
    _ metadata: SnapshotMetadata, to statement: Statement, at first: Int32
  ) throws(SQLiteError) {
    try statement.bind(integer: StoredTime.seconds(metadata.savedAt), at: first)
    try statement.bind(integer: Int64(SceneSnapshot.currentFormatVersion), at: first + 1)
    try statement.bind(integer: Int64(metadata.routeSchemaVersion), at: first + 2)
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
