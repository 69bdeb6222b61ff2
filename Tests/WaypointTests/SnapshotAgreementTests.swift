import Foundation
import Testing
import Waypoint
import WaypointManifest

/// Route types for whole-snapshot agreement: every kind of shape, a struct wrapping a registered
/// enum (registered without examples), a type only the app can judge, and a tag whose migration
/// runs app code.
enum Agree {
  /// Wraps the registered `Fixtures.Route`: needs no examples of its own.
  struct Wrapper: Codable, Hashable, Sendable {
    var route: Fixtures.Route
    var note: String?
    var count: Int8
  }

  /// Decoded by hand in a way the probe cannot follow: opaque, so its routes need the app.
  struct Lenient: Codable, Hashable, Sendable {
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

  struct Refused: Error {}

  /// Version 2 of `Route` renamed and removed cases; version 2 of `Profile` renamed a field and
  /// added one; `Lenient` version 2 runs app code that refuses some payloads.
  static func registry() throws -> RouteRegistry {
    try RouteRegistry(schemaVersion: 2)
      .registering(
        Fixtures.Route.self, tag: "Route", version: 2,
        migrations: [
          RouteMigration(
            from: 1,
            [
              .renameCase(from: "start", to: "home"),
              .renameField(case: "profile", from: "user", to: "userId"),
              .mapValues(case: "search", field: "page", table: [.string("first"): .integer(1)]),
              .removeCase("legacy"), .moveCase("node", toTag: "Tree", version: 1),
            ])
        ], examples: Fixtures.routes
      )
      .registering(Fixtures.Tree.self, tag: "Tree", examples: Fixtures.trees)
      .registering(
        Fixtures.Profile.self, tag: "Profile", version: 2,
        migrations: [
          RouteMigration(
            from: 1,
            [
              .renameField(case: nil, from: "ident", to: "id"),
              .addField(case: nil, name: "tags", default: .array([])),
            ])
        ]
      )
      .registering(Fixtures.Widths.self, tag: "Widths")
      .registering(Fixtures.Stamps.self, tag: "Stamps")
      .registering(Fixtures.Tab.self, tag: "Tab", examples: [.library, .search, .account])
      .registering(Wrapper.self, tag: "Wrapper")
      .registering(Lenient.self, tag: "Lenient")
      .registering(
        Fixtures.Matrix.self, tag: "Matrix", version: 2,
        migrations: [
          RouteMigration(
            from: 1,
            [
              .custom("check rows") { payload in
                if payload.objectValue?["refuse"] != nil { throw Refused() }
                return payload
              }
            ])
        ])
  }

