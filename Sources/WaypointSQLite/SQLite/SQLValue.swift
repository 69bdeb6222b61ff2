import Foundation

/// A value bound to a statement parameter.
package enum SQLValue {
  case integer(Int64)
  case text(String)
  case blob(Data)
  case null
}

extension SQLValue {
  /// An integer, or NULL for `nil`.
  package static func integer(_ value: Int?) -> SQLValue {
    value.map { .integer(Int64($0)) } ?? .null
  }
  /// A text, or NULL for `nil`.
  package static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
}
