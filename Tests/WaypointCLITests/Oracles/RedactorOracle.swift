import Foundation
import Waypoint

@testable import WaypointCLI

extension Redactor {
  /// The redaction of a route's JSON through a ``JSONValue``, parsed by `JSONDecoder` and written
  /// by `JSONEncoder` (sorted keys, slashes unescaped): the oracle that ``payload(_:)``, which reads
  /// the payload with Waypoint's own scanner, is checked against (tests and the `redactor` fuzz
  /// target).
  func payloadByValue(_ json: String) -> String {
    guard let value = try? JSONValue(parsing: json, limits: limits) else {
      return JSONValue.string("~" + hash("value", json)).jsonText
    }
    return redact(value).jsonText
  }

  /// `value` with every value replaced as ``payload(_:)`` replaces it.
  func redact(_ value: JSONValue) -> JSONValue {
    switch value {
    case .null, .bool: value
    case .integer(let number): .integer(integer(hash("value", String(number))))
    case .unsignedInteger(let number): .integer(integer(hash("value", String(number))))
    case .double(let number): .double(Double(integer(hash("value", "\(number)")) % 1_000_000) / 100)
    case .string(let text): .string(Self.isUUID(text) ? uuid(text) : "~" + hash("value", text))
    case .array(let items): .array(items.map(redact))
    case .object(let members): .object(members.mapValues(redact))
    }
  }
}
