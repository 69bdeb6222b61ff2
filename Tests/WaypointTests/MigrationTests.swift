import Foundation
import Testing
import Waypoint
import WaypointManifest

/// Route types as an app ships them over three versions.
enum Shop {
  /// Version 1, saved as `Shop.Route`.
  enum RouteV1: Codable, Hashable, Sendable {
    case home
    case order(id: Int)
    case profile(userId: Int)
    case faq
    case item(Int)
  }

  /// Version 3, the current one, registered as `Shop.Destination`.
  enum Destination: Codable, Hashable, Sendable {
    case home
    case purchase(id: UUID)
    case profile(accountId: Int, tab: String)
    case settings
  }

  /// Where `item` moved to in version 3.
  enum Catalog: Codable, Hashable, Sendable {
    case item(Int)
    case category(name: String)
  }

  struct Article: Codable, Hashable, Sendable {
    var slug: String
    var page: Int
  }

  static let orderIDs: [JSONValue: JSONValue] = [
    .integer(42): .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
    .integer(7): .string("0F2C5A38-7D41-4C1B-9C0E-2B6F1D3A4E5B"),
  ]

  struct Refused: Error, CustomStringConvertible {
    var description: String { "tab cannot be derived" }
  }

  /// The current registry. `custom` is the custom step's code, `nil` to leave the step out;
  /// `examples` gives examples of every case, so that a manifest describes the types fully.
  static func registry(
    custom: (@Sendable (JSONValue) throws -> JSONValue)? = { $0 }, examples: Bool = false
  ) throws -> RouteRegistry {
    var steps: [RouteMigrationStep] = [
      .mapValues(case: "purchase", field: "id", table: orderIDs),
      .addField(case: "profile", name: "tab", default: .string("overview")),
    ]
    if let custom { steps.append(.custom("clamp profile tab", custom)) }
    let destinations: [Destination] = [
      .home, .purchase(id: sampleUUID), .profile(accountId: 1, tab: "t"), .settings,
    ]
    return try RouteRegistry(schemaVersion: 3)
      .registering(
        Destination.self, tag: "Shop.Destination", version: 3,
        migrations: [
          RouteMigration(
            from: 1,
            [
              .renameTag(from: "Shop.Route"), .renameCase(from: "order", to: "purchase"),
              .removeCase("faq"),
              .renameField(case: "profile", from: "userId", to: "accountId"),
              .moveCase("item", toTag: "Shop.Catalog", version: 1),
            ]),
          RouteMigration(from: 2, steps),
        ],
        examples: examples ? destinations : []
      )
      .registering(
        Catalog.self, tag: "Shop.Catalog",
        examples: examples ? [.item(1), .category(name: "c")] : [])
  }

  static func v1Records(_ routes: [RouteV1]) throws -> [RouteRecord] {
    RouteRegistry().registering(RouteV1.self, tag: "Shop.Route").records(for: routes)
  }
}

