import CSQLiteConfig
import Foundation

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// `SQLITE_TRANSIENT`, which Swift does not import: SQLite copies the bound bytes.
package let sqliteTransient = unsafeBitCast(
  OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// One SQLite connection: a thin, typed layer over the C API with a statement cache.
///
/// Not thread-safe on its own: `SnapshotStore` serializes every use behind its lock. Statements are
/// prepared once per SQL text with `SQLITE_PREPARE_PERSISTENT` and reused.
package final class Database {
  /// How a connection opens its file.
  package enum Mode {
    /// Read and write, creating the file if needed.
    case readWrite
    /// Read only; the file must exist.
    case readOnly
    /// Read only, telling SQLite that nobody changes the file (`immutable=1`): no locks, no `-shm`
    /// index. For a WAL store without a `-wal` file in a folder the user cannot write, which SQLite
    /// cannot otherwise read.
    case immutable
  }

  package let path: String
  /// The connection, `nil` once closed.
  private(set) var handle: OpaquePointer?
  /// The threshold of ``checkpointDuringCommits(afterPages:)`` (SQLite's own until it is called).
  private var checkpointPages: Int32 = 1000
  /// The prepared statements, by SQL text.
  private var statements: [String: Statement] = [:]

  #if DEBUG
    /// Faults to inject in place of real calls (tests only).
    package var faults: FaultInjector?
  #endif

  /// Opens a connection with SQLite's defensive settings: `SQLITE_DBCONFIG_DEFENSIVE` on, triggers,
  /// views and extension loading off, `trusted_schema` off, and a busy timeout.
  package init(
    path: String, mode: Mode, busyTimeoutMilliseconds: Int32, faults: FaultInjector? = nil
  )
    throws(SQLiteError)
  {
    self.path = path
    #if DEBUG
      self.faults = faults
    #endif
    let flags: Int32 =
      switch mode {
      case .readWrite: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
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
    try registerFunctions()
  }

  deinit { close() }

  /// `file:<path>?immutable=1`, the path percent-encoded but for unreserved ASCII and `/`.
  package static func immutableURI(_ path: String) -> String {
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

  /// Finalizes every prepared statement and closes the connection. Safe to call twice.
  package func close() {
    for statement in statements.values { statement.finalize() }
    statements.removeAll()
    if let handle { sqlite3_close_v2(handle) }
    handle = nil
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

  /// Whether `column` is the primary key of `table` in the main database, from the schema SQLite
  /// holds (no statement runs); `false` when the table or the column does not exist. The
  /// corresponding C function is `sqlite3_table_column_metadata`.
  package func isPrimaryKey(_ column: String, of table: String) throws(SQLiteError) -> Bool {
    guard let handle else {
      throw SQLiteError(code: .misuse, message: "connection closed", sql: nil)
    }
    var primaryKey: Int32 = 0
    let name = "\(table).\(column)"
    let code = call(.columnMetadata, sql: name) {
      sqlite3_table_column_metadata(handle, "main", table, column, nil, nil, nil, &primaryKey, nil)
    }
    // SQLITE_ERROR: no such table or column. Anything else (the schema unreadable) is an error.
    if code == SQLITE_ERROR { return false }
    guard code == SQLITE_OK else { throw error(code, sql: name) }
    return primaryKey != 0
  }

  /// Copies the WAL into the file in the commit that leaves `pages` or more in it, SQLite's own
  /// policy. The corresponding C function is `sqlite3_wal_autocheckpoint`.
  package func checkpointDuringCommits(afterPages pages: Int) {
    checkpointPages = Int32(clamping: max(1, pages))
    guard let handle else { return }
    sqlite3_wal_autocheckpoint(handle, checkpointPages)
  }

  /// Runs `body` with no checkpoint in its commits: the WAL is copied by a later commit that
  /// crosses the threshold of ``checkpointDuringCommits(afterPages:)``.
  package func withoutCheckpoints<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    if let handle { sqlite3_wal_autocheckpoint(handle, 0) }
    defer {
      if let handle { sqlite3_wal_autocheckpoint(handle, checkpointPages) }
    }
    return try body()
  }

  /// The seam through which every checked SQLite call goes; tests inject faults here.
  package func call(_ kind: SQLiteCall, sql: String?, _ body: () -> Int32) -> Int32 {
    #if DEBUG
      if let injected = faults?.result(kind, sql) { return injected }
    #endif
    return body()
  }

  /// The error for a failed call, with the connection's message when it matches the code.
  package func error(_ code: Int32, sql: String?) -> SQLiteError {
    var message: String?
    if let handle, sqlite3_extended_errcode(handle) == code || sqlite3_errcode(handle) == code {
      message = String(cString: sqlite3_errmsg(handle))
    }
    return SQLiteError(code: ResultCode(rawValue: code), message: message, sql: sql)
  }

  /// Runs SQL text that may hold several statements and returns no rows (schema migrations,
  /// pragmas, transaction control). The corresponding C function is `sqlite3_exec`.
  package func execute(_ sql: String) throws(SQLiteError) {
    guard let handle else {
      throw SQLiteError(code: .misuse, message: "connection closed", sql: sql)
    }
    let code = call(.exec, sql: sql) { sqlite3_exec(handle, sql, nil, nil, nil) }
    guard code == SQLITE_OK else { throw error(code, sql: sql) }
  }

  /// A statement that begins or ends a transaction.
  package enum TransactionControl: String {
    case begin = "BEGIN"
    case beginImmediate = "BEGIN IMMEDIATE"
    case commit = "COMMIT"
    case rollback = "ROLLBACK"
  }

  /// Runs a transaction-control statement, prepared once and kept like every other statement.
  /// Faults are injected as for ``execute(_:)`` (the call kind is `exec`, the SQL the statement's
  /// text), since that is what the statement stands for.
  package func execute(_ control: TransactionControl) throws(SQLiteError) {
    let sql = control.rawValue
    let statement = try statement(sql)
    let code = call(.exec, sql: sql) {
      let stepped = statement.stepOutsideSeam()
      statement.reset()
      return stepped == SQLITE_DONE || stepped == SQLITE_ROW ? SQLITE_OK : stepped
    }
    guard code == SQLITE_OK else { throw error(code, sql: sql) }
  }

  /// The connection's `PRAGMA data_version`: it changes when another connection (in this process
  /// or another) commits to the file, never for this connection's own commits. Outside a
  /// transaction it reads the latest commit.
  package func dataVersion() throws(SQLiteError) -> Int64 {
    try scalar("PRAGMA data_version") { $0.int64() } ?? 0
  }

  /// Sets the journal mode (`PRAGMA journal_mode = <mode>`, `mode` one of SQLite's names) and
  /// returns the mode SQLite answers, lowercased (the mode in force, which may not be `mode`).
  package func setJournalMode(_ mode: String) throws(SQLiteError) -> String? {
    try scalar("PRAGMA journal_mode = \(mode)") { $0.text() }??.lowercased()
  }

  /// The cached prepared statement for `sql`, reset and with its bindings cleared.
  package func statement(_ sql: String) throws(SQLiteError) -> Statement {
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
  package enum RowIteration {
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
  package func query(
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
  package func rows<T>(
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
  package func run(_ sql: String, _ bindings: [SQLValue] = []) throws(SQLiteError) -> Int {
    try query(sql, bindings) { _ throws(SQLiteError) in .continue }
    return Int(sqlite3_changes(handle))
  }

  /// The first row read by `read`, or `nil` when there is no row. Later rows are not read.
  package func scalar<T>(_ sql: String, _ bindings: [SQLValue] = [], _ read: (inout Row) -> T)
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
  package func setBusyTimeout(_ milliseconds: Int32) {
    if let handle { sqlite3_busy_timeout(handle, milliseconds) }
  }

  /// Runs `body` again while it fails with `SQLITE_BUSY`, for at most `timeout`, for the few calls
  /// that SQLite fails at once instead of calling the busy handler.
  package func retryingWhileBusy<T>(for timeout: Duration, _ body: () throws(SQLiteError) -> T)
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

  /// Whether the database file was deleted or renamed since it was opened: the name SQLite
  /// resolved when it opened the file no longer leads to it. The corresponding C call is
  /// `sqlite3_file_control` with `SQLITE_FCNTL_HAS_MOVED`; a failing call answers `false`.
  ///
  /// It does not see a symbolic link on the app's path retargeted later (SQLite resolved the link
  /// when it opened the file): ``SnapshotStore`` also compares the file at the app's path with
  /// the one it opened.
  package func hasMoved() -> Bool {
    guard let handle else { return false }
    var moved: Int32 = 0
    let code = call(.fileControl, sql: nil) {
      sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved)
    }
    return code == SQLITE_OK && moved != 0
  }

  /// The name SQLite opened the main database file by (`sqlite3_db_filename`): the absolute
  /// path after SQLite's own resolution, symbolic links followed. `nil` when closed or when the
  /// database has no file.
  package var filename: String? {
    guard let handle, let name = sqlite3_db_filename(handle, "main"), name.pointee != 0 else {
      return nil
    }
    return String(cString: name)
  }

  /// The rowid of the last insert.
  package var lastInsertedRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

  /// How a transaction run by ``inTransaction(immediate:_:)`` ends.
  package enum TransactionCompletion {
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
  package func inTransaction(
    immediate: Bool = true, _ body: () throws(SQLiteError) -> TransactionCompletion
  ) throws(SQLiteError) -> TransactionCompletion {
    try runTransaction(immediate: immediate) { () throws(SQLiteError) in
      let completion = try body()
      return (completion, completion)
    }
  }

  /// Runs `body` in a transaction that commits when `body` returns, as
  /// ``inTransaction(immediate:_:)`` does when its body answers ``TransactionCompletion/commit``.
  package func transaction<T>(immediate: Bool = true, _ body: () throws(SQLiteError) -> T)
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
  package var isInTransaction: Bool { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }

  /// Rolls back a transaction left open (by a failed `COMMIT`, or a `ROLLBACK` that failed earlier).
  package func rollBackLeftoverTransaction() throws(SQLiteError) {
    guard isInTransaction else { return }
    try execute(TransactionControl.rollback)
  }
}
