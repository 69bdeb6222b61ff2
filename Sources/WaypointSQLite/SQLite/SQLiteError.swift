/// An error reported by SQLite: its result code, its message, and the statement that failed.
public struct SQLiteError: Error, Hashable, Sendable {
  /// The (extended) result code.
  public var code: ResultCode
  /// SQLite's message (`sqlite3_errmsg`), or the code's explanation when there is none.
  public var message: String
  /// The SQL that failed, when the error comes from a statement.
  public var sql: String?

  /// Creates an error.
  public init(code: ResultCode, message: String? = nil, sql: String? = nil) {
    self.code = code
    self.message = message ?? code.explanation
    self.sql = sql
  }
}

extension SQLiteError: CustomStringConvertible {
  /// `SQLite error 13: database or disk is full (while running: INSERT …)`
  public var description: String {
    var text = "SQLite error \(code.rawValue): \(message)"
    if let sql { text += " (while running: \(sql.prefix(120)))" }
    return text
  }
}