@Suite("Route migrations")
struct MigrationTests {
  func restore(
    _ records: [RouteRecord], registry: RouteRegistry, policy: RestorePolicy = .dropFailingRoutes
  )
    -> RestoredScene
  {
    Restorer(registry: registry, policy: policy).restore(
      SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 1), stacks: ["main": records]))
  }

  @Test("a v1 stack migrates through two versions of steps to the current types")
  func chain() throws {
    let records = try Shop.v1Records([.home, .order(id: 42), .profile(userId: 5), .item(9)])
    let scene = restore(records, registry: try Shop.registry())
    #expect(scene.report.outcome == .restored)
    let values = scene.elements()
    #expect(values.count == 4)
    #expect(values[0] as? Shop.Destination == .home)
    #expect(values[1] as? Shop.Destination == .purchase(id: sampleUUID))
    #expect(values[2] as? Shop.Destination == .profile(accountId: 5, tab: "overview"))
    #expect(values[3] as? Shop.Catalog == .item(9))
    #expect(
      scene.stack().map(\.record.tag) == [
        "Shop.Destination", "Shop.Destination", "Shop.Destination", "Shop.Catalog",
      ])
    #expect(scene.stack().map(\.record.version) == [3, 3, 3, 1])
    #expect(scene.stack().filter(\.wasMigrated).count == 4)
    #expect(scene.stack().map(\.storedRecord) == records)
  }

  @Test("a removed case is dropped with the version that removed it")
  func removeCase() throws {
    let scene = restore(try Shop.v1Records([.home, .faq]), registry: try Shop.registry())
    #expect(
      scene.report.dropped == [
        DroppedItem(
          location: .stack("main", index: 1), tag: "Shop.Route",
          reason: .removedCase("faq", version: 2))
      ])
  }

  @Test("a value missing from a mapping table fails that route only and names the step")
  func mapValuesMiss() throws {
    let scene = restore(
      try Shop.v1Records([.order(id: 1), .order(id: 7)]), registry: try Shop.registry())
    #expect(
      scene.elements().first as? Shop.Destination
        == .purchase(id: UUID(uuidString: "0F2C5A38-7D41-4C1B-9C0E-2B6F1D3A4E5B")!))
    #expect(
      scene.report.dropped.first?.reason
        == .migrationFailed(
          tag: "Shop.Destination", version: 2, step: "mapValues(purchase.id, 2 values)",
          message: "no mapping for id = 1"))
  }

  /// Custom steps that fail on a profile: by throwing, or by returning a number JSON cannot write.
  static let failingSteps: [(String, @Sendable (JSONValue) throws -> JSONValue)] = [
    (
      "tab cannot be derived",
      { payload in
        if payload.objectValue?["profile"] != nil { throw Shop.Refused() }
        return payload
      }
    ),
    (
      "it returned the number nan, which JSON cannot write",
      { payload in
        guard payload.objectValue?["profile"] != nil else { return payload }
        return .object(["profile": .object(["accountId": .integer(1), "tab": .double(.nan)])])
      }
    ),
  ]

  @Test(
    "a failing custom step drops its route, names the step, and leaves the others",
    arguments: failingSteps)
  func failingCustomStep(
    message: String, transform: @escaping @Sendable (JSONValue) throws -> JSONValue
  ) throws {
    let registry = try Shop.registry(custom: transform)
    let scene = restore(
      try Shop.v1Records([.home, .profile(userId: 1), .order(id: 42)]), registry: registry)
    #expect(scene.elements().count == 2)
    #expect(
      scene.report.dropped == [
        DroppedItem(
          location: .stack("main", index: 1), tag: "Shop.Route",
          reason: .migrationFailed(
            tag: "Shop.Destination", version: 2, step: "custom(clamp profile tab)",
            message: message))
      ])
  }

  @Test("a custom step can rewrite the payload")
  func customStep() throws {
    let registry = try Shop.registry { payload in
      guard case .object(var outer) = payload, case .object(var profile)? = outer["profile"] else {
        return payload
      }
      profile["tab"] = .string("orders")
      outer["profile"] = .object(profile)
      return .object(outer)
    }
    let scene = restore(try Shop.v1Records([.profile(userId: 3)]), registry: registry)
    #expect(scene.elements().first as? Shop.Destination == .profile(accountId: 3, tab: "orders"))
  }

  @Test(
    "each declarative step on its own",
    arguments: [
      (
        RouteMigrationStep.renameField(case: nil, from: "name", to: "slug"),
        #"{"name":"a","page":1}"#, true
      ),
      (.addField(case: nil, name: "page", default: .integer(1)), #"{"slug":"a"}"#, true),
      (.addField(case: nil, name: "page", default: .integer(1)), #"{"slug":"a","page":4}"#, true),
      (
        .mapValues(case: nil, field: "page", table: [.string("first"): .integer(1)]),
        #"{"slug":"a","page":"first"}"#, true
      ),
      (.mapValues(case: nil, field: "page", table: [:]), #"{"slug":"a","page":"first"}"#, false),
      (.renameField(case: nil, from: "name", to: "slug"), #"[1,2]"#, false),
      (.renameCase(from: "x", to: "y"), #"{"slug":"a","page":2}"#, true),
      (.removeCase("slug"), #"{"slug":"a","page":2}"#, true),
    ])
  func singleSteps(step: RouteMigrationStep, json: String, restores: Bool) throws {
    let registry = RouteRegistry(schemaVersion: 2)
      .registering(
        Shop.Article.self, tag: "Shop.Article", version: 2,
        migrations: [RouteMigration(from: 1, [step])])
    let scene = restore([RouteRecord(tag: "Shop.Article", json: json)], registry: registry)
    #expect((scene.report.outcome == .restored) == restores, "\(step) on \(json): \(scene.report)")
  }

  @Test(
    "a mapValues key written as a whole Double or a UInt64 matches the stored integer: in the app, in its manifest, and in the manifest read back"
  )
  func mapValuesNumericKeys() throws {
    // `.integer(4)` and `.double(4)` mean the same stored 4: the key written as a payload reads
    // it wins, at every launch.
    let table: [JSONValue: JSONValue] = [
      .double(1): .integer(5), .unsignedInteger(2): .integer(6), .double(2.5): .integer(7),
      .double(4): .integer(9), .integer(4): .integer(8),
    ]
    let registry = RouteRegistry(schemaVersion: 2)
      .registering(
        Shop.Article.self, tag: "Shop.Article", version: 2,
        migrations: [
          RouteMigration(from: 1, [.mapValues(case: nil, field: "page", table: table)])
        ])
    let manifest = RouteManifest(registry: registry)
    let readBack = try RouteManifest(decoding: manifest.encoded())
    let cases: [(String, Int?)] = [
      ("1", 5), ("1.0", 5), ("2", 6), ("2.5", 7), ("3", nil), ("4", 8), ("null", nil),
    ]
    for (stored, page) in cases {
      let record = RouteRecord(tag: "Shop.Article", json: #"{"slug":"a","page":\#(stored)}"#)
      let scene = restore([record], registry: registry)
      #expect(
        scene.stack().first.flatMap { $0.value as? Shop.Article }
          == page.map { Shop.Article(slug: "a", page: $0) },
        "page \(stored): \(scene.report)")
      let snapshot = SceneSnapshot(
        metadata: SnapshotMetadata(routeSchemaVersion: 1), stacks: ["main": [record]])
      for predictor in [manifest, readBack] {
        #expect(
          predictor.predict(snapshot).report == scene.report,
          "page \(stored): \(predictor.predict(snapshot).report) and \(scene.report)")
      }
    }
  }

  @Test("a mapValues key that is not a finite number is a registration mistake, not a key")
  func mapValuesNonFiniteKeys() {
    let registry = RouteRegistry(schemaVersion: 2)
      .registering(
        Shop.Article.self, tag: "Shop.Article", version: 2,
        migrations: [
          RouteMigration(
            from: 1,
            [
              .mapValues(
                case: nil, field: "page",
                table: [.double(.nan): .integer(10), .double(-.infinity): .integer(11)])
            ])
        ])
    #expect(registry.problems.map(\.code) == [.invalidMigration])
    #expect(registry.tag(resolving: "Shop.Article") == nil)
    // Its manifest still encodes: it holds no such number.
    #expect(RouteManifest(registry: registry).encoded().isEmpty == false)
  }

  @Test("routes already at the current version are decoded as stored, without migrating")
  func currentVersion() throws {
    let registry = try Shop.registry()
    let record = registry.record(for: Shop.Destination.purchase(id: sampleUUID))
    #expect(record.version == 3)
    let scene = restore([record], registry: registry)
    #expect(scene.stack().first?.wasMigrated == false)
    #expect(scene.stack().first?.record == record)
  }

  @Test("an alias combined with migrations resolves first, then migrates")
  func aliasAndMigrations() throws {
    let registry = try RouteRegistry()
      .registering(
        Shop.Article.self, tag: "Shop.Article", version: 2, aliases: ["Old.Module.Article"],
        migrations: [RouteMigration(from: 1, [.renameField(case: nil, from: "name", to: "slug")])])
    let scene = restore(
      [RouteRecord(tag: "Old.Module.Article", json: #"{"name":"a","page":1}"#)], registry: registry)
    #expect(scene.elements().first as? Shop.Article == Shop.Article(slug: "a", page: 1))
    #expect(registry.tag(resolving: "Old.Module.Article") == "Shop.Article")
  }

  @Test("a renameTag step makes the old name an alias")
  func renameTagAlias() throws {
    #expect(try Shop.registry().tag(resolving: "Shop.Route") == "Shop.Destination")
  }

  @Test("a snapshot from a newer route schema restores to the root with nothing decoded")
  func newerSchema() throws {
    let registry = try Shop.registry()
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 4),
      stacks: ["main": [registry.record(for: Shop.Destination.home)]])
    let scene = Restorer(registry: registry).restore(snapshot)
    #expect(
      scene.report
        == RestoreReport(
          outcome: .root,
          dropped: [
            DroppedItem(
              location: .snapshot, tag: nil, reason: .newerRouteSchema(found: 4, supported: 3))
          ]))
  }

  @Test("one route from a newer version of its type sends the whole scene to the root")
  func newerRoute() throws {
    let registry = try Shop.registry()
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 3),
      stacks: [
        "main": [
          registry.record(for: Shop.Destination.home),
          RouteRecord(tag: "Shop.Destination", json: #"{"home":{}}"#, version: 4),
        ]
      ],
      selectedTab: registry.record(for: Shop.Catalog.item(1)))
    let scene = Restorer(registry: registry, policy: .dropFailingRoutes).restore(snapshot)
    #expect(scene.report.outcome == .root)
    #expect(scene.stacks.isEmpty && scene.selectedTab == nil)
    #expect(
      scene.report.dropped.map(\.reason) == [
        .sceneReset, .newerRouteVersion(stored: 4, supported: 3), .sceneReset,
      ])
  }

  @Test("migration plans that loop stop with a failure instead of hanging")
  func loopingPlan() throws {
    let registry = try RouteRegistry()
      .registering(
        Shop.Article.self, tag: "A", version: 2,
        migrations: [RouteMigration(from: 1, [.moveCase("x", toTag: "B", version: 1)])]
      )
      .registering(
        Shop.Catalog.self, tag: "B", version: 2,
        migrations: [RouteMigration(from: 1, [.moveCase("x", toTag: "A", version: 1)])])
    let scene = restore([RouteRecord(tag: "A", json: #"{"x":{}}"#)], registry: registry)
    let reason = try #require(scene.report.dropped.first?.reason)
    #expect(reason.code == .migrationFailed)
    #expect(reason.description.hasSuffix(" failed at plan: migrations loop"))
  }

  @Test("a long history of versions migrates step by step without being taken for a loop")
  func longHistory() throws {
    let registry = try RouteRegistry()
      .registering(
        Shop.Article.self, tag: "A", version: 400,
        migrations: [RouteMigration(from: 1, [.renameField(case: nil, from: "name", to: "slug")])])
    let scene = restore(
      [RouteRecord(tag: "A", json: #"{"name":"a","page":1}"#)], registry: registry)
    #expect(scene.elements().first as? Shop.Article == Shop.Article(slug: "a", page: 1))
    #expect(scene.stack().first?.record.version == 400)
  }

  @Test("a move to an unregistered tag fails the route")
  func moveToUnknownTag() throws {
    let registry = try RouteRegistry()
      .registering(
        Shop.Catalog.self, tag: "A", version: 2,
        migrations: [RouteMigration(from: 1, [.moveCase("item", toTag: "Nowhere", version: 1)])])
    let scene = restore([RouteRecord(tag: "A", json: #"{"item":{"_0":1}}"#)], registry: registry)
    let reason = try #require(scene.report.dropped.first?.reason)
    #expect(reason.code == .migrationFailed)
    #expect(reason.description.hasSuffix(": no tag Nowhere"))
  }

  @Test("a payload that is not JSON is dropped before any step runs")
  func malformedPayload() throws {
    let scene = restore(
      [RouteRecord(tag: "Shop.Route", json: "{not json")], registry: try Shop.registry())
    let reason = try #require(scene.report.dropped.first?.reason)
    #expect(reason.code == .invalidPayload)
    #expect(reason.formatError?.code == .malformedJSON)
  }
}
