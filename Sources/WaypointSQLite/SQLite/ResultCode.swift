#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// A SQLite result code, primary or extended.
///
/// Compare with `==` for an exact code; in a `switch`, a primary code pattern also matches its
/// extended codes (`case .ioError:` matches `SQLITE_IOERR_WRITE`), as in GRDB.
public struct ResultCode: RawRepresentable, Hashable, Sendable {
  /// The C value (`SQLITE_BUSY`, `SQLITE_IOERR_WRITE`, ...).
  public var rawValue: Int32

  /// Wraps a C result code.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// The primary code (the low byte): `SQLITE_IOERR` for `SQLITE_IOERR_WRITE`.
  public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

  /// SQLite's English explanation of the code. The corresponding C function is `sqlite3_errstr`.
  public var explanation: String { String(cString: sqlite3_errstr(rawValue)) }

  /// `SQLITE_OK`.
  public static let ok = ResultCode(rawValue: SQLITE_OK)
  /// `SQLITE_ERROR`: a generic error, such as an SQL mistake.
  public static let error = ResultCode(rawValue: SQLITE_ERROR)
  /// `SQLITE_PERM`: the access mode for a new database could not be provided.
  public static let permission = ResultCode(rawValue: SQLITE_PERM)
  /// `SQLITE_BUSY`: another connection holds the lock past the busy timeout.
  public static let busy = ResultCode(rawValue: SQLITE_BUSY)
  /// `SQLITE_LOCKED`: a conflict within the same connection.
  public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
  /// `SQLITE_NOMEM`: out of memory.
  public static let noMemory = ResultCode(rawValue: SQLITE_NOMEM)
  /// `SQLITE_READONLY`: an attempt to write to a read-only database or location.
  public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
  /// `SQLITE_IOERR`: the operating system reported an I/O error.
  public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
  /// `SQLITE_CORRUPT`: the database file is malformed.
  public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
  /// `SQLITE_FULL`: the disk (or the database's page limit) is full.
  public static let full = ResultCode(rawValue: SQLITE_FULL)
  /// `SQLITE_CANTOPEN`: the file could not be opened.
  public static let cannotOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
  /// `SQLITE_CONSTRAINT`: a constraint was violated.
  public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
  /// `SQLITE_TOOBIG`: a string or blob is over SQLite's limit.
  public static let tooBig = ResultCode(rawValue: SQLITE_TOOBIG)
  /// `SQLITE_MISUSE`: the library was used incorrectly (for example a closed connection).
  public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
  /// `SQLITE_NOTADB`: the file is not a SQLite database.
  public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
  /// `SQLITE_ROW`: a statement produced a row.
  public static let row = ResultCode(rawValue: SQLITE_ROW)
  /// `SQLITE_DONE`: a statement finished.
  public static let done = ResultCode(rawValue: SQLITE_DONE)

  /// Matches `code` when it equals `pattern`, or when `pattern` is a primary code and `code` one of
  /// its extended codes.
  public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
    pattern == code || (pattern.primary == pattern && code.primary == pattern)
  }
}

extension ResultCode: CustomStringConvertible {
  /// The number and SQLite's explanation: `SQLite 5 (database is locked)`.
  public var description: String { "SQLite \(rawValue) (\(explanation))" }
}
