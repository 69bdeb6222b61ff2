import Foundation
import Waypoint
import WaypointSQLite

/// What `SnapshotStore.check(path:full:configuration:progress:)` found in a store file: facts, without a
/// judgement (tools decide what counts as a problem).
package struct StoreCheck: Hashable, Sendable {
  /// Which integrity check ran.
  package enum Depth: String, Hashable, Sendable {
    /// `PRAGMA quick_check`: page and b-tree structure, without comparing indexes to tables.
    case quick = "quick_check"
    /// `PRAGMA integrity_check`: everything `quick_check` does, and indexes against their tables.
    case full = "integrity_check"
  }

  /// Which integrity check ran.
  package var depth: Depth
  /// What the integrity check reported, at most 100 lines (or SQLite's error, when damage stopped
  /// the check itself); empty when it answered `ok`.
  package var integrityProblems: [String]
  /// The schema version recorded in the file (0 when it records none).
  package var schemaVersion: Int
  /// Always `SnapshotStore.applicationID`: the check reads the file's `PRAGMA application_id`
  /// first and refuses any other (`notAWaypointStore`), so this repeats the constant.
  package var applicationID: Int32
  /// Stored snapshots; `nil` when they could not be counted (a damaged table).
  package var snapshotCount: Int?
  /// Scenes with at least one snapshot; `nil` when they could not be counted.
  package var sceneCount: Int?
  /// Quarantined snapshots; `nil` when they could not be counted.
  package var quarantinedCount: Int?
  /// Why SQLite ignores the store's `-wal` file (a damaged header), so that the commits it held
  /// are lost; `nil` when there is no such file or it is sound. SQLite itself reports nothing
  /// then: the header is read before the store is opened, which is as far as anyone can tell.
  package var discardedWAL: String?
  /// The quarantined snapshots, newest first; `nil` when they are not listed: the integrity check
  /// found problems, or the schema is newer than this build (``quarantinedCount`` still counts
  /// them when it can).
  package var quarantined: [SnapshotInfo]?
  /// With a full check, the snapshots whose document this build cannot read (over the size limit,
  /// damaged, from a newer format), at most ``maxListed`` of them, oldest id first; `nil` without
  /// a full check, or when the snapshots are not listed (as ``quarantined``).
  package var unreadableDocuments: [UnreadableDocument]?

  /// The most unreadable documents listed.
  package static let maxListed = 100

  /// A snapshot whose document cannot be read.
  package struct UnreadableDocument: Hashable, Sendable {
    /// The snapshot's id.
    package var id: Int64
    /// Its scene.
    package var scene: String
    /// Why its document cannot be read (``/Waypoint/SnapshotFormatError``'s description).
    package var reason: String
  }
}

extension SnapshotStore {
  /// The file's identity, read again when it was empty at first (another process created it).
  private static func identity(
    _ database: Database, path: String, given: SchemaMigrator.Identity
  ) throws(StoreError) -> SchemaMigrator.Identity {
    guard given == .empty else { return given }
    do {
      return try database.transaction(immediate: false) { () throws(SQLiteError) in
        try SchemaMigrator.identify(database)
      }
    } catch {
      throw StoreError(error, path: path)
    }
  }

  /// A read-only connection for ``check(path:full:configuration:)`` and the file's identity; as
  /// immutable when SQLite cannot read it otherwise (see `immutableReadable`).
  private static func openForCheck(
    _ path: String, _ configuration: StoreConfiguration, _ faults: FaultInjector?,
    immutable: Bool
  ) throws(StoreError) -> (Database, SchemaMigrator.Identity) {
    do {
      let database = try Database(
        path: path, mode: immutable ? .immutable : .readOnly,
        busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds, faults: faults)
      let identity = try database.transaction(immediate: false) { () throws(SQLiteError) in
        try SchemaMigrator.identify(database)
      }
      return (database, identity)
    } catch  where !immutable && error.code.primary == .readOnly && immutableReadable(path) {
      return try openForCheck(path, configuration, faults, immutable: true)
    } catch {
      throw StoreError(error, path: path)
    }
  }

  /// `PRAGMA application_id` of every Waypoint store: the ASCII bytes `Wayp`.
  package static var applicationID: Int32 { SchemaMigrator.applicationID }

  /// Checks a store file without opening it as a store and without writing to it: runs SQLite's
  /// integrity check (`quick_check`, or `integrity_check` with `full`) and reads the schema version,
  /// the application id and the snapshot counts; when the integrity check passed and this build
  /// knows the schema, lists the quarantined snapshots and, with `full`, reads every document
  /// (calling `progress` with the number read so far) to list those that cannot be read.
  ///
  /// Unlike opening a ``SnapshotStore``, a file whose pages are damaged is not refused: what the
  /// integrity check found is returned in ``StoreCheck/integrityProblems``. A store from a newer
  /// schema is checked too (its ``StoreCheck/schemaVersion`` tells). The connection is read-only
  /// with the store's defensive settings.
  ///
  /// - Throws: ``StoreError``: `cannotOpen` for a missing file or a directory,
  ///   `notAWaypointStore` for another application's database or an empty file, `corrupt` for a
  ///   file that is not a database at all or whose schema cannot be read, `busy`, `ioError`.
  package static func check(
    path: String, full: Bool = false, configuration: StoreConfiguration = StoreConfiguration(),
    progress: (Int) -> Void = { _ in }
  ) throws(StoreError) -> StoreCheck {
    try check(
      path: path, full: full, configuration: configuration, faults: nil, progress: progress)
  }

