import Foundation
import Testing
import Waypoint

@Suite("JSON values")
struct JSONValueTests {
  @Test(
    "values parse as JSONDecoder reads them",
    arguments: [
      ("null", JSONValue.null), ("true", .bool(true)), ("7", .integer(7)), ("-3", .integer(-3)),
      ("18446744073709551615", .unsignedInteger(.max)), ("1.5", .double(1.5)),
      ("\"a\\\"b\"", .string("a\"b")),
      ("[1,\"x\",null]", .array([.integer(1), .string("x"), .null])),
      ("{\"b\":{},\"a\":[]}", .object(["a": .array([]), "b": .object([:])])),
    ])
  func parses(text: String, expected: JSONValue) throws {
    #expect(try JSONValue(parsing: text) == expected)
  }

  @Test(
    "a number JSONDecoder reads as an Int is an integer, whatever its spelling",
    arguments: ["1.0", "1e2", "-0"])
  func integerSpellings(text: String) throws {
    let value = try JSONValue(parsing: text)
    let asInt = try? JSONDecoder().decode(Int.self, from: Data(text.utf8))
    if let asInt {
      #expect(value == .integer(Int64(asInt)), "\(text)")
    } else if case .double = value {
    } else {
      Issue.record("\(text) parsed as \(value)")
    }
  }

  @Test("text writes back compact with sorted keys and parses to the same value")
  func roundTrip() throws {
    let value = try JSONValue(parsing: #"{"z":[1,2.5,"/"],"a":{"k":false,"j":null}}"#)
    #expect(value.jsonText == #"{"a":{"j":null,"k":false},"z":[1,2.5,"/"]}"#)
    #expect(try JSONValue(parsing: value.jsonText) == value)
  }

  @Test("malformed, oversized and too deeply nested text is refused")
  func badText() {
    #expect(throws: SnapshotFormatError.self) { try JSONValue(parsing: "{\"a\":") }
    #expect(throws: SnapshotFormatError.tooLarge(byteCount: 12, limit: 10)) {
      try JSONValue(parsing: "\"0123456789\"", limits: InputLimits(maxPayloadBytes: 10))
    }
    #expect(throws: SnapshotFormatError.nestingTooDeep(limit: 32)) {
      try JSONValue(parsing: String(repeating: "[", count: 33) + String(repeating: "]", count: 33))
    }
  }
}
