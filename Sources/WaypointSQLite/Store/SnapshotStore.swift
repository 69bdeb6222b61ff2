import Foundation
import Waypoint

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Saves versioned snapshots of scenes into one SQLite file and restores them.
///
/// One store per file, shared by every scene of the app (and by its extensions, through an App Group
/// container: several processes may use the file at once). The store is `Sendable`: every call is
/// serialized on one connection. Writes run in `BEGIN IMMEDIATE` transactions in WAL mode.
///
/// ```swift
/// let store = try SnapshotStore(path: url.path)
/// try store.save(snapshot, scene: session.persistentIdentifier)       // on every change
/// let restored = store.restore(scene: id, with: restorer)             // at launch; never throws
/// try store.confirmRestore(scene: id)                                 // once the UI is up
/// ```
///
/// Bad files: a directory at the path, a missing folder or a read-only location throw
/// ``StoreError`` from `init`; another application's database throws
/// ``StoreError/Code/notAWaypointStore`` and is not touched; a corrupt file or one that is not a
/// database is moved aside and replaced by a fresh store (see ``recovery``); a file from a newer
/// Waypoint throws ``StoreError/Code/newerSchema`` and is not modified.
public final class SnapshotStore: @unchecked Sendable {
  /// Whether the store may write.
  public enum Access: Hashable, Sendable {
    /// Read and write, creating and migrating the file as needed (apps).
    case readWrite
    /// Read only: the file must exist and is never modified; restores do not count toward the
    /// crash-loop guard (tools).
    case readOnly
  }

  /// The file's path.
  public let path: String
  /// The configuration the store was opened with.
  public let configuration: StoreConfiguration
  /// Whether the store may write.
  public let access: Access
  /// Set when the store found the file corrupt, moved it aside and started a fresh store: tell
  /// the user's support channel, the old file is kept at ``StoreRecovery/movedTo``. Opening sets
  /// it; so does a call that found the file damaged, with ``StoreConfiguration/integrityCheck``
  /// ``StoreConfiguration/IntegrityCheck/afterErrors`` (that call still throws
  /// ``StoreError/Code/corrupt``; the next one uses the fresh store).
  public var recovery: StoreRecovery? {
    lock.lock()
    defer { lock.unlock() }
    return recovered
  }
  private var recovered: StoreRecovery?
  /// The file's schema version (the number of the last migration applied).
  package let schemaVersion: Int

  /// The newest schema version this build knows.
  package static var supportedSchemaVersion: Int { SchemaMigration.all.last?.version ?? 0 }

  /// The connection; replaced only by ``reopenClosed()``, under `lock`.
  private(set) var database: Database
  private let lock = NSLock()
  private let migrations: [SchemaMigration]
  private let faults: FaultInjector?
  /// The file the connection opened, as the path led to it then: when the path leads elsewhere
  /// (the file deleted, renamed or replaced, a symbolic link on the way retargeted, the folder
  /// moved), a write would land in a file the next launch does not open.
  private var openedFile: StoreFile.Identity?
  /// The `-wal` file the connection uses (it keeps it while open), to tell it from one that
  /// belongs to a file put in place of the store.
  private var walFile: StoreFile.Identity?
  /// Whether SQLite opened the file by the app's path itself (no symbolic link on the way, an
  /// absolute path), and the path led to the open file when ``openedFile`` was taken. Then
  /// `SQLITE_FCNTL_HAS_MOVED` (a `stat` of SQLite's name) and the comparison of the path with
  /// ``openedFile`` (a `stat` of the app's path) are the same question, and a write asks it once.
  private var pathIsSQLiteName = false
  /// Each scene's latest snapshot as this connection knows it; used under `lock`.
  var latestSnapshots = LatestSnapshotCache()

  /// Opens (creating if needed) the store at `path`.
  ///
  /// - Throws: ``StoreError`` naming the path and the cause; see the type's discussion for each kind
  ///   of bad file.
  public convenience init(
    path: String,
    configuration: StoreConfiguration = StoreConfiguration(),
    access: Access = .readWrite
  ) throws(StoreError) {
    try self.init(
      path: path, configuration: configuration, access: access, migrations: SchemaMigration.all)
  }