  /// Checks as ``check(path:full:configuration:progress:)`` does, with a fault injector (tests).
  static func check(
    path: String, full: Bool, configuration: StoreConfiguration, faults: FaultInjector?,
    progress: (Int) -> Void = { _ in }
  ) throws(StoreError) -> StoreCheck {
    try StoreFile.prepare(path, create: false)
    // Read before SQLite opens the file: a writer would start a discarded WAL afresh.
    let discardedWAL = WALHeader.problem(beside: path)
    let (database, identity) = try openForCheck(path, configuration, faults, immutable: false)
    if identity == .empty {
      // A store being created in place by another process reads as busy, not as foreign data.
      do {
        try SnapshotStore.waitWhileInitialized(
          database, path: path, timeout: configuration.busyTimeout)
      } catch {
        throw StoreError(opening: error, path: path)
      }
    }
    guard
      case .waypoint(let version) = try Self.identity(database, path: path, given: identity)
    else {
      throw .notAWaypointStore(path: path)
    }
    let depth: StoreCheck.Depth = full ? .full : .quick
    // Each statement reads on its own: a transaction around them could fail to end on a damaged
    // file. The integrity check is one statement, and so are the counts.
    let findings: [String]
    do throws(SQLiteError) {
      findings = try Self.integrityFindings(database, full: full)
    } catch {
      throw StoreError(error, path: path)
    }
    var check = StoreCheck(
      depth: depth, integrityProblems: findings,
      schemaVersion: version, applicationID: SchemaMigrator.applicationID,
      discardedWAL: discardedWAL)
    // A damaged table may fail to count; the integrity findings already say why.
    let marks = MarkColumns(schemaVersion: version)
    let counts = try? database.scalar(
      "SELECT count(*), count(DISTINCT scene_id), \(marks.quarantinedInStore) FROM snapshot"
    ) { row in (snapshots: row.int(), scenes: row.int(), quarantined: row.int()) }
    if let counts = counts ?? nil {
      check.snapshotCount = counts.snapshots
      check.sceneCount = counts.scenes
      check.quarantinedCount = counts.quarantined
    }
    // The snapshots are read only from a file whose pages are sound and whose schema this build
    // knows.
    guard findings.isEmpty, version <= supportedSchemaVersion else { return check }
    do throws(SQLiteError) {
      check.quarantined = try database.rows(
        """
        SELECT \(infoColumns(marks)) FROM snapshot s\(marks.join)
        WHERE \(marks.quarantine) IS NOT NULL ORDER BY s.id DESC
        """
      ) { row in info(&row) }
      if full {
        check.unreadableDocuments = try unreadableDocuments(
          database, marks, limits: configuration.limits, progress: progress)
      }
    } catch {
      throw StoreError(error, path: path)
    }
    return check
  }

  /// Every snapshot whose document cannot be read, at most ``StoreCheck/maxListed``, reading
  /// each document once (one at a time; one over the size limit is not read).
  private static func unreadableDocuments(
    _ database: Database, _ marks: MarkColumns, limits: InputLimits, progress: (Int) -> Void
  ) throws(SQLiteError) -> [StoreCheck.UnreadableDocument] {
    let limit = limits.maxDocumentBytes
    var unreadable: [StoreCheck.UnreadableDocument] = []
    var count = 0
    try database.query(
      """
      SELECT \(infoColumns(marks)), \(marks.document(within: "?1"))
      FROM snapshot s\(marks.join) ORDER BY s.id
      """, [.integer(Int64(limit))]
    ) { row throws(SQLiteError) in
      let stored = storedSnapshot(&row, limits: limits)
      count += 1
      progress(count)
      guard unreadable.count < StoreCheck.maxListed else { return .continue }
      let problem: SnapshotFormatError?
      switch stored.document {
      case .tooLarge(let byteCount, let limit):
        problem = .tooLarge(byteCount: byteCount, limit: limit)
      case .read(let data):
        do throws(SnapshotFormatError) {
          _ = try SceneSnapshot(decoding: data, limits: limits)
          problem = nil
        } catch {
          problem = error
        }
      }
      if let problem {
        unreadable.append(
          StoreCheck.UnreadableDocument(
            id: stored.info.id, scene: stored.info.scene, reason: problem.description))
      }
      return .continue
    }
    return unreadable
  }
}
