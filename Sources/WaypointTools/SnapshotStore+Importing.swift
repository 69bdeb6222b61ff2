import Foundation
import Waypoint
import WaypointSQLite

/// Inserts snapshots as they are, inside the one transaction of
/// ``SnapshotStore/importSnapshots(_:)``. Valid only inside that call.
package struct SnapshotImporter {
  let database: Database
  let path: String
  let limits: InputLimits

  /// Inserts `snapshot` as a new snapshot of `scene`, with its own save time and, if given, its
  /// quarantine mark. Unlike ``SnapshotStore/save(_:scene:)`` it never compares with the scene's
  /// latest snapshot and never trims the scene's history: the store holds what was imported.
  ///
  /// - Returns: the new snapshot's id.
  /// - Throws: ``StoreError/Code/invalidSceneID`` for an id that ``SceneID`` refuses;
  ///   ``StoreError/Code/invalidSnapshot`` for a snapshot that fails
  ///   ``/Waypoint/SceneSnapshot/check()`` or is over `limits.maxDocumentBytes`; otherwise as `save`.
  ///   The whole import is then rolled back.
  @discardableResult
  package func insert(_ snapshot: SceneSnapshot, scene: String, quarantine: Quarantine? = nil)
    throws(StoreError) -> Int64
  {
    let document = try SnapshotStore.document(of: snapshot, scene: scene, limits: limits)
    return try insert(document.bytes, metadata: snapshot.metadata, scene: scene, quarantine)
  }

  /// Inserts a snapshot as ``insert(_:scene:quarantine:)`` does, given its document already
  /// written and the metadata it holds: `document` must be ``/Waypoint/SceneSnapshot/encoded()``
  /// of a snapshot that passed ``/Waypoint/SceneSnapshot/check()`` (a tool that read and checked
  /// every snapshot before the store was opened need not encode it twice).
  ///
  /// - Throws: as ``insert(_:scene:quarantine:)``.
  @discardableResult
  package func insert(
    document: Data, metadata: SnapshotMetadata, scene: String, quarantine: Quarantine? = nil
  ) throws(StoreError) -> Int64 {
    if let reason = SceneID.problem(with: scene) { throw .invalidSceneID(scene, reason: reason) }
    guard document.count <= limits.maxDocumentBytes else {
      throw .invalidSnapshot(.tooLarge(byteCount: document.count, limit: limits.maxDocumentBytes))
    }
    return try insert(document, metadata: metadata, scene: scene, quarantine)
  }

  /// Inserts a checked document with its quarantine mark.
  private func insert(
    _ document: Data, metadata: SnapshotMetadata, scene: String, _ quarantine: Quarantine?
  ) throws(StoreError) -> Int64 {
    do {
      let id = try SnapshotStore.insert(document, metadata: metadata, scene: scene, database)
      if let quarantine {
        try database.run(
          """
          INSERT INTO snapshot_mark (
            snapshot_id, scene_id, quarantine, quarantine_detail, quarantined_at)
          VALUES (?, ?, ?, ?, ?)
          """,
          [
            .integer(id), .text(scene), .text(quarantine.kind.rawValue), .text(quarantine.detail),
            .integer(StoredTime.seconds(quarantine.since)),
          ])
      }
      return id
    } catch {
      throw StoreError(error, path: path)
    }
  }

  /// How many scenes the store holds, as the import's transaction sees it (scene ids told apart by
  /// their bytes). In a new store, the scenes imported.
  package func sceneCount() throws(StoreError) -> Int {
    do {
      return try database.scalar("SELECT count(DISTINCT scene_id) FROM snapshot") { $0.int() } ?? 0
    } catch {
      throw StoreError(error, path: path)
    }
  }
}

extension SnapshotStore {
  /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`) with an importer that inserts
  /// snapshots as they are (see ``SnapshotImporter/insert(_:scene:quarantine:)``), for tools that
  /// import snapshots exported from another store.
  ///
  /// Everything `body` inserted is committed when it returns `true`. When it returns `false`, or
  /// throws, nothing is written. `body` runs while the store's lock is held, so it must not call the
  /// store; the importer must not outlive it.
  ///
  /// - Returns: whether the import was committed.
  /// - Throws: ``StoreError``: what an insert or `body` threw, or what committing threw (`busy`,
  ///   `diskFull`, …). Nothing is written when it throws.
  @discardableResult
  package func importSnapshots(_ body: (SnapshotImporter) throws(StoreError) -> Bool)
    throws(StoreError) -> Bool
  {
    var failure: StoreError?
    let limits = configuration.limits
    let path = path
    let completion = try write(completion: {
      db throws(SQLiteError) -> Database.TransactionCompletion in
      let importer = SnapshotImporter(database: db, path: path, limits: limits)
      do throws(StoreError) {
        return try body(importer) ? .commit : .rollback
      } catch {
        failure = error
        return .rollback
      }
    })
    if let failure { throw failure }
    return completion == .commit
  }

  /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`) that ends as `body` answers: committed
  /// or rolled back.
  ///
  /// The connection's page cache is ``importCacheKiB`` for the transaction, then what it was (when
  /// setting it back fails, the connection keeps the larger cache: memory, not data, and the
  /// import stands).
  ///
  /// - Returns: how the transaction ended.
  private func write(
    completion body: (Database) throws(SQLiteError) -> Database.TransactionCompletion
  )
    throws(StoreError) -> Database.TransactionCompletion
  {
    try withWritableDatabase { db throws(SQLiteError) in
      forgetLatestSnapshots()
      let cache = try db.scalar("PRAGMA cache_size") { $0.int64() }
      try db.execute("PRAGMA cache_size = -\(Self.importCacheKiB)")
      defer { if let cache { try? db.execute("PRAGMA cache_size = \(cache)") } }
      return try db.inTransaction(immediate: true) { () throws(SQLiteError) in try body(db) }
    }
  }

  /// The page cache of an import's transaction, in KiB. The transaction holds every row it
  /// inserts, and rows of scenes in no order land all over the scene index: with SQLite's default
  /// of 2 MiB the pages it changes spill to the WAL before the commit and are read back to be
  /// changed again (50,000 lines: 77,082 writes and 42,569 reads of the files, against 52,157 and
  /// 17,366 with this cache, the writes and reads of the commit and its checkpoint alone).
  static let importCacheKiB = 16_384
}