  /// Opens with a chosen migration list and fault injector (tests).
  package init(
    path: String,
    configuration: StoreConfiguration,
    access: Access,
    migrations: [SchemaMigration],
    faults: FaultInjector? = nil
  ) throws(StoreError) {
    self.path = path
    self.configuration = configuration
    self.access = access
    self.migrations = migrations
    self.faults = faults
    var recovery: StoreRecovery?
    let opened: (Database, Int)
    do {
      opened = try Self.open(path, configuration, access, migrations, faults)
    } catch
      where error.code == .corrupt && access == .readWrite
      && configuration.recoversCorruptFiles
    {
      let movedTo = try StoreFile.moveAside(path)
      recovery = StoreRecovery(movedTo: movedTo, cause: error.detail ?? error.message)
      opened = try Self.open(path, configuration, access, migrations, faults)
    }
    (database, schemaVersion) = opened
    self.recovered = recovery
    openedFile = StoreFile.Identity(of: path)
    walFile = StoreFile.Identity(of: StoreFile.target(of: path) + "-wal")
    pathIsSQLiteName = opensByItsOwnName()
  }

  /// Whether `path` is the name SQLite opened the connection's file by, and leads to it and to
  /// ``openedFile`` alike, checked after ``openedFile`` was taken: a file put at the path between
  /// SQLite's open and that `stat` (and even put back since) would otherwise pass for the open
  /// one, where the two checks of every write catch it.
  private func opensByItsOwnName() -> Bool {
    database.filename == path && !database.hasMoved()
      && StoreFile.Identity(of: path) == openedFile
  }

  private static func open(
    _ path: String,
    _ configuration: StoreConfiguration,
    _ access: Access,
    _ migrations: [SchemaMigration],
    _ faults: FaultInjector?
  ) throws(StoreError) -> (Database, Int) {
    do {
      return try open(path, configuration, access, migrations, faults, immutable: false)
    } catch  where error.code == .readOnly && access == .readOnly && immutableReadable(path) {
      return try open(path, configuration, access, migrations, faults, immutable: true)
    }
  }

  /// Whether a read-only open that SQLite refused (it cannot create the `-shm` index in a folder
  /// the user cannot write) may read the file as immutable: only when no `-wal` file stands
  /// beside it, so that every commit is in the file itself.
  package static func immutableReadable(_ path: String) -> Bool {
    let target = StoreFile.target(of: path)
    return !FileManager.default.fileExists(atPath: target + "-wal")
      && !FileManager.default.fileExists(atPath: target + "-journal")
  }

  private static func open(
    _ path: String,
    _ configuration: StoreConfiguration,
    _ access: Access,
    _ migrations: [SchemaMigration],
    _ faults: FaultInjector?,
    immutable: Bool
  ) throws(StoreError) -> (Database, Int) {
    if access == .readWrite {
      try StoreFile.createInitialized(path) { (partial) throws(StoreError) in
        try initialize(partial, naming: path, configuration, migrations, faults)
      }
    }
    try StoreFile.prepare(path, create: access == .readWrite)
    do {
      let db = try Database(
        path: path,
        mode: access == .readWrite ? .readWrite : immutable ? .immutable : .readOnly,
        busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds, faults: faults)
      let supported = migrations.last?.version ?? 0
      // One read transaction, so that a migration committed by another process meanwhile is seen
      // whole or not at all, and so that the checks of a writable store take the file's read lock
      // once. They cost the same for any size of file: the header, the identity and schema
      // version, the file's length against its header, the first and last rows of each table and
      // index, the keys and indexes the queries search by. The whole file is read only on the
      // schedule the app chose (integrityCheck): a damaged page elsewhere is reported as `corrupt`
      // by the first statement that reads it.
      let (identity, damage) = try db.transaction(immediate: false) {
        () throws(SQLiteError) -> (SchemaMigrator.Identity, String?) in
        let identity = try SchemaMigrator.identify(db)
        switch identity {
        case .foreign: return (identity, nil)
        case .waypoint(let version) where version > supported: return (identity, nil)
        case .empty, .waypoint: break
        }
        if case .waypoint(let version) = identity,
          let problem = try structureProblem(db, schemaVersion: version)
        {
          return (identity, problem)
        }
        guard access == .readWrite else { return (identity, nil) }
        let pages = try db.scalar("PRAGMA page_count") { $0.int64() } ?? 0
        let pageSize = try db.scalar("PRAGMA page_size") { $0.int64() } ?? 0
        if let problem = StoreFile.truncation(of: path, pages: pages, pageSize: pageSize) {
          return (identity, problem)
        }
        if case .waypoint = identity {
          try probeEnds(db)
          if let problem = try usedUpCounter(db) { return (identity, problem) }
        }
        if configuration.integrityCheck.runsOnOpen(), let problem = try quickCheck(db) {
          return (identity, problem)
        }
        return (identity, nil)
      }
      switch identity {
      case .foreign:
        throw StoreError.notAWaypointStore(path: path)
      case .waypoint(let version) where version > supported:
        throw StoreError.newerSchema(path: path, found: version, supported: supported)
      case .empty where access == .readOnly:
        // Another process may be creating the store in place (an older build does): it reads
        // as busy while that lasts, never as another application's file.
        try Self.waitWhileInitialized(db, path: path, timeout: configuration.busyTimeout)
      case .empty, .waypoint:
        break
      }
      if let damage { throw StoreError.corrupt(path: path, detail: damage) }
      guard access == .readWrite else {
        return (db, try SchemaMigrator.appliedVersion(db))
      }
      // Switching a new file to WAL needs an exclusive lock, and SQLite answers SQLITE_BUSY at once,
      // without its busy handler, when another process opens the same new file at the same moment.
      let mode = try db.retryingWhileBusy(for: configuration.busyTimeout) {
        () throws(SQLiteError) in
        try db.setJournalMode("WAL")
      }
      guard mode == "wal" else {
        throw StoreError.ioError(
          path: path, detail: "journal_mode=WAL answered \(mode ?? "nothing")")
      }
      try applyDurability(configuration.durability, to: db)
      db.checkpointDuringCommits(afterPages: configuration.checkpointAfterPages)
      // Up to date (the usual open): no write transaction per migration.
      if case .waypoint(let version) = identity, version == supported {
        return (db, version)
      }
      let version = try SchemaMigrator.migrate(db, migrations: migrations)
      if let problem = try structureProblem(db, schemaVersion: version) {
        throw StoreError.corrupt(path: path, detail: problem)
      }
      return (db, version)
    } catch {
      throw StoreError(opening: error, path: path)
    }
  }

