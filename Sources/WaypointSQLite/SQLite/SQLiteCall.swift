#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// The SQLite C functions whose results Waypoint checks. Every such call goes through
/// ``Database/call(_:sql:_:)``, the one seam where tests inject faults.
package enum SQLiteCall: Hashable, Sendable {
  /// `sqlite3_open_v2`.
  case open
  /// `sqlite3_prepare_v3`.
  case prepare
  /// `sqlite3_step`.
  case step
  /// `sqlite3_exec` (including the `ROLLBACK` after a failed transaction).
  case exec
  /// `sqlite3_db_config`, for the defensive settings applied when a connection opens; the SQL text
  /// passed to the seam names the option (`SQLITE_DBCONFIG_DEFENSIVE`, ...).
  case configure
  /// `sqlite3_bind_*`.
  case bind
  /// `sqlite3_file_control`.
  case fileControl
  /// `sqlite3_create_function_v2`, for the SQL functions a connection registers when it opens.
  case createFunction
  /// `sqlite3_table_column_metadata`; the SQL text passed to the seam is `table.column`.
  case columnMetadata
}

/// A fault to inject in place of a real SQLite call, in debug builds only.
///
/// Tests set ``Database/faults`` (through `SnapshotStore`'s internal hook) to make chosen calls
/// fail with chosen codes (`SQLITE_FULL`, `SQLITE_IOERR_WRITE`, `SQLITE_BUSY`) without touching the
/// file. Release builds compile the seam out.
package struct FaultInjector: Sendable {
  /// Returns a result code to report instead of making the call, or `nil` to make the real call.
  package var result: @Sendable (_ call: SQLiteCall, _ sql: String?) -> Int32?

  /// Fails every call of `kind` whose SQL starts with `prefix` (any SQL when `prefix` is empty).
  package static func fail(_ kind: SQLiteCall, matching prefix: String = "", with code: ResultCode)
    -> FaultInjector
  {
    FaultInjector { call, sql in
      call == kind && (prefix.isEmpty || (sql ?? "").hasPrefix(prefix)) ? code.rawValue : nil
    }
  }
}
