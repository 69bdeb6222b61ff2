import CSQLiteConfig
import Foundation

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// `SQLITE_TRANSIENT`, which Swift does not import: SQLite copies the bound bytes.
let sqliteTransient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// One SQLite connection: a thin, typed layer over the C API with a statement cache.
///
/// Not thread-safe on its own: `SnapshotStore` serializes every use behind its lock. Statements are
/// prepared once per SQL text with `SQLITE_PREPARE_PERSISTENT` and reused.
final class Database {
  /// How a connection opens its file.
  enum Mode {
    /// Read and write, creating the file if needed.
    case readWrite
    /// Read and write a file that must exist: never creates one (a store's checkpointing
    /// connection, which opens a file the store already has open).
    case readWriteExisting
    /// Read only; the file must exist.
    case readOnly
    /// Read only, telling SQLite that nobody changes the file (`immutable=1`): no locks, no `-shm`
    /// index. For a WAL store without a `-wal` file in a folder the user cannot write, which SQLite
    /// cannot otherwise read.
    case immutable
  }

  let path: String
  /// The connection, `nil` once closed.
  ///
  /// A connection is used by one thread at a time (the store's calls under its lock, a tool's
  /// thread, the checkpoint thread's own connection), and no access to the properties marked
  /// `@exclusivity(unchecked)` stays open across a call: the runtime's check of each access cost
  /// every save a call for nothing.
  @exclusivity(unchecked) private(set) var handle: OpaquePointer?
  private var statements: [String: Statement] = [:]
  /// The statements of ``statement(literal:)`` with the address of their SQL literal: a few (the
  /// save's insert, `PRAGMA data_version`), found by comparing addresses, without hashing.
  @exclusivity(unchecked) private var literals: [(key: UInt, statement: Statement)] = []

  /// What tells ``hasMoved()`` that nothing happened to the file since its last full check; set
  /// at the first check.
  private var moveWatch: FileWatch.Registration?
  private var moveWatchStarted = false
  /// When ``hasMoved()`` next asks SQLite whatever the watch says
  /// (``monotonicNanoseconds()``).
  private var fullMoveCheckDue: UInt64 = 0

  /// A monotonic clock in nanoseconds, for ``hasMoved()``'s once a second: on Linux the coarse
  /// clock (a few milliseconds of resolution, read without the hardware counter).
  private static func monotonicNanoseconds() -> UInt64 {
    #if os(Linux)
      var time = timespec()
      // A clock that cannot be read makes every check a full one.
      guard clock_gettime(CLOCK_MONOTONIC_COARSE, &time) == 0 else { return .max }
      return UInt64(truncatingIfNeeded: time.tv_sec) &* 1_000_000_000
        &+ UInt64(truncatingIfNeeded: time.tv_nsec)
    #else
      return DispatchTime.now().uptimeNanoseconds
    #endif
  }

  #if DEBUG
    /// Faults to inject in place of real calls (tests only).
    var faults: FaultInjector?
    /// How many times ``hasMoved()`` asked SQLite (tests).
    private(set) var fullMoveChecks = 0
  #endif

