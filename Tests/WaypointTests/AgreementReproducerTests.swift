import Foundation
import Testing
import Waypoint
import WaypointManifest

/// Route types of the reproducers of issue 8 §3: each one is a snapshot on which the manifest's
/// offline verdict and the real restore disagreed.
enum Repro {
  enum Route: Codable, Hashable, Sendable {
    case home
    case order(id: Int)
    case purchase(id: Int)
    case gift(code: String)
  }

  /// `order` in version 1; `purchase` in version 2.
  enum Catalog: Codable, Hashable, Sendable {
    case order(id: Int)
  }

  struct Ratio: Codable, Hashable, Sendable {
    var ratio: Float
  }

  struct Holder: Codable, Hashable, Sendable {
    var route: Route
    var note: String?
  }

  /// Decodes its own way: the probe cannot follow it, so its shape is opaque.
  struct Opaque: Codable, Hashable, Sendable {
    var value: Int
    init(value: Int) { self.value = value }
    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      value = try (try? container.decode(Int.self)) ?? Int(container.decode(String.self)) ?? 0
    }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(value)
    }
  }

  static let routes: [Route] = [.home, .order(id: 1), .purchase(id: 2), .gift(code: "g")]

  /// `Route` at version 2, whose migration from version 1 uses `steps`.
  static func registry(_ steps: [RouteMigrationStep] = []) throws -> RouteRegistry {
    RouteRegistry(schemaVersion: 2)
      .registering(
        Route.self, tag: "Route", version: steps.isEmpty ? 1 : 2,
        migrations: steps.isEmpty ? [] : [RouteMigration(from: 1, steps)], examples: routes
      )
      .registering(Catalog.self, tag: "Catalog", examples: [.order(id: 1)])
      .registering(Ratio.self, tag: "Ratio")
      .registering(Holder.self, tag: "Holder")
      .registering(Opaque.self, tag: "Opaque")
  }

  static func snapshot(_ records: [RouteRecord]) -> SceneSnapshot {
    SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 2), stacks: ["main": records])
  }
}

@Suite("Offline validation agrees with the real restore on the reproducers of issue 8")
struct AgreementReproducerTests {
  /// The manifest as a tool reads it: written out and read back.
  static func manifest(_ registry: RouteRegistry) throws -> RouteManifest {
    try RouteManifest(decoding: RouteManifest(registry: registry).encoded())
  }

