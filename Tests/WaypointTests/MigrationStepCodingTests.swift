import Foundation
import Testing
import Waypoint

@Suite("Migration steps as manifest data")
struct MigrationStepCodingTests {
  static let steps: [RouteMigrationStep] = [
    .renameTag(from: "Old.Route"), .renameCase(from: "a", to: "b"),
    .renameField(case: nil, from: "x", to: "y"),
    .renameField(case: "c", from: "x", to: "y"), .removeCase("gone"),
    .addField(case: "c", name: "n", default: .array([.null, .bool(true)])),
    .mapValues(
      case: nil, field: "id", table: [.integer(1): .string("one"), .string("2"): .integer(2)]),
    .moveCase("item", toTag: "Catalog", version: 2), .custom("by hand") { $0 },
  ]

  func encode(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  @Test("every step writes its kind and parameters and reads back the same")
  func roundTrip() throws {
    for step in Self.steps {
      let text = try encode(step)
      let read = try JSONDecoder().decode(RouteMigrationStep.self, from: Data(text.utf8))
      #expect(try encode(read) == text)
      #expect(read.description == step.description)
      #expect(read.isDeclarative == step.isDeclarative)
    }
  }

  @Test("the JSON forms are the specified ones")
  func forms() throws {
    #expect(try encode(Self.steps[1]) == #"{"from":"a","step":"renameCase","to":"b"}"#)
    #expect(try encode(Self.steps[2]) == #"{"from":"x","step":"renameField","to":"y"}"#)
    #expect(
      try encode(Self.steps[6])
        == #"{"field":"id","step":"mapValues","table":[{"from":"2","to":2},{"from":1,"to":"one"}]}"#
    )
    #expect(
      try encode(Self.steps[7]) == #"{"case":"item","step":"moveCase","tag":"Catalog","version":2}"#
    )
    #expect(try encode(Self.steps[8]) == #"{"name":"by hand","step":"custom"}"#)
  }

  @Test("a custom step read from data has no code: restore drops its routes, naming the step")
  func customWithoutCode() throws {
    let step = try JSONDecoder().decode(
      RouteMigrationStep.self, from: Data(#"{"step":"custom","name":"n"}"#.utf8))
    let registry = try RouteRegistry()
      .registering(
        Shop.Article.self, tag: "A", version: 2, migrations: [RouteMigration(from: 1, [step])])
    let scene = Restorer(registry: registry).restore(
      SceneSnapshot(stacks: ["m": [RouteRecord(tag: "A", json: #"{"slug":"s","page":1}"#)]]))
    #expect(
      scene.report.dropped.first?.reason
        == .migrationFailed(
          tag: "A", version: 1, step: "custom(n)", message: "the step has no code to run"))
  }

  @Test(
    "unknown step kinds and missing parameters are refused",
    arguments: [
      #"{"step":"explode"}"#, #"{"step":"renameCase","from":"a"}"#, #"{"from":"a","to":"b"}"#,
      #"{"step":"moveCase","case":"a","tag":"T"}"#,
    ])
  func badSteps(text: String) {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(RouteMigrationStep.self, from: Data(text.utf8))
    }
  }
}