  /// Sets how hard `db`'s commits and checkpoints wait for the disk (``StoreConfiguration/Durability``).
  private static func applyDurability(
    _ durability: StoreConfiguration.Durability, to db: Database
  ) throws(SQLiteError) {
    switch durability {
    case .normal:
      try db.execute("PRAGMA synchronous = NORMAL")
    case .full:
      // fullfsync matters on Apple platforms, where fsync alone does not reach the platter.
      try db.execute(
        "PRAGMA synchronous = FULL; PRAGMA fullfsync = ON; PRAGMA checkpoint_fullfsync = ON")
    }
  }

  /// Reads the first and the last row of each table and index of the schema (the path from its
  /// root page to each end): a few pages, whatever the size of the file, where a file cut short or
  /// overwritten is most likely to show.
  private static func probeEnds(_ db: Database) throws(SQLiteError) {
    // One min() or max() per statement: SQLite answers those from one end of the b-tree, where
    // `min(x), max(x)` together would scan the whole table.
    let ends = [
      ("waypoint_migration", "version"), ("snapshot", "id"), ("snapshot", "scene_id"),
      ("snapshot_mark", "snapshot_id"), ("snapshot_mark", "scene_id"), ("restore_outcome", "id"),
    ]
    for (table, key) in ends {
      for end in ["min", "max"] {
        try probe("SELECT \(end)(\(key)) FROM \(table)")
      }
    }
    func probe(_ sql: String) throws(SQLiteError) {
      do {
        _ = try db.scalar(sql) { _ in true }
      } catch  where error.code.primary == .error {
        // A table an older schema does not have yet.
      }
    }
  }

  /// A table whose id counter (`AUTOINCREMENT`, in `sqlite_sequence`) is within 2^32 of its end,
  /// `nil` when none is: every insert into it would fail with `SQLITE_FULL`, reported as a full
  /// disk, for ever. No store gets there by saving (2^32 saves a second for 68 years); a counter
  /// planted there is damage, and the store is treated as corrupt.
  private static func usedUpCounter(_ db: Database) throws(SQLiteError) -> String? {
    do {
      // SQLite's next id is past the larger of the counter and the largest id. (The largest id of
      // restore_outcome is not read: older schemas do not have the table.)
      // 9223372032559808511 is 2^63 - 1 - 2^32.
      let table = try db.scalar(
        """
        SELECT CASE
          WHEN (SELECT max(id) FROM snapshot) > 9223372032559808511
            OR (SELECT max(seq) FROM sqlite_sequence WHERE name = 'snapshot') > 9223372032559808511
            THEN 'snapshot'
          WHEN (SELECT max(seq) FROM sqlite_sequence WHERE name = 'restore_outcome')
            > 9223372032559808511 THEN 'restore_outcome'
        END
        """
      ) { $0.text() }
      guard let name = table ?? nil else { return nil }
      return "the id counter of \(name) is used up"
    } catch  where error.code.primary == .error {
      // SQLite makes sqlite_sequence with the first table that has AUTOINCREMENT (schema 1).
      return "the table sqlite_sequence is missing"
    }
  }