  /// Stored payloads of every tag at every version, and some of no tag at all.
  static func pool(_ registry: RouteRegistry) throws -> [RouteRecord] {
    var records: [RouteRecord] = []
    func add(_ tag: String, _ values: [some Encodable], version: Int) throws {
      for value in values {
        records.append(RouteRecord(tag: tag, json: try encodedText(value), version: version))
      }
    }
    try add("Route", Fixtures.routes, version: 2)
    for json in [
      #"{"start":{}}"#, #"{"profile":{"user":3}}"#, #"{"search":{"query":null,"page":"first"}}"#,
      #"{"search":{"page":"second"}}"#, #"{"legacy":{}}"#,
      #"{"node":{"_0":{"leaf":{"_0":1}},"_1":{"leaf":{"_0":2}}}}"#,
      #"{"home":{}}"#, #"{"settings":{}}"#,
    ] {
      records.append(RouteRecord(tag: "Route", json: json, version: 1))
    }
    try add("Tree", Fixtures.trees, version: 1)
    try add("Profile", Fixtures.profiles, version: 2)
    records.append(RouteRecord(tag: "Profile", json: #"{"ident":4,"name":"n"}"#, version: 1))
    try add("Widths", Fixtures.widths, version: 1)
    try add("Stamps", Fixtures.stamps, version: 1)
    try add("Tab", [Fixtures.Tab.library, .account], version: 1)
    try add(
      "Wrapper",
      [
        Wrapper(route: .home, note: nil, count: 1),
        Wrapper(route: .search(query: "q", page: 3), note: "n", count: -128),
      ], version: 1)
    try add("Lenient", [Lenient(value: 1)], version: 1)
    records.append(RouteRecord(tag: "Lenient", json: #""12""#, version: 1))
    try add("Matrix", Fixtures.matrices, version: 2)
    try add("Matrix", Fixtures.matrices, version: 1)
    records.append(
      RouteRecord(tag: "Matrix", json: #"{"refuse":1,"rows":[],"nested":{}}"#, version: 1))
    try add("Swift.Int", [1, -5], version: 1)
    try add("Swift.String", ["s"], version: 1)
    records.append(RouteRecord(tag: "Gone.Type", json: "{}", version: 1))
    return records
  }
}

/// The manifest's offline verdict is the real restore's, for random snapshots over every policy.
///
/// Each snapshot draws routes from payloads of every shape at every version, damages some of them
/// with ``PayloadMutator`` (members never read, number edge cases of every width, extra and
/// duplicate keys, …), places them in stacks, selections and the sheet, and is judged by
/// `RouteManifest.validate` and by `Restorer.restore` with the real types, under each policy. The
/// default run is quick; `WAYPOINT_AGREEMENT_RUNS=300000 swift test --filter SnapshotAgreementTests`
/// runs that many snapshots (each under every policy).
@Suite("Offline validation agrees with the real restore on random snapshots")
struct SnapshotAgreementTests {
  /// Snapshots per seed: from the environment for a long run, a few hundred otherwise.
  static var runs: Int {
    ProcessInfo.processInfo.environment["WAYPOINT_AGREEMENT_RUNS"].flatMap { Int($0) } ?? 300
  }

  struct Tally {
    var compared = 0
    var undetermined = 0
    var dropped = 0
    var restored = 0
    var root = 0
  }

  @Test("same outcome, dropped locations and reason kinds", arguments: [21, 22] as [UInt64])
  func agree(seed: UInt64) throws {
    let registry = try Agree.registry()
    let manifest = try RouteManifest(decoding: RouteManifest(registry: registry).encoded())
    let pool = try Agree.pool(registry)
    var described: [String: RouteShape] = [:]
    for route in manifest.routes { described[route.tag] = route.shape }
    let hashOrdered: (String?) -> Bool = { tag in
      tag.flatMap { manifest.route(named: $0)?.shape.containsDictionary } ?? false
    }
    let vocabulary = Array(
      Set(
        described.values.flatMap(\.vocabulary) + [
          "start", "user", "ident", "legacy", "node", "refuse",
        ])
    ).sorted()
    var generator = SplitMix64(state: seed)
    var mutator = PayloadMutator(vocabulary: vocabulary, generator: SplitMix64(state: seed &* 31))
    var tally = Tally()
    let runs = Self.runs
    for iteration in 0..<runs {
      let snapshot = Self.snapshot(pool, &generator, &mutator)
      for policy in RestorePolicy.allCases {
        let offline = manifest.predict(snapshot, policy: policy)
        let restored = Restorer(registry: registry, policy: policy).restore(snapshot)
        let place = "seed \(seed) iteration \(iteration) policy \(policy)"
        let problem =
          offline.hasUndetermined
          ? RestoreAgreement.consistency(offline, restored, policy, hashOrdered)
          : RestoreAgreement.agreement(offline, restored, hashOrdered)
        if let problem {
          Issue.record(
            "\(place): \(problem)\nsnapshot: \(snapshot.routes.map { "\($0.location) \($0.record.tag)@\($0.record.version) \($0.record.json)" }.joined(separator: "\n  "))\noffline: \(offline.report)\nrestore: \(restored.report)"
          )
          return
        }
        tally.compared += 1
        if offline.hasUndetermined { tally.undetermined += 1 }
        switch restored.report.outcome {
        case .restored: tally.restored += 1
        case .partial: tally.dropped += 1
        case .root: tally.root += 1
        }
      }
    }
    // Every outcome, and routes only the app can judge, must come up, or the test proves little.
    #expect(tally.restored > runs / 20, "\(tally)")
    #expect(tally.dropped > runs / 20, "\(tally)")
    #expect(tally.root > runs / 20, "\(tally)")
    #expect(tally.undetermined > runs / 20, "\(tally)")
    if runs > 1000 { print("SnapshotAgreementTests seed \(seed): \(tally)") }
  }

  /// A random snapshot.
  static func snapshot(
    _ pool: [RouteRecord], _ generator: inout SplitMix64, _ mutator: inout PayloadMutator
  ) -> SceneSnapshot {
    func record() -> RouteRecord {
      var record = pool[Int.random(in: 0..<pool.count, using: &generator)]
      if Int.random(in: 0..<3, using: &generator) == 0,
        let value = try? JSONValue(parsing: record.json)
      {
        record.json = mutator.mutate(value)
      }
      if Int.random(in: 0..<12, using: &generator) == 0 {
        record.version = Int.random(in: 1...3, using: &generator)
      }
      return record
    }
    var stacks: [String: [RouteRecord]] = [:]
    for name in ["main", "side"]
    where Int.random(in: 0..<3, using: &generator) > 0 || name == "main" {
      stacks[name] = (0..<Int.random(in: 0...4, using: &generator)).map { _ in record() }
    }
    let schema = Int.random(in: 0..<40, using: &generator) == 0 ? 3 : 2
    var snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: schema), stacks: stacks,
      selectedTab: Int.random(in: 0..<4, using: &generator) == 0 ? record() : nil,
      split: Int.random(in: 0..<5, using: &generator) == 0
        ? SplitViewSnapshot(
          sidebarSelection: record(), contentSelection: nil,
          columnVisibility: Bool.random(using: &generator)
            ? .all : ColumnVisibility(rawValue: "quad"))
        : nil,
      sheet: Int.random(in: 0..<4, using: &generator) == 0 ? record() : nil)
    if Int.random(in: 0..<60, using: &generator) == 0 { snapshot.formatVersion = 2 }
    return snapshot
  }
}
