import Foundation

/// The current row of a statement, read one column after the other in the order of the query's
/// `SELECT` list: each read returns the next column. No caller counts column indices, so adding a
/// column to a query means adding one read at the same place, never renumbering.
///
/// Valid only inside the row callback that receives it.
package struct Row {
  private let statement: Statement
  private var column: Int32 = 0

  package init(_ statement: Statement) { self.statement = statement }

  /// Takes the next column's index.
  private mutating func next() -> Int32 {
    defer { column += 1 }
    return column
  }

  /// The next column as an integer (0 for NULL).
  package mutating func int64() -> Int64 { statement.int64(next()) }

  /// The next column as an integer, or `nil` for NULL.
  package mutating func optionalInt64() -> Int64? {
    let index = next()
    return statement.isNull(index) ? nil : statement.int64(index)
  }

  /// The next column as an `Int` (0 for NULL; a value beyond `Int` is truncated, never trapped on).
  package mutating func int() -> Int { statement.int(next()) }

  /// The next column as text, or `nil` for NULL.
  package mutating func text() -> String? { statement.text(next()) }

  /// The next column as bytes, or `nil` for NULL.
  package mutating func blob() -> Data? { statement.blob(next()) }

  /// The next column as text (a number or a blob converted to it) in bytes, valid until the
  /// statement steps, or `nil` for NULL.
  package mutating func textBytes() -> UnsafeRawBufferPointer? { statement.textBytes(next()) }

  /// The next column as bytes, valid until the statement steps, or `nil` for NULL.
  package mutating func blobBytes() -> UnsafeRawBufferPointer? { statement.blobBytes(next()) }
}
