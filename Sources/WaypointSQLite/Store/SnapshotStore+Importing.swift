import Foundation
import Waypoint

extension Quarantine {
  /// Creates a quarantine mark, for snapshots inserted with
  /// ``SnapshotImporter/insert(_:scene:quarantine:)``. `since` is stored in whole seconds.
  package init(_ kind: Kind, detail: String, since: Date) {
    self.kind = kind
    self.detail = detail
    self.since = since
  }
}

/// Inserts snapshots as they are, inside the one transaction of
/// ``SnapshotStore/importSnapshots(_:)``. Valid only inside that call.
package struct SnapshotImporter {
  let database: Database
  let path: String
  let limits: InputLimits
  /// The rows of an import into a new store, inserted many at a time (``BulkImport``); `nil`
  /// inserts each row as a save does.
  var bulk: BulkImport? = nil

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
    let written = try SnapshotStore.documentLocatingSavedAt(
      of: snapshot, scene: scene, limits: limits)
    return try insert(
      snapshot.metadata, stored: written.document, jsonLength: written.jsonLength, scene: scene,
      quarantine: quarantine)
  }

  /// Inserts `snapshot` as ``insert(_:scene:quarantine:)`` does, with its document already written:
  /// `document` must be `snapshot.encoded()` of a snapshot that passed
  /// ``/Waypoint/SceneSnapshot/check()`` (a tool that checked every snapshot before the store was
  /// opened need not encode it twice).
  ///
  /// - Throws: as ``insert(_:scene:quarantine:)``.
  @discardableResult
  package func insert(
    _ snapshot: SceneSnapshot, document: Data, scene: String, quarantine: Quarantine? = nil
  ) throws(StoreError) -> Int64 {
    if let reason = SceneID.problem(with: scene) { throw .invalidSceneID(scene, reason: reason) }
    guard document.count <= limits.maxDocumentBytes else {
      throw .invalidSnapshot(.tooLarge(byteCount: document.count, limit: limits.maxDocumentBytes))
    }
    return try insert(snapshot.metadata, json: document, scene: scene, quarantine: quarantine)
  }

  /// Inserts a snapshot as ``insert(_:document:scene:quarantine:)`` does, given its document and
  /// the metadata the document holds (a tool that recognised the document on its bytes need not
  /// build the snapshot).
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
    return try insert(metadata, json: document, scene: scene, quarantine: quarantine)
  }

  /// Inserts a checked document, JSON as ``/Waypoint/SceneSnapshot/encoded()`` writes it, in its
  /// stored form (``/Waypoint/StoredDocument``).
  private func insert(
    _ metadata: SnapshotMetadata, json document: Data, scene: String, quarantine: Quarantine?
  ) throws(StoreError) -> Int64 {
    let stored = StoredDocument.elidingRepeatedTags(document, limits: limits)
    return try insert(
      metadata, stored: stored, jsonLength: document.count, scene: scene, quarantine: quarantine)
  }

  /// Inserts a checked document given in its stored form, `jsonLength` bytes as JSON.
  private func insert(
    _ metadata: SnapshotMetadata, stored document: Data, jsonLength: Int, scene: String,
    quarantine: Quarantine?
  ) throws(StoreError) -> Int64 {
    do {
      let id: Int64
      if let bulk, !bulk.finished {
        id = try bulk.insert(document, jsonLength: jsonLength, metadata: metadata, scene: scene)
      } else {
        // The save's own insert: prepared once, found by its literal's address.
        id = try document.withUnsafeBytes { bytes in
          Result { () throws(SQLiteError) in
            try SnapshotStore.insert(
              bytes, jsonLength: jsonLength, metadata: metadata, scene: scene, database)
          }
        }.get()
      }
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
      // Counted on the scene index, which a bulk import builds first.
      try bulk?.finish()
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
    try importSnapshots(inBulk: false, body)
  }

  /// ``importSnapshots(_:)``, with the rows inserted by a ``BulkImport`` when `inBulk` is `true`
  /// and the store's `snapshot` table is empty (and as expected).
  private func importSnapshots(
    inBulk: Bool, _ body: (SnapshotImporter) throws(StoreError) -> Bool
  ) throws(StoreError) -> Bool {
    var failure: StoreError?
    let limits = configuration.limits
    let path = path
    let completion = try write(completion: {
      db throws(SQLiteError) -> Database.TransactionCompletion in
      var importer = SnapshotImporter(database: db, path: path, limits: limits)
      if inBulk { importer.bulk = try BulkImport.begin(db) }
      let committing: Bool
      do throws(StoreError) {
        committing = try body(importer)
      } catch {
        failure = error
        return .rollback
      }
      guard committing else { return .rollback }
      try importer.bulk?.finish()
      return .commit
    })
    if let failure { throw failure }
    return completion == .commit
  }
}

