import Foundation
import Waypoint

extension SnapshotStore {
  /// Where this store keeps its restore bookkeeping (see ``MarkColumns``).
  var marks: MarkColumns { MarkColumns(schemaVersion: schemaVersion) }

  /// The columns ``info(_:)`` reads, in its order, of the snapshot `s`: use them with
  /// `FROM snapshot s` followed by `marks.join`.
  var infoColumns: String {
    "s.id, s.scene_id, s.saved_at, s.format, s.route_schema_version, s.app_build, "
      + "length(s.document), \(marks.columns)"
  }

  static func info(_ row: Statement) -> SnapshotInfo {
    let column: Int32 = 0
    let quarantine = row.text(column + 7).flatMap(Quarantine.Kind.init(rawValue:)).map { kind in
      Quarantine(
        kind: kind, detail: row.text(column + 8) ?? "",
        since: StoredTime.date(row.int64(column + 9)))
    }
    return SnapshotInfo(
      id: row.int64(column), scene: row.text(column + 1) ?? "",
      savedAt: StoredTime.date(row.int64(column + 2)),
      formatVersion: row.int(column + 3), routeSchemaVersion: row.int(column + 4),
      appBuild: row.text(column + 5), byteCount: row.int(column + 6), quarantine: quarantine,
      unconfirmedRestores: row.int(column + 10))
  }

  /// The scene's snapshots, newest first.
  ///
  /// - Throws: ``StoreError`` when the store cannot be read.
  public func history(scene: String) throws(StoreError) -> [SnapshotInfo] {
    try read { db throws(SQLiteError) in
      var infos: [SnapshotInfo] = []
      try db.query(
        """
        SELECT \(infoColumns) FROM snapshot s\(marks.join) WHERE s.scene_id = ? ORDER BY s.id DESC
        """,
        [.text(scene)]
      ) { row throws(SQLiteError) in infos.append(Self.info(row)) }
      return infos
    }
  }

  /// One snapshot with its document, or `nil` when no snapshot has this id.
  ///
  /// A document over the configuration's `limits.maxDocumentBytes` is not read into memory (its
  /// length is checked first, in the same statement): it comes with an empty `document`, and its
  /// ``SnapshotInfo/byteCount`` gives its real size, as in ``forEachSnapshot(_:)``.
  ///
  /// - Throws: ``StoreError`` when the store cannot be read.
  public func snapshot(id: Int64) throws(StoreError) -> StoredSnapshot? {
    let byteLimit = Int64(configuration.limits.maxDocumentBytes)
    return try read { db throws(SQLiteError) in
      var stored: StoredSnapshot?
      try db.query(
        """
        SELECT \(infoColumns), CASE WHEN length(s.document) <= ? THEN s.document END
        FROM snapshot s\(marks.join) WHERE s.id = ?
        """,
        [.integer(byteLimit), .integer(id)]
      ) {
        row throws(SQLiteError) in
        stored = StoredSnapshot(info: Self.info(row), document: row.blob(11) ?? Data())
      }
      return stored
    }
  }

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
    let limit = configuration.limits.maxDocumentBytes
    guard stored.info.byteCount <= limit else {
      throw .invalidSnapshot(.tooLarge(byteCount: stored.info.byteCount, limit: limit))
    }
    var snapshot: SceneSnapshot
    do {
      snapshot = try SceneSnapshot(decoding: stored.document, limits: configuration.limits)
    } catch {
      throw .invalidSnapshot(error)
    }
    snapshot.metadata.savedAt = Date()
    // Without an expected snapshot the save is unconditional: a result always comes back.
    let result = try save(snapshot, scene: scene, ifLatestIs: nil, trimsHistory: trimsHistory)
    return result?.snapshotID ?? id
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
      var counts: [(scene: String, snapshots: Int)] = []
      try db.query(
        """
        SELECT scene_id, count(*) FROM snapshot WHERE id IN (\(Self.prunedIDs))
        GROUP BY scene_id ORDER BY scene_id
        """,
        Self.pruneArguments(keepingLatest: keepingLatest, olderThan: date)
      ) { row throws(SQLiteError) in
        counts.append((row.text(0) ?? "", row.int(1)))
      }
      return counts
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

  /// Every scene with its latest snapshot, sorted by scene id. A latest document over the size limit
  /// is not read; its scene's ``SceneSummary/stackDepths`` are empty.
  public func scenes() throws(StoreError) -> [SceneSummary] {
    let limits = configuration.limits
    let marks = marks
    let infoColumns = infoColumns
    return try read { db throws(SQLiteError) in
      var summaries: [SceneSummary] = []
      try db.query(
        """
        SELECT \(infoColumns),
          c.total, \(marks.quarantinedInScene), CASE WHEN length(s.document) <= ? THEN s.document END
        FROM snapshot s JOIN (
          SELECT scene_id, max(id) AS latest, count(*) AS total
          FROM snapshot GROUP BY scene_id) c ON s.id = c.latest\(marks.join)
        ORDER BY s.scene_id
        """,
        // A document over the limit is not read into memory; its stack depths are left out.
        [.integer(Int64(limits.maxDocumentBytes))]
      ) { row throws(SQLiteError) in
        let depths = (try? SceneSnapshot(decoding: row.blob(13) ?? Data(), limits: limits))?.stacks
          .mapValues(\.count)
        summaries.append(
          SceneSummary(
            id: row.text(1) ?? "", latest: Self.info(row), snapshotCount: row.int(11),
            quarantinedCount: row.int(12), stackDepths: depths ?? [:]))
      }
      return summaries
    }
  }

  /// Counts and sizes of the whole store.
  public func statistics() throws(StoreError) -> StoreStatistics {
    try read { db throws(SQLiteError) in
      var statistics = StoreStatistics(
        sceneCount: 0, snapshotCount: 0, quarantinedCount: 0, documentBytes: 0, fileBytes: 0)
      try db.query(
        """
        SELECT count(DISTINCT scene_id), count(*), \(marks.quarantinedInStore),
          coalesce(sum(length(document)), 0), min(saved_at), max(saved_at)
        FROM snapshot
        """
      ) { row throws(SQLiteError) in
        statistics.sceneCount = row.int(0)
        statistics.snapshotCount = row.int(1)
        statistics.quarantinedCount = row.int(2)
        statistics.documentBytes = row.int(3)
        if !row.isNull(4) {
          statistics.oldest = StoredTime.date(row.int64(4))
          statistics.newest = StoredTime.date(row.int64(5))
        }
      }
      let pages = try db.scalar("PRAGMA page_count") { $0.int(0) } ?? 0
      let pageSize = try db.scalar("PRAGMA page_size") { $0.int(0) } ?? 0
      statistics.fileBytes = pages * pageSize
      return statistics
    }
  }

  /// Quarantined snapshots of every scene, newest first.
  public func quarantined() throws(StoreError) -> [SnapshotInfo] {
    try read { db throws(SQLiteError) in
      var infos: [SnapshotInfo] = []
      try db.query(
        """
        SELECT \(infoColumns) FROM snapshot s\(marks.join)
        WHERE \(marks.quarantine) IS NOT NULL ORDER BY s.id DESC
        """
      ) {
        row throws(SQLiteError) in infos.append(Self.info(row))
      }
      return infos
    }
  }
}
