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
    return try insert(snapshot, checkedDocument: document, scene: scene, quarantine: quarantine)
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
    return try insert(snapshot, checkedDocument: document, scene: scene, quarantine: quarantine)
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
    return try insert(metadata, checkedDocument: document, scene: scene, quarantine: quarantine)
  }

  private func insert(
    _ snapshot: SceneSnapshot, checkedDocument document: Data, scene: String,
    quarantine: Quarantine?
  ) throws(StoreError) -> Int64 {
    try insert(snapshot.metadata, checkedDocument: document, scene: scene, quarantine: quarantine)
  }

  private func insert(
    _ metadata: SnapshotMetadata, checkedDocument document: Data, scene: String,
    quarantine: Quarantine?
  ) throws(StoreError) -> Int64 {
    do {
      try database.run(
        """
        INSERT INTO snapshot (scene_id, saved_at, format, route_schema_version, app_build, document)
        VALUES (?, ?, ?, ?, ?, ?)
        """,
        [
          .text(scene), .integer(StoredTime.seconds(metadata.savedAt)),
          .integer(Int64(SceneSnapshot.currentFormatVersion)),
          .integer(Int64(metadata.routeSchemaVersion)), .text(metadata.appBuild),
          .blob(document),
        ])
      let id = database.lastInsertedRowID
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
      do throws(StoreError) {
        return try body(SnapshotImporter(database: db, path: path, limits: limits))
          ? .commit : .rollback
      } catch {
        failure = error
        return .rollback
      }
    })
    if let failure { throw failure }
    return completion == .commit
  }
}