extension SnapshotStore {
  /// The page cache of ``importSnapshotsIntoNewFile(_:)``, in KiB: enough to keep the scene index of
  /// a large import in memory, so that its pages are written once rather than each time the cache
  /// spills.
  static let newFileImportCacheKiB = 16_384

  /// Runs `body` as ``importSnapshots(_:)`` does, in a store that nobody else can see yet: one the
  /// caller has just created under a temporary name, puts in place only when this returns `true`,
  /// and removes otherwise.
  ///
  /// Such a file needs no write-ahead log while it is built: the transaction runs with its journal
  /// in memory (a rollback still undoes it), without SQLite's `fsync`, and with a large page cache,
  /// so that every page is written once, to the file itself, instead of to the WAL and again at
  /// the checkpoint; meanwhile a thread of its own flushes the file to the disk again and again
  /// (`StoreFile.BackgroundFlush`), so that the disk writes the pages while the import goes on
  /// rather than all of them at the end. The rows are inserted many to a statement and the indexes
  /// of `snapshot` built once at the end, from the finished table (`BulkImport`: the same rows,
  /// ids and schema, in the same order). Once it ends, committed or not, the store's own settings
  /// are back (WAL, its `synchronous` level, its page cache) and, when committed, the file has
  /// been flushed to the disk: what the caller names is a store like any other, complete on the
  /// disk.
  ///
  /// A store that already holds a snapshot, or whose journal cannot leave WAL (another connection
  /// has it open), is imported into the usual way, by ``importSnapshots(_:)``.
  ///
  /// - Returns: whether the import was committed.
  /// - Throws: as ``importSnapshots(_:)``, and ``StoreError`` when the settings cannot be put back
  ///   or the file cannot be flushed (the caller then removes the file).
  @discardableResult
  package func importSnapshotsIntoNewFile(
    _ body: (SnapshotImporter) throws(StoreError) -> Bool
  ) throws(StoreError) -> Bool {
    guard access == .readWrite, let saved = try buildSettings() else {
      return try importSnapshots(body)
    }
    let committed: Bool
    // The disk writes the pages as they come rather than all at the end.
    let flush = StoreFile.BackgroundFlush(path: path)
    var flushFailure: Int32?
    do {
      defer { flushFailure = flush?.stop() ?? nil }
      committed = try importSnapshots(inBulk: true, body)
    } catch {
      try? restoreSettings(saved)
      throw error
    }
    try restoreSettings(saved)
    if committed {
      // A write-back error that an early flush saw is not seen again by the final one.
      if let code = flushFailure {
        throw StoreFile.error(code, path: path, doing: "flush the new store")
      }
      try StoreFile.flush(path, what: "the new store")
    }
    return committed
  }

  /// The settings a store is built with, where it is empty and its journal can leave WAL.
  ///
  /// - Returns: the store's own `synchronous` level and page cache, to be put back; `nil`, with
  ///   nothing changed, for a store that holds snapshots or stays in WAL.
  private func buildSettings() throws(StoreError) -> (synchronous: Int64, cacheSize: Int64)? {
    try withDatabase { db throws(SQLiteError) -> (synchronous: Int64, cacheSize: Int64)? in
      guard try db.scalar("SELECT 1 FROM snapshot LIMIT 1", [], { _ in true }) == nil,
        try db.scalar("SELECT 1 FROM snapshot_mark LIMIT 1", [], { _ in true }) == nil
      else { return nil }
      let synchronous = try db.scalar("PRAGMA synchronous") { $0.int64() } ?? 1
      let cacheSize = try db.scalar("PRAGMA cache_size") { $0.int64() } ?? -2000
      // The background checkpoints' connection would keep the journal in WAL; a later commit
      // that fills the WAL starts them again.
      db.checkpointer?.stop()
      let mode: String?
      do throws(SQLiteError) {
        mode = try db.setJournalMode("MEMORY")
      } catch  where error.code.primary == .busy || error.code.primary == .locked {
        // Another connection has the file open: it keeps its WAL.
        return nil
      }
      guard mode == "memory" else { return nil }
      try db.execute("PRAGMA synchronous = OFF")
      try db.execute("PRAGMA cache_size = -\(Self.newFileImportCacheKiB)")
      return (synchronous, cacheSize)
    }
  }

  /// Puts back what ``buildSettings()`` changed: the store's own `synchronous` level (first, so
  /// that the switch to WAL is itself synchronized) and page cache, then the journal in WAL.
  private func restoreSettings(_ saved: (synchronous: Int64, cacheSize: Int64))
    throws(StoreError)
  {
    try withDatabase { db throws(SQLiteError) in
      try db.execute("PRAGMA synchronous = \(saved.synchronous)")
      try db.execute("PRAGMA cache_size = \(saved.cacheSize)")
      let mode = try db.setJournalMode("WAL")
      guard mode == "wal" else {
        throw SQLiteError(
          code: .ioError, message: "journal_mode=WAL answered \(mode ?? "nothing")")
      }
    }
  }
}
