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

  /// The connection; replaced only by `reopenClosed()`, under `lock`. Its accesses (loads, and
  /// that one store) are not checked at run time (`@exclusivity(unchecked)`): every call reads it.
  @exclusivity(unchecked) private(set) var database: Database
  private let lock = NSLock()
  private let migrations: [SchemaMigration]
  private let faults: FaultInjector?
  /// The `-wal` file the connection uses (it keeps it while open), to tell it from one that
  /// belongs to a file put in place of the store.
  private var walFile: StoreFile.Identity?
  /// Each scene's latest snapshot as this connection knows it (saves); used under `lock`.
  private let latestSnapshots = LatestSnapshotCache()
  /// The memory every save encodes its document into, kept from one save to the next; used with
  /// the lock held (``locked(_:)``).
  let documentBuffer = DocumentBuffer()

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
  init(
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
    walFile = StoreFile.Identity(of: StoreFile.target(of: path) + "-wal")
    startCheckpoints(database)
  }

  /// Sets who copies the WAL of `db`, the store's connection just opened, into the file
  /// (``StoreConfiguration/checkpointing``). Read-write stores only.
  private func startCheckpoints(_ db: Database) {
    guard access == .readWrite else { return }
    switch configuration.checkpointing {
    case .duringSaves(let pages):
      db.checkpointDuringCommits(afterPages: pages)
    case .inBackground(let pages):
      // The file this connection has open: the checkpoints' connection opens no other.
      let file = StoreFile.Identity(of: StoreFile.target(of: path))
      db.checkpointInBackground(
        BackgroundCheckpointer(pages: pages, writers: lock) {
          [path, configuration, faults] in
          Self.checkpointConnection(path, configuration, file, faults)
        })
    }
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
  static func immutableReadable(_ path: String) -> Bool {
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
      // whole or not at all.
      let identity = try db.transaction(immediate: false) { () throws(SQLiteError) in
        try SchemaMigrator.identify(db)
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
      // What costs the same for any size of file: the header, the identity and schema version
      // above, the file's length against its header, the first and last rows of each table and
      // index. The whole file is read only on the schedule the app chose (integrityCheck): a
      // damaged page elsewhere is reported as `corrupt` by the first statement that reads it.
      if access == .readWrite {
        let pages = try db.scalar("PRAGMA page_count") { $0.int64() } ?? 0
        let pageSize = try db.scalar("PRAGMA page_size") { $0.int64() } ?? 0
        if let problem = StoreFile.truncation(of: path, pages: pages, pageSize: pageSize) {
          throw StoreError.corrupt(path: path, detail: problem)
        }
        if case .waypoint = identity { try probeEnds(db) }
        if configuration.integrityCheck.runsOnOpen() {
          if let problem = try quickCheck(db) {
            throw StoreError.corrupt(path: path, detail: problem)
          }
        }
      }
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
      // Up to date (the usual open): no write transaction per migration.
      if case .waypoint(let version) = identity, version == supported {
        return (db, version)
      }
      return (db, try SchemaMigrator.migrate(db, migrations: migrations))
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

  /// Opens the connection of a store's background checkpoints (``BackgroundCheckpointer``), with
  /// the store's durability: only while the path leads to `file`, the file the store's own
  /// connection opened, and kept only when, after its first read (where SQLite opens the WAL and
  /// its index), its file is still that one and in WAL mode. It never checkpoints when it closes,
  /// so a connection refused after its read copies nothing into the file it opened; its waits for
  /// a lock last 100 ms at most, so that ending the thread never waits long for an open. `nil`
  /// otherwise, or on any error.
  static func checkpointConnection(
    _ path: String, _ configuration: StoreConfiguration, _ file: StoreFile.Identity?,
    _ faults: FaultInjector?
  ) -> Database? {
    let target = StoreFile.target(of: path)
    guard let file, StoreFile.Identity(of: target) == file,
      let db = try? Database(
        path: path, mode: .readWriteExisting,
        busyTimeoutMilliseconds: min(100, configuration.busyTimeoutMilliseconds), faults: faults)
    else { return nil }
    guard db.disableCheckpointOnClose() else {
      db.close()
      return nil
    }
    do {
      try applyDurability(configuration.durability, to: db)
      _ = try db.scalar("PRAGMA schema_version") { $0.int64() }
      let mode = try db.scalar("PRAGMA journal_mode") { $0.text() } ?? nil
      if mode?.lowercased() == "wal", !db.hasMoved(), StoreFile.Identity(of: target) == file {
        return db
      }
    } catch {}
    db.close()
    return nil
  }

  /// Reads the first and the last row of each table and index of the schema (the path from its
  /// root page to each end): a few pages, whatever the size of the file, where a file cut short or
  /// overwritten is most likely to show.
  private static func probeEnds(_ db: Database) throws(SQLiteError) {
    // One min() or max() per statement: SQLite answers those from one end of the b-tree, where
    // `min(x), max(x)` together would scan the whole table.
    let ends = [
      ("waypoint_migration", "version"), ("snapshot", "id"), ("snapshot", "scene_id"),
      ("snapshot_mark", "snapshot_id"), ("snapshot_mark", "scene_id"),
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

  /// SQLite's `PRAGMA quick_check(1)`: `nil` when it answers `ok`, its first finding otherwise.
  static func quickCheck(_ db: Database) throws(SQLiteError) -> String? {
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
  static func waitWhileInitialized(_ db: Database, path: String, timeout: Duration)
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
  @discardableResult
  func withDatabase<T>(_ body: (Database) throws(SQLiteError) -> T) throws(StoreError) -> T {
    lock.lock()
    defer { lock.unlock() }
    return try withLockedDatabase(body)
  }

  /// ``withDatabase(_:)`` for a caller that holds `lock` already.
  private func withLockedDatabase<T>(_ body: (Database) throws(SQLiteError) -> T)
    throws(StoreError) -> T
  {
    reopenClosed()
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
    latestSnapshots.invalidate()
    guard let movedTo = try? StoreFile.moveAside(path) else {
      reopenClosed()
      return
    }
    recovered = StoreRecovery(movedTo: movedTo, cause: problem)
    // The moved file's WAL went with it: nothing is left to set aside.
    walFile = nil
    reopenClosed()
  }

  /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`), waiting for the lock at most
  /// `busyTimeout` (by default the configured one).
  ///
  /// - Parameters:
  ///   - busyTimeout: The longest to wait for the lock; `nil`: the configured busy timeout.
  ///   - scene: The one scene `body` changes, when it changes one scene's rows only (a restore's
  ///     bookkeeping): the saves' cache forgets that scene alone, records this commit as a save's
  ///     (``LatestSnapshotCache/recordOwnCommit(before:after:wrote:)``), and the other scenes'
  ///     saves stay answered from it without a read of `data_version`. `nil`: the whole cache is
  ///     emptied.
  ///   - body: The transaction's work.
  @discardableResult
  func write<T>(
    busyTimeout: Duration? = nil, scene: String? = nil,
    _ body: (Database) throws(SQLiteError) -> T
  ) throws(StoreError) -> T {
    try withWritableDatabase { db throws(SQLiteError) in
      if let busyTimeout { db.setBusyTimeout(StoreConfiguration.milliseconds(busyTimeout)) }
      defer {
        if busyTimeout != nil { db.setBusyTimeout(configuration.busyTimeoutMilliseconds) }
      }
      // A write that is not a save may change what the saves know (a mark, a deletion).
      guard let scene else {
        latestSnapshots.invalidate()
        return try db.transaction(immediate: true) { () throws(SQLiteError) in try body(db) }
      }
      // The other scenes' entries stay valid across this transaction, which changes one scene's
      // rows: its commit is recorded as a save's is, so that the next unchanged save of another
      // scene still asks nothing of SQLite.
      let cache = latestSnapshots
      cache.forget(LatestSnapshotCache.Key(scene))
      do throws(SQLiteError) {
        return try recordingOwnCommit(db, cache) { () throws(SQLiteError) in try body(db) }
      } catch {
        cache.invalidate()
        throw error
      }
    }
  }

  /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`) whose commit the cache of each scene's
  /// latest snapshot records as this connection's own: the cache is checked under the write lock
  /// (the header read then is the latest, which only this transaction can change), and after the
  /// commit ``LatestSnapshotCache/recordOwnCommit(before:after:wrote:)`` keeps the header only
  /// when nobody else committed in between. `body` must leave the cache true of the rows it
  /// changed (a save records its snapshot; a restore's bookkeeping forgot its scene first).
  private func recordingOwnCommit<T>(
    _ db: Database, _ cache: LatestSnapshotCache, _ body: () throws(SQLiteError) -> T
  ) throws(SQLiteError) -> T {
    var before: Database.WALIndexHeader?
    var changes: Int32 = 0
    let result = try db.transaction(immediate: true) { () throws(SQLiteError) in
      before = try cache.check(db, underWriteLock: true).header
      changes = db.totalChanges
      return try body()
    }
    cache.recordOwnCommit(
      before: before, after: db.walIndexHeader(), wrote: db.totalChanges != changes)
    return result
  }

  /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`) that ends as `body` answers: committed
  /// or rolled back.
  ///
  /// - Returns: how the transaction ended.
  func write(completion body: (Database) throws(SQLiteError) -> Database.TransactionCompletion)
    throws(StoreError) -> Database.TransactionCompletion
  {
    try withWritableDatabase { db throws(SQLiteError) in
      latestSnapshots.invalidate()
      return try db.inTransaction(immediate: true) { () throws(SQLiteError) in try body(db) }
    }
  }

  /// How a save ends: without a transaction when the connection's cache of the scene's latest
  /// snapshot answers, or in a write transaction.
  enum SaveStep<T> {
    /// The answer, found without a transaction.
    case answered(T)
    /// A write transaction is needed.
    case write
  }

  /// Runs `body` holding the store's lock, which ``answerSaveLocked(_:)``,
  /// ``saveLocked(lookUp:_:)`` and ``documentBuffer`` need: a save runs every step in one hold.
  func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  /// Answers a save from the cache of each scene's latest snapshot alone, before anything is
  /// encoded: `lookUp` first, and when it answers, again after the file-replaced check and the
  /// cache's check against the file (``LatestSnapshotCache/check(_:underWriteLock:)``: the WAL
  /// index's header, else `PRAGMA data_version`). `nil` when it does not answer (the save goes
  /// on). Call with the lock held (``locked(_:)``).
  func answerSaveLocked<T>(_ lookUp: (LatestSnapshotCache) -> T?) throws(StoreError) -> T? {
    // A save the cache cannot answer goes on, to the checks that come before any error.
    guard access == .readWrite else { return nil }
    guard let answer = lookUp(latestSnapshots) else { return nil }
    try reopenIfMovedLocked()
    return try withLockedDatabase { db throws(SQLiteError) in
      // Another connection's commit since (or a write of this store meanwhile): asked again.
      let cache = latestSnapshots
      guard try cache.check(db).kept else { return lookUp(cache) }
      return answer
    }
  }

  /// Runs a save: `lookUp` first, outside any transaction, and when it answers, again after the
  /// cache of each scene's latest snapshot was checked against the file
  /// (``LatestSnapshotCache/check(_:underWriteLock:)``: another connection's commit empties it); then, unless it
  /// answered, `body` in a write transaction (`BEGIN IMMEDIATE`), with the cache checked again
  /// under the lock. After the commit, the cache records the WAL index's header when nobody else
  /// committed meanwhile (``LatestSnapshotCache/recordOwnCommit(before:after:wrote:)``), so that
  /// the next unchanged save asks nothing of SQLite. The cache is emptied when the transaction
  /// fails, so that nothing `body` recorded in it outlives a rollback. Call with the lock held
  /// (``locked(_:)``).
  func saveLocked<T>(
    lookUp: (LatestSnapshotCache) -> SaveStep<T>,
    _ body: (Database, LatestSnapshotCache) throws(SQLiteError) -> T
  ) throws(StoreError) -> T {
    try withWritableLockedDatabase { db throws(SQLiteError) in
      let cache = latestSnapshots
      do throws(SQLiteError) {
        // The cache is checked against the file only when it would answer: a save that writes
        // anyway checks it under the lock, without a read transaction first.
        if case .answered = lookUp(cache) {
          try cache.check(db)
          if case .answered(let answer) = lookUp(cache) { return answer }
        }
        return try recordingOwnCommit(db, cache) { () throws(SQLiteError) in
          try body(db, cache)
        }
      } catch {
        cache.invalidate()
        throw error
      }
    }
  }

  /// ``withDatabase(_:)`` for a write, in one hold of `lock` with the file-replaced check before
  /// `body` (``reopenIfMovedLocked()``).
  ///
  /// - Throws: ``StoreError/Code/readOnly`` for a store opened read-only,
  ///   ``StoreError/Code/replaced`` when the file was replaced (`body` does not run), and
  ///   `body`'s errors as ``withDatabase(_:)`` maps them.
  private func withWritableDatabase<T>(_ body: (Database) throws(SQLiteError) -> T)
    throws(StoreError) -> T
  {
    lock.lock()
    defer { lock.unlock() }
    return try withWritableLockedDatabase(body)
  }

  /// ``withWritableDatabase(_:)`` for a caller that holds `lock` already.
  private func withWritableLockedDatabase<T>(_ body: (Database) throws(SQLiteError) -> T)
    throws(StoreError) -> T
  {
    guard access == .readWrite else {
      throw .readOnly(path: path, detail: "the store was opened read-only")
    }
    try reopenIfMovedLocked()
    return try withLockedDatabase(body)
  }

  /// Before a write, with `lock` held: when the open file was deleted or replaced since it was
  /// opened (`SQLITE_FCNTL_HAS_MOVED`: the path no longer leads to the same inode), the write would
  /// land in a file nobody will ever open again. Reopens the path (creating a fresh store where the
  /// file was deleted) and throws ``StoreError/Code/replaced``, so that the caller knows this write
  /// did not happen and the next one goes to the file now at the path.
  private func reopenIfMovedLocked() throws(StoreError) {
    guard database.handle != nil, database.hasMoved() else { return }
    database.close()
    reopenClosed()
    throw .replaced(path: path)
  }

  /// Opens the path again after the file was replaced; on failure the connection stays closed and
  /// the next call tries again. Call with `lock` held.
  ///
  /// SQLite neither checkpoints nor removes the WAL of a file that has moved. Left at the path, the
  /// old file's WAL (known by its inode) would be replayed into the file now there: it is set aside
  /// first (renamed `<path>-wal.orphaned-<time>`, never deleted), and its `-shm` index removed.
  /// When it cannot be renamed, the path is not opened.
  private func reopenClosed() {
    guard database.handle == nil else { return }
    let wal = StoreFile.target(of: path) + "-wal"
    if let walFile, StoreFile.Identity(of: wal) == walFile {
      let aside = StoreFile.freePath(beside: wal, label: "orphaned", now: Date())
      guard rename(wal, aside) == 0 else { return }
      unlink(StoreFile.target(of: path) + "-shm")
    }
    latestSnapshots.invalidate()
    if let reopened = try? Self.open(path, configuration, access, migrations, faults) {
      database = reopened.0
      walFile = StoreFile.Identity(of: StoreFile.target(of: path) + "-wal")
      startCheckpoints(database)
    }
  }

  /// Runs `body` in a read transaction, so that it sees one consistent state of the file.
  @discardableResult
  func read<T>(_ body: (Database) throws(SQLiteError) -> T) throws(StoreError) -> T {
    try withDatabase { db throws(SQLiteError) in
      try db.transaction(immediate: false) { () throws(SQLiteError) in try body(db) }
    }
  }

  /// The checkpoints the store's thread has run on its current connection
  /// (``StoreConfiguration/Checkpointing/inBackground(afterPages:)``) that copied the whole WAL,
  /// the wall time of their SQLite calls (the work the saves did not wait for), and the WAL frames
  /// the connection's commits wrote meanwhile (benchmarks).
  package var backgroundCheckpoints: (completed: Int, time: Duration, framesCommitted: Int) {
    lock.lock()
    defer { lock.unlock() }
    guard let checkpointer = database.checkpointer else { return (0, .zero, 0) }
    let totals = checkpointer.totals
    return (totals.completed, totals.time, checkpointer.framesCommitted)
  }

  #if DEBUG
    /// Replaces the fault injector of the open connection (tests).
    func injectFaults(_ faults: FaultInjector?) {
      lock.lock()
      defer { lock.unlock() }
      database.faults = faults
    }
  #endif
}