  /// The primary keys and indexes that the store's queries search by, from the schema version
  /// that has them all (7) on: a column of each table's primary key, and each index as its
  /// migration created it (its text in `sqlite_schema`, which SQLite builds the index from). A file
  /// whose schema was edited (a key or an index dropped or changed) would have those queries scan
  /// their tables, a restore at launch taking seconds for a scene of thousands of rows. Other
  /// indexes may exist; triggers and views never run (``Database``).
  static let searchedStructure = (
    keys: [("snapshot", "id"), ("snapshot_mark", "snapshot_id"), ("restore_outcome", "id")],
    indexes: [
      (
        "snapshot_by_scene", "snapshot", "CREATE INDEX snapshot_by_scene ON snapshot (scene_id, id)"
      ),
      (
        "snapshot_mark_by_scene", "snapshot_mark",
        "CREATE INDEX snapshot_mark_by_scene ON snapshot_mark (scene_id, snapshot_id)"
      ),
    ]
  )

  /// What differs from ``searchedStructure`` in a file of `schemaVersion`, `nil` when nothing
  /// does, or when the version is older than 7 or newer than this build knows (a newer build,
  /// which may have changed them, migrated the file meanwhile). It reads the schema alone,
  /// whatever the file's size.
  package static func structureProblem(_ db: Database, schemaVersion: Int) throws(SQLiteError)
    -> String?
  {
    guard schemaVersion >= 7, schemaVersion <= supportedSchemaVersion else { return nil }
    for (table, key) in searchedStructure.keys where try !db.isPrimaryKey(key, of: table) {
      return "the table \(table) is not keyed by \(key)"
    }
    var indexes: [String: (table: String?, sql: String?)] = [:]
    try db.query("SELECT name, tbl_name, sql FROM sqlite_schema WHERE type = 'index'") { row in
      if let name = row.text() { indexes[name] = (row.text(), row.text()) }
      return .continue
    }
    for (index, table, sql) in searchedStructure.indexes {
      guard let found = indexes[index], found.table == table, found.sql == sql else {
        return "the index \(index) is not \(sql)"
      }
    }
    return nil
  }

  /// SQLite's `PRAGMA quick_check(1)`: `nil` when it answers `ok`, its first finding otherwise.
  package static func quickCheck(_ db: Database) throws(SQLiteError) -> String? {
    let check = try db.scalar("PRAGMA quick_check(1)") { $0.text() } ?? nil
    return check == "ok" ? nil : check ?? "integrity check failed"
  }

  /// Creates a new store's schema in `partial`, a file nobody else sees yet: WAL mode, every
  /// migration. The connection is closed (checkpointed) before the file is named. Errors name
  /// `path`, the store's own path.
  private static func initialize(
    _ partial: String, naming path: String, _ configuration: StoreConfiguration,
    _ migrations: [SchemaMigration],
    _ faults: FaultInjector?
  ) throws(StoreError) {
    do {
      let db = try Database(
        path: partial, mode: .readWrite,
        busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds, faults: faults)
      defer { db.close() }
      let mode = try db.setJournalMode("WAL")
      guard mode == "wal" else {
        throw StoreError.ioError(
          path: path, detail: "journal_mode=WAL answered \(mode ?? "nothing")")
      }
      _ = try SchemaMigrator.migrate(db, migrations: migrations)
    } catch {
      throw StoreError(opening: error, path: path)
    }
  }

