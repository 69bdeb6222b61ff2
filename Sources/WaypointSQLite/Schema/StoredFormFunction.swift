import Foundation
import Waypoint

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

extension Database {
  /// The name of the SQL function that expands a document kept in schema 5's stored form
  /// (``/Waypoint/StoredForm``): `waypoint_expanded_document(document, limit)` gives the document
  /// with every left-out tag put back, or its argument as it is when there is nothing to expand,
  /// when it is not JSON, or when it would be over `limit` bytes once expanded.
  package static let expandedDocumentFunction = "waypoint_expanded_document"

  /// Registers ``expandedDocumentFunction`` on the connection: migration 6 calls it, and reads of
  /// a schema-5 store opened read-only. Deterministic, and callable only from top-level SQL
  /// (`SQLITE_DIRECTONLY`), never from a file's schema. The corresponding C function is
  /// `sqlite3_create_function_v2`.
  package func registerFunctions() throws(SQLiteError) {
    guard let handle else {
      throw SQLiteError(code: .misuse, message: "connection closed", sql: nil)
    }
    let name = Self.expandedDocumentFunction
    let code = call(.createFunction, sql: name) {
      sqlite3_create_function_v2(
        handle, name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, nil,
        { context, count, arguments in
          guard let context, count == 2, let arguments, let document = arguments[0] else {
            return
          }
          let limit = arguments[1].map { sqlite3_value_int64($0) } ?? 0
          let length = Int(sqlite3_value_bytes(document))
          guard let bytes = sqlite3_value_blob(document), length > 0,
            let expanded = StoredForm.expanded(
              Array(UnsafeRawBufferPointer(start: bytes, count: length)),
              limit: Int(clamping: max(0, limit)))
          else {
            sqlite3_result_value(context, document)
            return
          }
          expanded.withUnsafeBytes { buffer in
            sqlite3_result_blob64(
              context, buffer.baseAddress, UInt64(buffer.count), sqliteTransient)
          }
        }, nil, nil, nil)
    }
    guard code == SQLITE_OK else { throw error(code, sql: name) }
  }
}