  /// Opens a connection with SQLite's defensive settings: `SQLITE_DBCONFIG_DEFENSIVE` on, triggers,
  /// views and extension loading off, `trusted_schema` off, and a busy timeout.
  init(path: String, mode: Mode, busyTimeoutMilliseconds: Int32, faults: FaultInjector? = nil)
    throws(SQLiteError)
  {
    self.path = path
    #if DEBUG
      self.faults = faults
    #endif
    let flags: Int32 =
      switch mode {
      case .readWrite: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
      case .readWriteExisting: SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
      case .readOnly: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
      case .immutable: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
      }
    let name = mode == .immutable ? Self.immutableURI(path) : path
    var db: OpaquePointer?
    let code = call(.open, sql: nil) { sqlite3_open_v2(name, &db, flags, nil) }
    handle = db
    guard code == SQLITE_OK, db != nil else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) }
      close()
      throw SQLiteError(code: ResultCode(rawValue: code), message: message)
    }
    sqlite3_extended_result_codes(db, 1)
    sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
    for (name, option) in [
      ("SQLITE_DBCONFIG_DEFENSIVE", SQLITE_DBCONFIG_DEFENSIVE),
      ("SQLITE_DBCONFIG_ENABLE_TRIGGER", SQLITE_DBCONFIG_ENABLE_TRIGGER),
      ("SQLITE_DBCONFIG_ENABLE_VIEW", SQLITE_DBCONFIG_ENABLE_VIEW),
      ("SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION", SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION),
    ] {
      // Defensive mode on, everything else off.
      let status = configure(name, option, to: option == SQLITE_DBCONFIG_DEFENSIVE ? 1 : 0)
      guard status == SQLITE_OK else {
        close()
        throw SQLiteError(
          code: ResultCode(rawValue: status),
          message: "could not apply the defensive setting \(name)")
      }
    }
    try execute("PRAGMA trusted_schema = OFF")
  }

  deinit { close() }

  /// `file:<path>?immutable=1`, the path percent-encoded but for unreserved ASCII and `/`.
  static func immutableURI(_ path: String) -> String {
    let unreserved = Set(
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
    var uri = "file:"
    for byte in path.utf8 {
      if unreserved.contains(byte) {
        uri.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        let hex = String(byte, radix: 16, uppercase: true)
        uri += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return uri + "?immutable=1"
  }

  /// Finalizes every cached statement and closes the connection, after the background checkpoints'
  /// thread and connection (``checkpointInBackground(_:)``). Safe to call twice.
  func close() {
    if let checkpointer {
      if let handle { sqlite3_wal_hook(handle, nil, nil) }
      checkpointer.stop()
      self.checkpointer = nil
    }
    for statement in statements.values { statement.finalize() }
    statements.removeAll()
    literals.removeAll()
    for statement in control { sqlite3_finalize(statement) }
    control = [nil, nil, nil, nil]
    if let handle { sqlite3_close_v2(handle) }
    handle = nil
    mainFile = nil
    walIndexRegion = nil
    moveWatch?.cancel()
    moveWatch = nil
  }

  /// Sets an `int` option of `sqlite3_db_config` through the fault seam (the SQL text it passes
  /// is `name`, the option's name).
  ///
  /// - Returns: SQLite's result code; `SQLITE_ERROR` when the call succeeded but the option does
  ///   not hold `value`.
  private func configure(_ name: String, _ option: Int32, to value: Int32) -> Int32 {
    guard let handle else { return SQLITE_MISUSE }
    var applied: Int32 = -1
    let status = call(.configure, sql: name) {
      waypoint_sqlite3_db_config_int(UnsafeMutableRawPointer(handle), option, value, &applied)
    }
    return status != SQLITE_OK ? status : applied == value ? SQLITE_OK : SQLITE_ERROR
  }

  /// Tells SQLite not to checkpoint the WAL when this connection closes, even as the file's last
  /// connection (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`); `false` when it could not be set.
  func disableCheckpointOnClose() -> Bool {
    configure("SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE", SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, to: 1)
      == SQLITE_OK
  }

  /// Checkpoints the WAL on a thread of its own (``BackgroundCheckpointer``) instead of in the
  /// commit that fills it: installs `checkpointer` as the connection's WAL hook, which replaces
  /// SQLite's automatic checkpoints. ``close()`` stops it first.
  func checkpointInBackground(_ checkpointer: BackgroundCheckpointer) {
    guard let handle else { return }
    self.checkpointer = checkpointer
    sqlite3_wal_hook(
      handle,
      { context, db, _, pages in
        guard let context else { return SQLITE_OK }
        return Unmanaged<BackgroundCheckpointer>.fromOpaque(context).takeUnretainedValue()
          .committed(db, walPages: pages)
      }, Unmanaged.passUnretained(checkpointer).toOpaque())
  }

  /// Checkpoints the WAL in the commit that leaves `pages` or more in it, SQLite's own policy
  /// (`sqlite3_wal_autocheckpoint`).
  func checkpointDuringCommits(afterPages pages: Int) {
    guard let handle else { return }
    sqlite3_wal_autocheckpoint(handle, Int32(clamping: max(1, pages)))
  }

  /// The connection's background checkpoints, when ``checkpointInBackground(_:)`` started them.
  private(set) var checkpointer: BackgroundCheckpointer?

  /// Copies what it can of the WAL into the file (`SQLITE_CHECKPOINT_PASSIVE`: without waiting for
  /// a lock or blocking a writer).
  ///
  /// - Returns: SQLite's result code, the frames in the WAL and how many of them the file now
  ///   holds (both 0 when SQLite did not say).
  func checkpoint() -> (code: Int32, frames: Int32, copied: Int32) {
    guard let handle else { return (SQLITE_MISUSE, 0, 0) }
    var frames: Int32 = 0
    var copied: Int32 = 0
    let code = call(.checkpoint, sql: nil) {
      sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &frames, &copied)
    }
    return code == SQLITE_OK ? (code, frames, copied) : (code, 0, 0)
  }

  /// The seam through which every checked SQLite call goes; tests inject faults here.
  func call(_ kind: SQLiteCall, sql: String?, _ body: () -> Int32) -> Int32 {
    #if DEBUG
      if let injected = faults?.result(kind, sql) { return injected }
    #endif
    return body()
  }

  /// The error for a failed call, with the connection's message when it matches the code.
  func error(_ code: Int32, sql: String?) -> SQLiteError {
    var message: String?
    if let handle, sqlite3_extended_errcode(handle) == code || sqlite3_errcode(handle) == code {
      message = String(cString: sqlite3_errmsg(handle))
    }
    return SQLiteError(code: ResultCode(rawValue: code), message: message, sql: sql)
  }

  /// Runs SQL text that may hold several statements and returns no rows (schema migrations,
  /// pragmas, transaction control). The corresponding C function is `sqlite3_exec`.
  func execute(_ sql: String) throws(SQLiteError) {
    guard let handle else {
      throw SQLiteError(code: .misuse, message: "connection closed", sql: sql)
    }
    let code = call(.exec, sql: sql) { sqlite3_exec(handle, sql, nil, nil, nil) }
    guard code == SQLITE_OK else { throw error(code, sql: sql) }
  }

  /// The transaction-control statements (`BEGIN`, `COMMIT`, ...), prepared once each: run on every
  /// save and restore, they are not parsed again by `sqlite3_exec` each time. At each
  /// statement's ``TransactionControl/slot``: found without hashing the key on every save.
  @exclusivity(unchecked) private var control: [OpaquePointer?] = [nil, nil, nil, nil]

  /// A statement that begins or ends a transaction.
  enum TransactionControl: String {
    case begin = "BEGIN"
    case beginImmediate = "BEGIN IMMEDIATE"
    case commit = "COMMIT"
    case rollback = "ROLLBACK"

    /// The statement's place in the connection's prepared transaction-control statements.
    var slot: Int {
      switch self {
      case .begin: 0
      case .beginImmediate: 1
      case .commit: 2
      case .rollback: 3
      }
    }
  }

  /// Runs a transaction-control statement, prepared on first use and kept. Faults are injected as
  /// for ``execute(_:)`` (the call kind is `exec`, the SQL the statement's text), since that is
  /// what the statement stands for.
  func execute(_ statement: TransactionControl) throws(SQLiteError) {
    let sql = statement.rawValue
    guard let handle else {
      throw SQLiteError(code: .misuse, message: "connection closed", sql: sql)
    }
    var prepared = control[statement.slot]
    if prepared == nil {
      var pointer: OpaquePointer?
      let code = sqlite3_prepare_v3(
        handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
      guard code == SQLITE_OK, let pointer else {
        if let pointer { sqlite3_finalize(pointer) }
        throw error(code == SQLITE_OK ? SQLITE_MISUSE : code, sql: sql)
      }
      control[statement.slot] = pointer
      prepared = pointer
    }
    let code = call(.exec, sql: sql) {
      let stepped = sqlite3_step(prepared)
      sqlite3_reset(prepared)
      return stepped == SQLITE_DONE || stepped == SQLITE_ROW ? SQLITE_OK : stepped
    }
    guard code == SQLITE_OK else { throw error(code, sql: sql) }
  }

  /// The connection's `PRAGMA data_version`: it changes when another connection (in this process
  /// or another) commits to the file, never for this connection's own commits. Outside a
  /// transaction it reads the latest commit.
  func dataVersion() throws(SQLiteError) -> Int64 {
    let statement = try statement(literal: "PRAGMA data_version")
    defer { statement.reset() }
    return try statement.step() ? statement.int64(0) : 0
  }

  /// The header of the file's WAL index (the `-shm` file), which SQLite rewrites on every commit
  /// of any connection: while it stays the same, nobody has committed. 48 bytes, compared whole;
  /// their layout is SQLite's (https://sqlite.org/walformat.html).
  struct WALIndexHeader: Equatable {
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)

    /// The commit counter (`iChange`): one more after each commit.
    var change: UInt32 {
      withUnsafeBytes(of: words) { $0.load(fromByteOffset: 8, as: UInt32.self) }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
        && lhs.words.3 == rhs.words.3 && lhs.words.4 == rhs.words.4 && lhs.words.5 == rhs.words.5
    }

    /// Reads the header of `db`'s WAL index; `nil` when it cannot be read whole.
    fileprivate static func read(_ db: Database) -> WALIndexHeader? {
      guard let handle = db.handle else { return nil }
      var header = WALIndexHeader()
      let code = db.call(.walIndex, sql: nil) {
        // The main file and the index's first region, each looked up once and kept while SQLite
        // keeps them (the file while the connection is open, the region while it is in WAL mode):
        // a read then asks SQLite for nothing.
        if db.walIndexRegion == nil {
          if db.mainFile == nil {
            db.mainFile = waypoint_main_file(UnsafeMutableRawPointer(handle))
          }
          var region: UnsafeRawPointer?
          let mapped = waypoint_wal_index_region(db.mainFile, &region)
          guard mapped == SQLITE_OK else { return mapped }
          db.walIndexRegion = region
        }
        return withUnsafeMutableBytes(of: &header.words) { bytes in
          waypoint_wal_index_header_in_region(
            db.walIndexRegion, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
        }
      }
      return code == SQLITE_OK ? header : nil
    }
  }

  /// The header of the WAL index as it stands: read in memory, without a lock or a system call.
  /// `nil` when it cannot be read whole (a commit writing it), and without reading anything when
  /// the journal is not in WAL mode (where SQLite has no WAL index mapped, and asking for it would
  /// make one).
  func walIndexHeader() -> WALIndexHeader? { inWALMode ? WALIndexHeader.read(self) : nil }

  /// The main database's `sqlite3_file`, found at the first read of the WAL-index header; `nil`
  /// once closed.
  @exclusivity(unchecked) fileprivate var mainFile: UnsafeMutableRawPointer?

  /// The WAL index's first region as SQLite mapped it, found at the first read of the header
  /// that found it mapped; `nil` once closed or after a change of the journal mode (leaving WAL
  /// mode unmaps it, and coming back maps it anew).
  @exclusivity(unchecked) fileprivate var walIndexRegion: UnsafeRawPointer?

  /// Whether the journal is in WAL mode, as ``setJournalMode(_:)`` last found it.
  @exclusivity(unchecked) private(set) var inWALMode = false

  /// Sets the journal mode (`PRAGMA journal_mode = <mode>`, `mode` one of SQLite's names) and
  /// returns the mode SQLite answers, lowercased (the mode in force, which may not be `mode`).
  func setJournalMode(_ mode: String) throws(SQLiteError) -> String? {
    walIndexRegion = nil
    let answer = try scalar("PRAGMA journal_mode = \(mode)") { $0.text() }??.lowercased()
    inWALMode = answer == "wal"
    return answer
  }

  /// How many rows this connection's statements have inserted, updated or deleted since it
  /// opened. The corresponding C function is `sqlite3_total_changes`.
  var totalChanges: Int32 { handle.map { sqlite3_total_changes($0) } ?? 0 }

  /// The cached prepared statement for the SQL literal `sql`, found by the literal's address
  /// (the same text always has the same address), as its last user left it: each user resets it
  /// (``Statement/reset()``, which clears its bindings) before it returns, so that it is not
  /// reset twice on every save.
  func statement(literal sql: StaticString) throws(SQLiteError) -> Statement {
    guard sql.hasPointerRepresentation else { return try statement(sql.description) }
    let key = UInt(bitPattern: sql.utf8Start)
    for literal in literals where literal.key == key { return literal.statement }
    let prepared = try statement(sql.description)
    literals.append((key, prepared))
    return prepared
  }

  /// The cached prepared statement for `sql`, reset and with its bindings cleared.
  func statement(_ sql: String) throws(SQLiteError) -> Statement {
    if let cached = statements[sql] {
      cached.reset()
      return cached
    }
    guard let handle else {
      throw SQLiteError(code: .misuse, message: "connection closed", sql: sql)
    }
    var pointer: OpaquePointer?
    let code = call(.prepare, sql: sql) {
      sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
    }
    guard code == SQLITE_OK, let pointer else {
      if let pointer { sqlite3_finalize(pointer) }
      throw error(code == SQLITE_OK ? SQLITE_MISUSE : code, sql: sql)
    }
    let statement = Statement(pointer, sql: sql, database: self)
    statements[sql] = statement
    return statement
  }

  /// What a row callback of ``query(_:_:row:)`` asks for next.
  enum RowIteration {
    /// Step to the next row.
    case `continue`
    /// Stop: the statement is reset and no further row is read.
    case stop
  }

  /// Runs one statement with its bindings and passes each row to `row`, until the rows end or
  /// `row` answers ``RowIteration/stop``.
  ///
  /// - Returns: ``RowIteration/stop`` when `row` stopped, ``RowIteration/continue`` when every row
  ///   was read.
  @discardableResult
  func query(
    _ sql: String, _ bindings: [SQLValue] = [],
    row: (inout Row) throws(SQLiteError) -> RowIteration
  ) throws(SQLiteError) -> RowIteration {
    let statement = try statement(sql)
    defer { statement.reset() }
    try statement.bind(bindings)
    while try statement.step() {
      var current = Row(statement)
      if try row(&current) == .stop { return .stop }
    }
    return .continue
  }

  /// Every row of one statement, each read by `read`.
  func rows<T>(
    _ sql: String, _ bindings: [SQLValue] = [], _ read: (inout Row) throws(SQLiteError) -> T
  ) throws(SQLiteError) -> [T] {
    var values: [T] = []
    try query(sql, bindings) { row throws(SQLiteError) in
      values.append(try read(&row))
      return .continue
    }
    return values
  }

  /// Runs one statement that returns no rows, and returns the number of rows it changed.
  @discardableResult
  func run(_ sql: String, _ bindings: [SQLValue] = []) throws(SQLiteError) -> Int {
    try query(sql, bindings) { _ throws(SQLiteError) in .continue }
    return Int(sqlite3_changes(handle))
  }

  /// The first row read by `read`, or `nil` when there is no row. Later rows are not read.
  func scalar<T>(_ sql: String, _ bindings: [SQLValue] = [], _ read: (inout Row) -> T)
    throws(SQLiteError) -> T?
  {
    var value: T?
    try query(sql, bindings) { row throws(SQLiteError) in
      value = read(&row)
      return .stop
    }
    return value
  }

  /// Sets how long statements wait for another connection's lock. The corresponding C function is
  /// `sqlite3_busy_timeout`.
  func setBusyTimeout(_ milliseconds: Int32) {
    if let handle { sqlite3_busy_timeout(handle, milliseconds) }
  }

  /// Runs `body` again while it fails with `SQLITE_BUSY`, for at most `timeout`, for the few calls
  /// that SQLite fails at once instead of calling the busy handler.
  func retryingWhileBusy<T>(for timeout: Duration, _ body: () throws(SQLiteError) -> T)
    throws(SQLiteError) -> T
  {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while true {
      do {
        return try body()
      } catch  where error.code == .busy && clock.now < deadline {
        usleep(5_000)
      }
    }
  }

  /// Whether the database file was deleted or renamed (its path no longer leads to the file this
  /// connection has open) since it was opened. The corresponding C call is `sqlite3_file_control`
  /// with `SQLITE_FCNTL_HAS_MOVED` (a `stat` of the path); a failing call answers `false`.
  ///
  /// Where the file is watched (``FileWatch``, Linux), that call is skipped while the watch saw
  /// nothing happen to the file and the last one, less than a second ago, found it in place.
  func hasMoved() -> Bool {
    guard let handle else { return false }
    let now = Self.monotonicNanoseconds()
    if let moveWatch {
      if !moveWatch.takeEvents() {
        if now < fullMoveCheckDue { return false }
      } else {
        // Watched again, from the path as it is now: the inode the watch was added for may not
        // be the one now at the path (another file was there when it was added, or the kernel
        // dropped the watch), and the full check below tells whether that one is the open file.
        moveWatch.cancel()
        self.moveWatch = nil
        moveWatchStarted = false
      }
    }
    if !moveWatchStarted {
      // Watched from before the full check, so that nothing between the two is missed.
      moveWatchStarted = true
      if let name = sqlite3_db_filename(handle, "main"), name.pointee != 0 {
        moveWatch = FileWatch.shared?.register(name)
      }
    }
    #if DEBUG
      fullMoveChecks += 1
    #endif
    var moved: Int32 = 0
    let code = call(.fileControl, sql: nil) {
      sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved)
    }
    // Only a check that found the file in place lets the next ones rely on the watch for a
    // second: after a failing call (the events it was to judge are taken) or a file found moved
    // (which sends no new event to say it is still gone), the next check asks SQLite again.
    fullMoveCheckDue = code == SQLITE_OK && moved == 0 ? now &+ 1_000_000_000 : now
    return code == SQLITE_OK && moved != 0
  }

  /// The rowid of the last insert.
  var lastInsertedRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

  /// How a transaction run by ``inTransaction(immediate:_:)`` ends.
  enum TransactionCompletion {
    /// Commit what the body did.
    case commit
    /// Roll back what the body did: nothing of it is written.
    case rollback
  }

  /// Runs `body` in a transaction and ends it as `body` answers: `BEGIN IMMEDIATE` for writers
  /// (the write lock is taken at once, so a busy store waits for the busy timeout instead of
  /// failing mid-transaction), `BEGIN` for readers. Rolls back when `body` throws.
  ///
  /// A `ROLLBACK` that fails is not ignored: the connection is still inside the transaction, so the
  /// next transaction rolls it back before it begins, and throws that `ROLLBACK`'s error, touching
  /// nothing, when it fails again. The error of the failed transaction itself is what this call
  /// throws; a `ROLLBACK` that `body` asked for and that fails is likewise left to the next
  /// transaction.
  ///
  /// - Returns: how the transaction ended.
  @discardableResult
  func inTransaction(
    immediate: Bool = true, _ body: () throws(SQLiteError) -> TransactionCompletion
  ) throws(SQLiteError) -> TransactionCompletion {
    try runTransaction(immediate: immediate) { () throws(SQLiteError) in
      let completion = try body()
      return (completion, completion)
    }
  }

  /// Runs `body` in a transaction that commits when `body` returns, as
  /// ``inTransaction(immediate:_:)`` does when its body answers ``TransactionCompletion/commit``.
  func transaction<T>(immediate: Bool = true, _ body: () throws(SQLiteError) -> T)
    throws(SQLiteError) -> T
  {
    try runTransaction(immediate: immediate) { () throws(SQLiteError) in (try body(), .commit) }
  }

  /// The one transaction runner: `body` returns its value and how the transaction ends.
  private func runTransaction<T>(
    immediate: Bool, _ body: () throws(SQLiteError) -> (T, TransactionCompletion)
  ) throws(SQLiteError) -> T {
    try rollBackLeftoverTransaction()
    try execute(immediate ? TransactionControl.beginImmediate : .begin)
    do {
      let (value, completion) = try body()
      switch completion {
      case .commit: try execute(TransactionControl.commit)
      // As after an error: a failed ROLLBACK is ended by the next transaction.
      case .rollback: try? rollBackLeftoverTransaction()
      }
      return value
    } catch {
      // A failed ROLLBACK leaves the transaction open; rollBackLeftoverTransaction ends it next time.
      try? rollBackLeftoverTransaction()
      throw error
    }
  }

  /// Whether the connection is inside a transaction. The corresponding C function is
  /// `sqlite3_get_autocommit`.
  var isInTransaction: Bool { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }

  /// Rolls back a transaction left open (by a failed `COMMIT`, or a `ROLLBACK` that failed earlier).
  func rollBackLeftoverTransaction() throws(SQLiteError) {
    guard isInTransaction else { return }
    try execute(TransactionControl.rollback)
  }
}