  /// Waits, at most `timeout`, while an empty file opened read-only looks like a store being
  /// created in place: a `-journal`, `-wal` or `-shm` file beside it shows another connection at
  /// work. Returns once the file holds a Waypoint schema.
  ///
  /// - Throws: ``StoreError/Code/busy`` when it is still being created at the deadline;
  ///   ``StoreError/Code/notAWaypointStore`` for an empty file nobody is working on.
  package static func waitWhileInitialized(_ db: Database, path: String, timeout: Duration)
    throws
  {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while true {
      let identity = try db.transaction(immediate: false) { () throws(SQLiteError) in
        try SchemaMigrator.identify(db)
      }
      switch identity {
      case .waypoint: return
      case .foreign: throw StoreError.notAWaypointStore(path: path)
      case .empty: break
      }
      let target = StoreFile.target(of: path)
      let working = ["-journal", "-wal", "-shm"].contains {
        FileManager.default.fileExists(atPath: target + $0)
      }
      guard working else { throw StoreError.notAWaypointStore(path: path) }
      guard clock.now < deadline else { throw StoreError.busy(path: path) }
      usleep(10_000)
    }
  }

  /// Runs `body` on the connection, serialized with every other call, mapping SQLite's errors.
  ///
  /// - Throws: the error of reopening the path when the connection is closed (the file was moved
  ///   away and nothing can be opened at the path now), or `body`'s errors as ``StoreError``.
  @discardableResult
  package func withDatabase<T>(_ body: (Database) throws(SQLiteError) -> T) throws(StoreError) -> T
  {
    lock.lock()
    defer { lock.unlock() }
    return try withLockedDatabase(body)
  }

  /// ``withDatabase(_:)`` for a caller that holds `lock` already.
  private func withLockedDatabase<T>(_ body: (Database) throws(SQLiteError) -> T)
    throws(StoreError) -> T
  {
    try reopenClosed()
    do {
      return try body(database)
    } catch {
      if error.code.primary == .corrupt || error.code.primary == .notADatabase {
        checkAfterError()
      }
      throw StoreError(error, path: path)
    }
  }

  /// After a statement reported the file damaged: with ``StoreConfiguration/integrityCheck`` other
  /// than ``StoreConfiguration/IntegrityCheck/never``, runs `quick_check` to confirm it (an error
  /// alone is not proof: it may be passing), and when it finds damage, with
  /// ``StoreConfiguration/recoversCorruptFiles``, moves the file aside and opens a fresh store at
  /// the path, as opening does (``recovery`` tells). Call with `lock` held.
  private func checkAfterError() {
    guard access == .readWrite, configuration.integrityCheck != .never,
      database.handle != nil, !database.isInTransaction
    else { return }
    guard case .some(.some(let problem)) = try? Self.quickCheck(database) else { return }
    guard configuration.recoversCorruptFiles else { return }
    database.close()
    guard let movedTo = try? StoreFile.moveAside(path) else { return }
    recovered = StoreRecovery(movedTo: movedTo, cause: problem)
    // The moved file's WAL went with it: nothing is left to set aside.
    walFile = nil
    try? reopenClosed()
  }

