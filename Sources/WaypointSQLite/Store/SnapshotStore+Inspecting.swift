import Foundation
import Waypoint

extension SnapshotStore {
  /// Where this store keeps its restore bookkeeping (see ``MarkColumns``).
  package var marks: MarkColumns { MarkColumns(schemaVersion: schemaVersion) }

  /// The columns ``info(_:)`` reads, in its order, of the snapshot `s`: use them with
  /// `FROM snapshot s` followed by `marks.join`.
  package var infoColumns: String { Self.infoColumns(marks) }

  /// The columns ``info(_:)`` reads, with the marks where `marks` says they are.
  package static func infoColumns(_ marks: MarkColumns) -> String {
    "s.id, s.scene_id, s.saved_at, s.format, s.route_schema_version, s.app_build, "
      + "\(marks.documentLength), \(marks.columns)"
  }

  /// Reads the columns of ``infoColumns`` (the mark columns in ``MarkColumns/columns``'s order).
  package static func info(_ row: inout Row) -> SnapshotInfo {
    let id = row.int64()
    let scene = row.text() ?? ""
    let savedAt = StoredTime.date(row.int64())
    let formatVersion = row.int()
    let routeSchemaVersion = row.int()
    let appBuild = row.text()
    let byteCount = row.int()
    let quarantineKind = row.text().flatMap(Quarantine.Kind.init(rawValue:))
    let quarantineDetail = row.text() ?? ""
    let quarantinedAt = StoredTime.date(row.int64())
    let unconfirmedRestores = row.int()
    // A threshold read from the file goes through the rule's clamp (1 or more) when it is used.
    let crashLoopThreshold = row.optionalInt64().map { Int(truncatingIfNeeded: $0) }
    return SnapshotInfo(
      id: id, scene: scene, savedAt: savedAt, formatVersion: formatVersion,
      routeSchemaVersion: routeSchemaVersion, appBuild: appBuild, byteCount: byteCount,
      quarantine: quarantineKind.map {
        Quarantine($0, detail: quarantineDetail, since: quarantinedAt)
      },
      unconfirmedRestores: unconfirmedRestores, crashLoopThreshold: crashLoopThreshold)
  }

  /// Reads the columns of ``infoColumns`` followed by the document as
  /// ``MarkColumns/document(within:)`` reads it (`limit` being `limits.maxDocumentBytes`): a
  /// document over the limit comes as ``StoredSnapshot/Document/tooLarge(byteCount:limit:)``,
  /// any other as its JSON.
  package static func storedSnapshot(_ row: inout Row, limits: InputLimits) -> StoredSnapshot {
    let info = info(&row)
    let limit = limits.maxDocumentBytes
    guard let bytes = row.blob(), info.byteCount <= limit else {
      guard info.byteCount <= limit else {
        return StoredSnapshot(
          info: info, document: .tooLarge(byteCount: info.byteCount, limit: limit))
      }
      return StoredSnapshot(info: info, document: .read(Data()))
    }
    return StoredSnapshot(info: info, document: .read(bytes))
  }

  /// The scene's snapshots, newest first.
  ///
  /// - Throws: ``StoreError`` when the store cannot be read.
  public func history(scene: String) throws(StoreError) -> [SnapshotInfo] {
    try read { db throws(SQLiteError) in
      try db.rows(
        """
        SELECT \(infoColumns) FROM snapshot s\(marks.join) WHERE s.scene_id = ? ORDER BY s.id DESC
        """,
        [.text(scene)]
      ) { row in Self.info(&row) }
    }
  }

  /// One snapshot with its document, or `nil` when no snapshot has this id.
  ///
  /// A document over the configuration's `limits.maxDocumentBytes` is not read into memory (its
  /// length is checked first, in the same statement): it comes as
  /// ``StoredSnapshot/Document/tooLarge(byteCount:limit:)``, as when the tools stream a store.
  ///
  /// - Throws: ``StoreError`` when the store cannot be read.
  public func snapshot(id: Int64) throws(StoreError) -> StoredSnapshot? {
    let limit = configuration.limits.maxDocumentBytes
    return try read { db throws(SQLiteError) in
      try db.scalar(
        """
        SELECT \(infoColumns), \(marks.document(within: "?1"))
        FROM snapshot s\(marks.join) WHERE s.id = ?2
        """,
        [.integer(Int64(limit)), .integer(id)]
      ) { row in Self.storedSnapshot(&row, limits: configuration.limits) }
    }
  }

  /// Every scene with its latest snapshot, sorted by scene id. A latest document over the size limit
  /// is not read; its scene's ``SceneSummary/stackDepths`` are empty.
  public func scenes() throws(StoreError) -> [SceneSummary] {
    let limits = configuration.limits
    let marks = marks
    let infoColumns = infoColumns
    return try read { db throws(SQLiteError) in
      try db.rows(
        """
        SELECT \(infoColumns),
          c.total, \(marks.quarantinedInScene), \(marks.document(within: "?1"))
        FROM snapshot s JOIN (
          SELECT scene_id, max(id) AS latest, count(*) AS total
          FROM snapshot GROUP BY scene_id) c ON s.id = c.latest\(marks.join)
        ORDER BY s.scene_id
        """,
        // A document over the limit is not read into memory; its stack depths are left out.
        [.integer(Int64(limits.maxDocumentBytes))]
      ) { row in
        let latest = Self.info(&row)
        let snapshotCount = row.int()
        let quarantinedCount = row.int()
        let depths = row.blob()
          .flatMap { try? SceneSnapshot(decoding: $0, limits: limits) }?.stacks.mapValues(\.count)
        return SceneSummary(
          id: latest.scene, latest: latest, snapshotCount: snapshotCount,
          quarantinedCount: quarantinedCount, stackDepths: depths ?? [:])
      }
    }
  }

  /// Counts and sizes of the whole store.
  public func statistics() throws(StoreError) -> StoreStatistics {
    try read { db throws(SQLiteError) in
      var statistics =
        try db.scalar(
          """
          SELECT count(DISTINCT scene_id), count(*), \(marks.quarantinedInStore),
            coalesce(sum(\(marks.documentLength)), 0), min(saved_at), max(saved_at)
          FROM snapshot s
          """
        ) { row in
          StoreStatistics(
            sceneCount: row.int(), snapshotCount: row.int(), quarantinedCount: row.int(),
            documentBytes: row.int(), fileBytes: 0,
            oldest: row.optionalInt64().map(StoredTime.date),
            newest: row.optionalInt64().map(StoredTime.date))
        }
        ?? StoreStatistics(
          sceneCount: 0, snapshotCount: 0, quarantinedCount: 0, documentBytes: 0, fileBytes: 0)
      let pages = try db.scalar("PRAGMA page_count") { $0.int() } ?? 0
      let pageSize = try db.scalar("PRAGMA page_size") { $0.int() } ?? 0
      statistics.fileBytes = pages * pageSize
      return statistics
    }
  }

  /// Quarantined snapshots of every scene, newest first.
  public func quarantined() throws(StoreError) -> [SnapshotInfo] {
    try read { db throws(SQLiteError) in
      try db.rows(
        """
        SELECT \(infoColumns) FROM snapshot s\(marks.join)
        WHERE \(marks.quarantine) IS NOT NULL ORDER BY s.id DESC
        """
      ) { row in Self.info(&row) }
    }
  }
}
