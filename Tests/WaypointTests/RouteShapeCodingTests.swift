import Foundation
import Testing
import Waypoint
import WaypointManifest

@Suite("Route shapes in manifest JSON")
struct RouteShapeCodingTests {
  /// One of every kind.
  static let everyKind = RouteShape.object([
    .init("s", .string), .init("i", .integer(.uint16)), .init("d", .double), .init("f", .float),
    .init("b", .bool), .init("u", .uuid), .init("t", .date), .init("l", .url),
    .init("o", .optional(.array(.dictionary(.integer(.int64))))),
    .init("k", .optional(.string), isRequired: true),
    .init(
      "e",
      .enumeration([
        .init("home"), .init("item", [.init("_0", .uuid), .init("note", .optional(.string))]),
      ])),
    .init("r", .stringEnum(["a", "b"])), .init("n", .integerEnum([-1, 5])),
    .init("x", .reference(tag: "App.Route")), .init("q", .opaque("custom init(from:)")),
  ])

  static func json(_ shape: RouteShape) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(shape), as: UTF8.self)
  }

  static func shape(_ json: String) throws -> RouteShape {
    try JSONDecoder().decode(RouteShape.self, from: Data(json.utf8))
  }

  @Test("every kind survives a round trip through JSON")
  func roundTrip() throws {
    let text = try Self.json(Self.everyKind)
    #expect(try Self.shape(text) == Self.everyKind)
    #expect(text.contains(#"{"kind":"optional","wrapped":{"element":"#))
  }

  @Test(
    "the shape holding every kind writes each kind's name",
    arguments: [
      "string", "integer", "double", "float", "bool", "uuid", "date", "url", "optional", "array",
      "dictionary", "object", "enumeration", "stringEnum", "integerEnum", "reference", "opaque",
    ])
  func everyKindWritten(kind: String) throws {
    let text = try Self.json(Self.everyKind)
    #expect(text.contains(#""kind":"\#(kind)""#), "\(kind) missing from \(text)")
  }

  @Test("the manifest form is stable")
  func exactForm() throws {
    let shape = RouteShape.enumeration([
      .init("profile", [.init("userId", .integer(.int))]), .init("settings"),
    ])
    #expect(
      try Self.json(shape)
        == #"{"cases":[{"fields":[{"name":"userId","required":true,"shape":{"#
        + #""kind":"integer","type":"Int"}}],"name":"profile"},{"fields":[],"name":"settings"}],"#
        + #""kind":"enumeration"}"#)
    #expect(
      try Self.json(.object([.init("a", .optional(.url))]))
        == #"{"fields":[{"name":"a","required":false,"shape":{"kind":"optional","wrapped":{"kind":"url"}}}],"kind":"object"}"#
    )
  }

  @Test("omitted members take their defaults")
  func defaults() throws {
    #expect(
      try Self.shape(
        #"{"kind":"object","fields":[{"name":"a","shape":{"kind":"optional","wrapped":{"kind":"bool"}}},{"name":"b","shape":{"kind":"bool"}}]}"#
      )
        == .object([
          .init("a", .optional(.bool), isRequired: false), .init("b", .bool, isRequired: true),
        ]))
    #expect(
      try Self.shape(#"{"kind":"enumeration","cases":[{"name":"home"}]}"#)
        == .enumeration([.init("home")]))
  }

  @Test("kinds and integer types from a newer manifest read as opaque")
  func forwardCompatible() throws {
    #expect(
      try Self.shape(#"{"kind":"decimal","scale":2}"#) == .opaque(#"unknown shape kind "decimal""#))
    #expect(
      try Self.shape(#"{"kind":"integer","type":"Int128"}"#)
        == .opaque(#"unknown integer type "Int128""#))
    let value = try JSONValue(parsing: "1")
    guard case .undetermined = try Self.shape(#"{"kind":"decimal"}"#).match(value) else {
      Issue.record("an unknown kind must need the app")
      return
    }
  }

  @Test(
    "a known kind with missing or mistyped members is refused",
    arguments: [
      #"{"kind":"integer"}"#, #"{"kind":"array"}"#, #"{"kind":"object","fields":{}}"#,
      #"{"kind":"reference","tag":3}"#, #"{"kind":"opaque"}"#, #"{"type":"Int"}"#,
      #"{"kind":"object","fields":[{"name":"a"}]}"#, #"{"kind":"integerEnum","values":[1.5]}"#,
      #"{"kind":"enumeration","cases":[{"fields":[]}]}"#, "[]", "null",
    ])
  func malformed(json: String) {
    #expect(throws: DecodingError.self) { try Self.shape(json) }
  }
}