  /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`), waiting for the lock at most
  /// `busyTimeout` (by default the configured one).
  ///
  /// - Parameters:
  ///   - busyTimeout: The longest to wait for the lock; `nil`: the configured busy timeout.
  ///   - scene: The one scene `body` changes, when it changes one scene's rows only (a restore's
  ///     bookkeeping): the saves' cache forgets that scene alone. `nil`: the whole cache is
  ///     emptied.
  ///   - checkpointing: Whether the commit copies the WAL into the file when it crosses
  ///     ``StoreConfiguration/checkpointAfterPages``. `false` for a restore's bookkeeping, which a
  ///     launch makes on the main actor: the next write that crosses it copies instead.
  ///   - body: The transaction's work.
  @discardableResult
  package func write<T>(
    busyTimeout: Duration? = nil, scene: String? = nil, checkpointing: Bool = true,
    _ body: (Database) throws(SQLiteError) -> T
  ) throws(StoreError) -> T {
    try withWritableDatabase { db throws(SQLiteError) in
      if let busyTimeout { db.setBusyTimeout(StoreConfiguration.milliseconds(busyTimeout)) }
      defer {
        if busyTimeout != nil { db.setBusyTimeout(configuration.busyTimeoutMilliseconds) }
      }
      // A write that is not a save may change what the saves know (a mark, a deletion).
      if let scene { latestSnapshots.forget(scene) } else { latestSnapshots.invalidate() }
      func transaction() throws(SQLiteError) -> T {
        try db.transaction(immediate: true) { () throws(SQLiteError) in try body(db) }
      }
      return try checkpointing ? transaction() : db.withoutCheckpoints(transaction)
    }
  }

  /// Empties the saves' cache of each scene's latest snapshot, before a write that is not a save
  /// changes any scene's rows (the tools' imports); call it inside ``withWritableDatabase(_:)``,
  /// where `lock` is held.
  package func forgetLatestSnapshots() { latestSnapshots.invalidate() }

  /// ``withDatabase(_:)`` for a write, after checking that the path still leads to the file the
  /// connection has open (``checkFileInPlaceLocked()``).
  ///
  /// - Throws: ``StoreError/Code/readOnly`` for a store opened read-only,
  ///   ``StoreError/Code/replaced`` or ``StoreError/Code/cannotOpen`` when the file is no longer
  ///   at the path (`body` does not run), and `body`'s errors as ``withDatabase(_:)`` maps them.
  package func withWritableDatabase<T>(_ body: (Database) throws(SQLiteError) -> T)
    throws(StoreError) -> T
  {
    lock.lock()
    defer { lock.unlock() }
    guard access == .readWrite else {
      throw .readOnly(path: path, detail: "the store was opened read-only")
    }
    try checkFileInPlaceLocked()
    return try withLockedDatabase(body)
  }

  /// Before a write, with `lock` held: when the path no longer leads to the file the connection
  /// has open, a write would land in a file nobody opens again. The file was deleted, renamed or
  /// replaced (SQLite's `SQLITE_FCNTL_HAS_MOVED`), or the path now leads elsewhere: a symbolic
  /// link on the way retargeted, the folder moved (a `stat` of the path, compared with the file
  /// opened; one `stat` answers both when SQLite opened the file by the app's path itself). The
  /// connection is closed and the path opened again (a fresh store where nothing
  /// stands), and the write is refused: ``StoreError/Code/replaced`` when the path opened, so
  /// that the next write goes to the file now there; the reopening's error (such as
  /// ``StoreError/Code/cannotOpen`` for a folder that is gone) when it did not, which the
  /// following calls throw too until the path opens again.
  private func checkFileInPlaceLocked() throws(StoreError) {
    guard database.handle != nil else { return }
    let moved =
      (!pathIsSQLiteName && database.hasMoved()) || StoreFile.Identity(of: path) != openedFile
    guard moved else { return }
    database.close()
    do {
      try reopenClosed()
    } catch {
      throw error.movedAway()
    }
    throw .replaced(path: path)
  }

  /// Opens the path again when the connection is closed (the file was replaced or found
  /// corrupt); with `lock` held.
  ///
  /// SQLite neither checkpoints nor removes the WAL of a file that has moved. Left at the path, the
  /// old file's WAL (known by its inode) would be replayed into another file now there: it is set
  /// aside first (renamed `<path>-wal.orphaned-<time>`, never deleted), and its `-shm` index
  /// removed. When the file the store had is back at the path (its folder moved away and back),
  /// its WAL is its own and stays.
  ///
  /// - Throws: why the path cannot be opened; the connection then stays closed, and the next call
  ///   tries again.
  private func reopenClosed() throws(StoreError) {
    guard database.handle == nil else { return }
    latestSnapshots.invalidate()
    let wal = StoreFile.target(of: path) + "-wal"
    if let walFile, StoreFile.Identity(of: wal) == walFile,
      StoreFile.Identity(of: path) != openedFile
    {
      let aside = StoreFile.freePath(beside: wal, label: "orphaned", now: Date())
      guard rename(wal, aside) == 0 else {
        throw .ioError(
          path: path,
          detail: "cannot set aside the WAL of the file that was replaced: "
            + String(cString: strerror(errno)))
      }
      unlink(StoreFile.target(of: path) + "-shm")
    }
    let reopened = try Self.open(path, configuration, access, migrations, faults)
    database = reopened.0
    openedFile = StoreFile.Identity(of: path)
    walFile = StoreFile.Identity(of: StoreFile.target(of: path) + "-wal")
    pathIsSQLiteName = opensByItsOwnName()
  }

  /// Runs `body` in a read transaction, so that it sees one consistent state of the file.
  @discardableResult
  package func read<T>(_ body: (Database) throws(SQLiteError) -> T) throws(StoreError) -> T {
    try withDatabase { db throws(SQLiteError) in
      try db.transaction(immediate: false) { () throws(SQLiteError) in try body(db) }
    }
  }

  #if DEBUG
    /// Replaces the fault injector of the open connection (tests).
    package func injectFaults(_ faults: FaultInjector?) {
      lock.lock()
      defer { lock.unlock() }
      database.faults = faults
    }
  #endif
}
