import Foundation

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// `SQLITE_TRANSIENT`, which Swift does not import.
private let transient = unsafeBitCast(
  OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// Runs SQL on a file with the raw C API, outside Waypoint and without its defensive settings (as
/// an attacker or another tool would); `blob` is bound to the one `?` of a single statement.
/// Returns SQLite's result code.
@discardableResult
func rawSQL(_ path: String, _ sql: String, blob: Data? = nil) -> Int32 {
  var db: OpaquePointer?
  defer { sqlite3_close_v2(db) }
  guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { return -1 }
  guard let blob else { return sqlite3_exec(db, sql, nil, nil, nil) }
  var statement: OpaquePointer?
  defer { sqlite3_finalize(statement) }
  guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { return -2 }
  _ = blob.withUnsafeBytes { bytes in
    sqlite3_bind_blob64(statement, 1, bytes.baseAddress, UInt64(bytes.count), transient)
  }
  let code = sqlite3_step(statement)
  return code == SQLITE_DONE ? SQLITE_OK : code
}

/// Runs SQL on a file that may not exist yet, creating it.
func rawSQLCreate(_ path: String, _ sql: String) -> Int32 {
  var db: OpaquePointer?
  defer { sqlite3_close_v2(db) }
  guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK
  else { return -1 }
  return sqlite3_exec(db, sql, nil, nil, nil)
}

/// The rows of a query, each column as text, read with the raw C API.
func rawQuery(_ path: String, _ sql: String) -> [[String]] {
  var db: OpaquePointer?
  defer { sqlite3_close_v2(db) }
  guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return [] }
  var statement: OpaquePointer?
  defer { sqlite3_finalize(statement) }
  guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { return [] }
  var rows: [[String]] = []
  while sqlite3_step(statement) == SQLITE_ROW {
    rows.append(
      (0..<sqlite3_column_count(statement)).map { column in
        sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "NULL"
      })
  }
  return rows
}

/// A raw connection held open, to keep a lock on a store while the tool runs.
final class RawConnection {
  private var db: OpaquePointer?

  init?(_ path: String) {
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { return nil }
  }

  @discardableResult
  func execute(_ sql: String) -> Int32 { sqlite3_exec(db, sql, nil, nil, nil) }

  deinit { sqlite3_close_v2(db) }
}
