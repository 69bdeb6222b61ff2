import Foundation
import Waypoint

/// What ``SnapshotStore/check(path:full:configuration:)`` found in a store file: facts, without a
/// judgement (tools decide what counts as a problem).
public struct StoreCheck: Hashable, Sendable {
  /// Which integrity check ran.
  public enum Depth: String, Hashable, Sendable {
    /// `PRAGMA quick_check`: page and b-tree structure, without comparing indexes to tables.
    case quick = "quick_check"
    /// `PRAGMA integrity_check`: everything `quick_check` does, and indexes against their tables.
    case full = "integrity_check"
  }

  /// Which integrity check ran.
  public var depth: Depth
  /// What the integrity check reported, at most 100 lines (or SQLite's error, when damage stopped
  /// the check itself); empty when it answered `ok`.
  public var integrityProblems: [String]
  /// The schema version recorded in the file (0 when it records none).
  public var schemaVersion: Int
  /// Always ``SnapshotStore/applicationID``: the check reads the file's `PRAGMA application_id`
  /// first and refuses any other (`notAWaypointStore`), so this repeats the constant.
  public var applicationID: Int32
  /// Stored snapshots; `nil` when they could not be counted (a damaged table).
  public var snapshotCount: Int?
  /// Scenes with at least one snapshot; `nil` when they could not be counted.
  public var sceneCount: Int?
  /// Quarantined snapshots; `nil` when they could not be counted.
  public var quarantinedCount: Int?
  /// Why SQLite ignores the store's `-wal` file (a damaged header), so that the commits it held
  /// are lost; `nil` when there is no such file or it is sound. SQLite itself reports nothing
  /// then: the header is read before the store is opened, which is as far as anyone can tell.
  public var discardedWAL: String?
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
  public static var applicationID: Int32 { SchemaMigrator.applicationID }

  /// Checks a store file without opening it as a store and without writing to it: runs SQLite's
  /// integrity check (`quick_check`, or `integrity_check` with `full`) and reads the schema version,
  /// the application id and the snapshot counts.
  ///
  /// Unlike opening a ``SnapshotStore``, a file whose pages are damaged is not refused: what the
  /// integrity check found is returned in ``StoreCheck/integrityProblems``. A store from a newer
  /// schema is checked too (its ``StoreCheck/schemaVersion`` tells). The connection is read-only
  /// with the store's defensive settings.
  ///
  /// - Throws: ``StoreError``: `cannotOpen` for a missing file or a directory,
  ///   `notAWaypointStore` for another application's database or an empty file, `corrupt` for a
  ///   file that is not a database at all or whose schema cannot be read, `busy`, `ioError`.
  public static func check(
    path: String, full: Bool = false, configuration: StoreConfiguration = StoreConfiguration()
  ) throws(StoreError) -> StoreCheck {
    try check(path: path, full: full, configuration: configuration, faults: nil)
  }

  /// Checks as ``check(path:full:configuration:)`` does, with a fault injector (tests).
  static func check(
    path: String, full: Bool, configuration: StoreConfiguration, faults: FaultInjector?
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
    var findings: [String] = []
    do throws(SQLiteError) {
      try database.query("PRAGMA \(depth.rawValue)(100)") { row throws(SQLiteError) in
        findings.append(row.text(0) ?? "")
      }
    } catch  where error.code.primary == .corrupt || error.code.primary == .notADatabase {
      // The check itself stopped on damage it could not step over: that is its finding.
      findings.append(error.message)
    } catch {
      throw StoreError(error, path: path)
    }
    var check = StoreCheck(
      depth: depth, integrityProblems: findings == ["ok"] ? [] : findings,
      schemaVersion: version, applicationID: SchemaMigrator.applicationID,
      discardedWAL: discardedWAL)
    // A damaged table may fail to count; the integrity findings already say why.
    let marks = MarkColumns(schemaVersion: version)
    try? database.query(
      "SELECT count(*), count(DISTINCT scene_id), \(marks.quarantinedInStore) FROM snapshot"
    ) { row throws(SQLiteError) in
      check.snapshotCount = row.int(0)
      check.sceneCount = row.int(1)
      check.quarantinedCount = row.int(2)
    }
    return check
  }
}
