import Foundation
import Waypoint

// What the tools' readers of JSON (a route's shape, a restore record) say about a value they did
// not expect. Apps never need it: a restore names what it found through `JSONDecoder`'s errors.

extension JSONStructure {
  /// Whether the number reads as the integer type `T`.
  package func reads<T: Decodable & FixedWidthInteger>(_ value: Value, asInteger type: T.Type)
    -> Bool
  {
    guard kind(value) == .number else { return false }
    if let plain = plainInteger(value) { return T(exactly: plain) != nil }
    return read(value, as: type) != nil
  }

  /// "null", "a string", … as decoding errors name what they found; a number by its text.
  package func kindDescription(_ value: Value) -> String {
    switch kind(value) {
    case .null: "null"
    case .bool: "a bool"
    case .number:
      "the number \(text(value).count > 40 ? String(text(value).prefix(40)) + "…" : String(text(value)))"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

extension JSONValue {
  /// "null", "a string", … as decoding errors name what they found.
  package var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a bool"
    case .integer, .unsignedInteger, .double: "the number \(self)"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
