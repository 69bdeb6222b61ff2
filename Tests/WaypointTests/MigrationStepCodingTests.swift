import Foundation
import Testing
import Waypoint
import WaypointManifest

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

  @Test(
    "every step writes its kind and parameters and reads back the same in a manifest",
    arguments: steps)
  func roundTrip(step: RouteMigrationStep) throws {
    let text = try encode(step)
    let read = try JSONDecoder().decode(RouteManifest.Step.self, from: Data(text.utf8))
    #expect(try encode(read) == text)
    #expect(read.description == step.description)
    #expect(read.isDeclarative == step.isDeclarative)
    if step.isDeclarative {
      let plain = try JSONDecoder().decode(RouteMigrationStep.self, from: Data(text.utf8))
      #expect(try encode(plain) == text)
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

  @Test("a custom step read from data is a name in a manifest, never an app's step without code")
  func customWithoutCode() throws {
    let text = Data(#"{"step":"custom","name":"n"}"#.utf8)
    // An app's step always has code: data cannot make one.
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(RouteMigrationStep.self, from: text)
    }
    let step = try JSONDecoder().decode(RouteManifest.Step.self, from: text)
    guard case .custom(name: "n") = step else {
      Issue.record("\(step)")
      return
    }
    let manifest = try RouteManifest(
      schemaVersion: 1,
      routes: [
        RouteManifest.Route(
          tag: "A", version: 2, aliases: [], shape: .string,
          migrations: [RouteManifest.Migration(from: 1, [step])])
      ])
    let verdict = manifest.predict(
      SceneSnapshot(
        metadata: SnapshotMetadata(routeSchemaVersion: 1),
        stacks: ["m": [RouteRecord(tag: "A", json: #""s""#)]]))
    #expect(verdict.hasUndetermined)
    #expect(
      verdict.entries.first?.fate
        == .undetermined("migration of A from version 1 runs custom(n), which needs the app"))
  }

  @Test("a custom step given to a manifest with its code keeps only its name")
  func customStepInManifestIsData() throws {
    let route = RouteManifest.Route(
      tag: "A", version: 2, aliases: [], shape: .string,
      migrations: [RouteManifest.Migration(RouteMigration(from: 1, [.custom("c") { $0 }]))])
    guard case .custom(name: "c")? = route.migrations.first?.steps.first else {
      Issue.record("\(route.migrations)")
      return
    }
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
