import Foundation

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// A prepared statement owned by a ``Database``'s cache.
package final class Statement {
  private var handle: OpaquePointer?
  package let sql: String
  private unowned let database: Database

  package init(_ handle: OpaquePointer, sql: String, database: Database) {
    self.handle = handle
    self.sql = sql
    self.database = database
  }

  /// A call to SQLite through the connection's fault seam (``Database/call(_:sql:_:)``), which
  /// debug builds have; a release build makes the call without reaching the connection (through
  /// an `unowned` reference, a retain and a release at every step of every row).
  @inline(__always)
  private func call(_ kind: SQLiteCall, _ body: () -> Int32) -> Int32 {
    #if DEBUG
      database.call(kind, sql: sql, body)
    #else
      body()
    #endif
  }

  package func finalize() {
    if let handle { sqlite3_finalize(handle) }
    handle = nil
  }

  /// Steps once outside the fault seam, for a caller that makes the step part of a call of its
  /// own kind through the seam (``Database/execute(_:)-(Database.TransactionControl)``).
  package func stepOutsideSeam() -> Int32 { sqlite3_step(handle) }

  /// Resets the statement and clears its bindings, ready for the next use.
  package func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  /// Binds the values to parameters 1, 2, ….
  package func bind(_ values: [SQLValue]) throws(SQLiteError) {
    for (offset, value) in values.enumerated() {
      try bind(value, at: Int32(offset + 1))
    }
  }

  /// Binds one value to the parameter at `index` (the first is 1).
  package func bind(_ value: SQLValue, at index: Int32) throws(SQLiteError) {
    let code = call(.bind) {
      switch value {
      case .integer(let number): return sqlite3_bind_int64(handle, index, number)
      case .text(let text):
        // Bound with its byte length: a NUL inside the text is kept, never a terminator.
        var text = text
        return text.withUTF8 { bytes in
          bytes.withMemoryRebound(to: CChar.self) { chars in
            // An empty text still needs a non-NULL pointer, or it would bind as NULL.
            sqlite3_bind_text64(
              handle, index, chars.baseAddress ?? UnsafePointer(bitPattern: 1),
              UInt64(chars.count), sqliteTransient, UInt8(SQLITE_UTF8))
          }
        }
      case .blob(let data):
        return data.withUnsafeBytes { bytes in
          // A zero-length blob must still bind as a blob, not NULL.
          sqlite3_bind_blob64(
            handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
            UInt64(bytes.count), sqliteTransient)
        }
      case .null: return sqlite3_bind_null(handle, index)
      }
    }
    guard code == SQLITE_OK else { throw database.error(code, sql: sql) }
  }

  /// Steps once: `true` when a row is available, `false` when the statement is done.
  package func step() throws(SQLiteError) -> Bool {
    let code = call(.step) { sqlite3_step(handle) }
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw database.error(code, sql: sql)
    }
  }

  /// Whether the column of the current row is NULL.
  package func isNull(_ column: Int32) -> Bool {
    sqlite3_column_type(handle, column) == SQLITE_NULL
  }

  /// The column as an integer (0 for NULL).
  package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

  /// The column as an `Int` (0 for NULL).
  package func int(_ column: Int32) -> Int {
    Int(truncatingIfNeeded: sqlite3_column_int64(handle, column))
  }

  /// The column as text, or `nil` for NULL.
  package func text(_ column: Int32) -> String? {
    guard let pointer = sqlite3_column_text(handle, column) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
  }

  /// The column's text (or a value converted to text) as bytes, valid until the statement steps
  /// or resets; `nil` for NULL.
  package func textBytes(_ column: Int32) -> UnsafeRawBufferPointer? {
    guard let pointer = sqlite3_column_text(handle, column) else { return nil }
    return UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column)))
  }

  /// The column's bytes, valid until the statement steps or resets; `nil` for NULL (an empty
  /// buffer for an empty blob).
  package func blobBytes(_ column: Int32) -> UnsafeRawBufferPointer? {
    if isNull(column) { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    guard count > 0, let pointer = sqlite3_column_blob(handle, column) else {
      return UnsafeRawBufferPointer(start: nil, count: 0)
    }
    return UnsafeRawBufferPointer(start: pointer, count: count)
  }

  /// The column as bytes, or `nil` for NULL.
  package func blob(_ column: Int32) -> Data? {
    if isNull(column) { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return Data() }
    return Data(bytes: pointer, count: count)
  }
}