  /// Restores with the real types and validates offline; both must say the same.
  @discardableResult
  static func expectSameVerdict(
    _ registry: RouteRegistry, _ snapshot: SceneSnapshot,
    policy: RestorePolicy = .cutAtFirstFailure,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> (RestorePrediction, RestoredScene) {
    let offline = try manifest(registry).predict(snapshot, policy: policy)
    let restored = Restorer(registry: registry, policy: policy).restore(snapshot)
    #expect(!offline.hasUndetermined, "\(offline.entries)", sourceLocation: sourceLocation)
    #expect(
      offline.report.outcome == restored.report.outcome,
      "offline \(offline.report) vs restore \(restored.report)", sourceLocation: sourceLocation)
    #expect(
      offline.report.dropped.map(\.location) == restored.report.dropped.map(\.location),
      "offline \(offline.report) vs restore \(restored.report)", sourceLocation: sourceLocation)
    #expect(
      sameKinds(offline.report.dropped, restored.report.dropped),
      "offline \(offline.report) vs restore \(restored.report)", sourceLocation: sourceLocation)
    return (offline, restored)
  }

  @Test(
    "a route only the app can judge is neither kept nor dropped under resetOnAnyFailure",
    arguments: ["opaque", "custom step"])
  func unjudgeableUnderReset(kind: String) throws {
    let registry = try Repro.registry(
      kind == "custom step" ? [.custom("by hand") { $0 }] : [.renameCase(from: "x", to: "y")])
    let unjudgeable =
      kind == "opaque"
      ? RouteRecord(tag: "Opaque", json: "1") : RouteRecord(tag: "Route", json: #"{"home":{}}"#)
    let snapshot = Repro.snapshot([unjudgeable, RouteRecord(tag: "Gone", json: "{}")])
    let offline = try Self.manifest(registry).predict(snapshot, policy: .resetOnAnyFailure)
    #expect(offline.hasUndetermined)
    #expect(offline.report.outcome == .root)
    guard case .undetermined = offline.entries.first?.fate else {
      Issue.record("the route that needs the app is \(String(describing: offline.entries.first))")
      return
    }
    #expect(offline.report.dropped.map(\.location) == [.stack("main", index: 1)])
  }

  static let unreadPayloads = [
    #"{"home":{},"zz":1e400}"#, #"{"home":{},"zz":"# + String(repeating: "9", count: 400) + "}",
    #"{"home":{},"zz":"\ud800"}"#, #"{"home":{},"zz":"\q"}"#, "{\"home\":{},\"zz\":\"a\nb\"}",
    #"{"zz":01,"home":{}}"#, #"{"home":{"zz":"\u12G4"}}"#,
  ]

  @Test(
    "a member the type never reads does not matter, offline or in a restore",
    arguments: unreadPayloads)
  func unreadMembers(json: String) throws {
    let registry = try Repro.registry()
    #expect((try? JSONDecoder().decode(Repro.Route.self, from: Data(json.utf8))) == .home)
    let (_, restored) = try Self.expectSameVerdict(
      registry, Repro.snapshot([RouteRecord(tag: "Route", json: json)]))
    #expect(restored.report.outcome == .restored)
  }

  @Test(
    "a migration keeps what the old app decoded, members never read included",
    arguments: unreadPayloads)
  func unreadMembersThroughMigration(json: String) throws {
    let registry = try Repro.registry([.renameCase(from: "order", to: "purchase")])
    let (_, restored) = try Self.expectSameVerdict(
      registry, Repro.snapshot([RouteRecord(tag: "Route", json: json, version: 1)]))
    #expect(restored.report.outcome == .restored)
    #expect(restored.stack().first?.value as? Repro.Route == .home)
  }

  static let floatTexts = [
    "340282356779733661637539395458142568447", "340282356779733661637539395458142568448",
    "7.0064923216240862e-46",
    "7.006492321624085354618647916449580656401309709382578858785341419448955413429303e-46",
    "7.0064923216240853546186479164495806564013097093825788587853414194489554134293031e-46",
    "1.4012984643248170e-45", "3.4028235677973366e38", "3.40282357e38",
  ]

  @Test("a Float is judged as JSONDecoder reads it, never through a Double", arguments: floatTexts)
  func floatWithoutDoubleRounding(number: String) throws {
    let registry = try Repro.registry()
    let json = #"{"ratio":"# + number + "}"
    let decodes = (try? JSONDecoder().decode(Repro.Ratio.self, from: Data(json.utf8))) != nil
    let (_, restored) = try Self.expectSameVerdict(
      registry, Repro.snapshot([RouteRecord(tag: "Ratio", json: json)]))
    #expect((restored.report.outcome == .restored) == decodes)
  }

  @Test(
    "JSONDecoder keeps the Floats that double rounding used to drop",
    arguments: [floatTexts[0], floatTexts[2]])
  func floatsThatDecode(number: String) throws {
    let json = #"{"ratio":"# + number + "}"
    #expect(
      (try? JSONDecoder().decode(Repro.Ratio.self, from: Data(json.utf8))) != nil, "\(number)")
  }

  static let caseSteps: [(String, [RouteMigrationStep], Repro.Route?)] = [
    ("renameCase", [.renameCase(from: "order", to: "purchase")], .purchase(id: 1)),
    (
      "renameField",
      [
        .renameCase(from: "order", to: "gift"), .renameField(case: "gift", from: "id", to: "code"),
        .mapValues(case: "gift", field: "code", table: [.integer(1): .string("one")]),
      ],
      .gift(code: "one")
    ),
    ("removeCase", [.removeCase("order")], nil),
    (
      "mapValues", [.mapValues(case: "order", field: "id", table: [.integer(1): .integer(5)])],
      .order(id: 5)
    ),
    ("moveCase", [.moveCase("order", toTag: "Catalog", version: 1)], nil),
  ]

  @Test(
    "steps that name a case find it in a payload with keys that name no case",
    arguments: caseSteps)
  func extraEnumKeys(name: String, steps: [RouteMigrationStep], expected: Repro.Route?) throws {
    let json = #"{"order":{"id":1},"note":"x"}"#
    #expect(try JSONDecoder().decode(Repro.Route.self, from: Data(json.utf8)) == .order(id: 1))
    let registry = try Repro.registry(steps)
    let (_, restored) = try Self.expectSameVerdict(
      registry, Repro.snapshot([RouteRecord(tag: "Route", json: json, version: 1)]))
    switch name {
    case "removeCase":
      #expect(restored.report.dropped.map(\.reason) == [.removedCase("order", version: 2)])
    case "moveCase":
      #expect(restored.stack().first?.value as? Repro.Catalog == .order(id: 1))
    default:
      #expect(restored.stack().first?.value as? Repro.Route == expected, "\(restored.report)")
    }
  }

  @Test("a snapshot in memory with a newer format version is the root offline too")
  func formatVersionInMemory() throws {
    var snapshot = Repro.snapshot([RouteRecord(tag: "Route", json: #"{"home":{}}"#)])
    snapshot.formatVersion = SceneSnapshot.currentFormatVersion + 1
    let (offline, _) = try Self.expectSameVerdict(try Repro.registry(), snapshot)
    #expect(
      offline.report.dropped.map(\.reason) == [.newerFormat(found: 2, supported: 1)])
  }

  @Test(
    "a struct holding a registered route with examples needs no examples of its own",
    arguments: [
      #"{"route":{"order":{"id":1}},"note":"n"}"#, #"{"route":{"home":{}}}"#,
      #"{"route":{"nope":{}}}"#, #"{"route":{"order":{"id":"1"}},"note":null}"#, #"{"note":"n"}"#,
    ])
  func structWrappingRoute(json: String) throws {
    let registry = try Repro.registry()
    let shape = try #require(RouteManifest(registry: registry).route(named: "Holder")?.shape)
    #expect(!shape.containsOpaque, "\(shape)")
    try Self.expectSameVerdict(registry, Repro.snapshot([RouteRecord(tag: "Holder", json: json)]))
  }

  @Test("a NavigationPath written by the running app is restored at its registered versions")
  func navigationPathVersions() throws {
    // Version 1 stored order ids as strings; the current build writes integers.
    let registry = try Repro.registry([
      .mapValues(case: "order", field: "id", table: [.string("1"): .integer(1)])
    ])
    let current = registry.records(for: [Repro.Route.order(id: 7)])
    let data = NavigationPathRepresentation.data(for: current)
    let scene = Restorer(registry: registry).restore(navigationPath: data)
    #expect(scene.report.outcome == .restored, "\(scene.report)")
    #expect(scene.stack().first?.value as? Repro.Route == .order(id: 7))
    #expect(scene.metadata?.routeSchemaVersion == registry.schemaVersion)
  }
}
