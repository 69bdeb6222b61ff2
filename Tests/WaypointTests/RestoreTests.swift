import Foundation
import Testing
import Waypoint

@Suite("Restore")
struct RestoreTests {
  /// A v1 stack whose middle route (`order`) was removed in v2.
  static func v1Snapshot() throws -> SceneSnapshot {
    let registry = try V1.registry()
    return SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1, appBuild: "1.0", savedAt: sampleDate),
      stacks: [
        "main": registry.records(for: [
          V1.Route.home, V1.Route.order(id: 42), V1.Route.settings,
        ])
      ]
    )
  }

  static func restore(_ snapshot: SceneSnapshot, policy: RestorePolicy = .cutAtFirstFailure) throws
    -> RestoredScene
  {
    Restorer(registry: try V2.registry(), policy: policy).restore(snapshot)
  }

  @Test("cut at first failure keeps the routes below the failed one")
  func cutPolicy() throws {
    let scene = try Self.restore(Self.v1Snapshot())
    #expect(try scene.routes(V2.Destination.self) == [.home])
    #expect(scene.report.outcome == .partial)
    #expect(
      scene.report.dropped.map(\.location) == [.stack("main", index: 1), .stack("main", index: 2)])
    #expect(scene.report.dropped.map(\.tag) == ["App.Route", "App.Route"])
    #expect(scene.report.dropped[0].reason.code == .undecodable)
    #expect(scene.report.dropped[1].reason == .aboveFailedRoute(index: 1))
  }

  @Test("drop failing routes keeps every other route in order")
  func dropPolicy() throws {
    let scene = try Self.restore(Self.v1Snapshot(), policy: .dropFailingRoutes)
    #expect(try scene.routes(V2.Destination.self) == [.home, .settings])
    #expect(scene.report.outcome == .partial)
    #expect(scene.report.dropped.map(\.location) == [.stack("main", index: 1)])
  }

  @Test(
    "a stack whose every route was dropped is there and empty; the other stacks restore",
    arguments: [RestorePolicy.cutAtFirstFailure, .dropFailingRoutes])
  func emptiedStack(policy: RestorePolicy) throws {
    let registry = try V1.registry()
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1, appBuild: "1.0", savedAt: sampleDate),
      stacks: [
        "main": registry.records(for: [V1.Route.home, V1.Route.settings]),
        "orders": registry.records(for: [V1.Route.order(id: 42)]),
      ])
    let scene = try Self.restore(snapshot, policy: policy)
    #expect(scene.report.outcome == .partial)
    #expect(try scene.routes(V2.Destination.self) == [.home, .settings])
    #expect(scene.stacks.keys.sorted() == ["main", "orders"])
    #expect(scene.stacks["orders"]?.isEmpty == true)
    #expect(scene.report.dropped.map(\.location) == [.stack("orders", index: 0)])
  }

  @Test("reset on any failure restores the root and names every route")
  func resetPolicy() throws {
    let scene = try Self.restore(Self.v1Snapshot(), policy: .resetOnAnyFailure)
    #expect(scene.stacks.isEmpty)
    #expect(scene.report.outcome == .root)
    #expect(scene.report.dropped.count == 3)
    #expect(scene.report.dropped[0].reason == .sceneReset)
    #expect(scene.report.dropped[2].reason == .sceneReset)
    #expect(scene.report.dropped[1].reason != .sceneReset)
  }

  @Test(
    "every policy restores a snapshot without failures completely",
    arguments: RestorePolicy.allCases)
  func cleanSnapshot(policy: RestorePolicy) throws {
    let registry = try V2.registry()
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: [
        "main": registry.records(for: [V2.Destination.home, .settings])
      ])
    let scene = Restorer(registry: registry, policy: policy).restore(snapshot)
    #expect(scene.report == RestoreReport(outcome: .restored))
    #expect(try scene.routes(V2.Destination.self) == [.home, .settings])
  }

  @Test("a renamed type restores through its alias and keeps its stored record")
  func renameViaAlias() throws {
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: [
        "main": try V1.registry().records(for: [V1.Route.settings, V1.Route.home])
      ])
    let scene = try Self.restore(snapshot)
    #expect(scene.report.outcome == .restored)
    #expect(try scene.routes(V2.Destination.self) == [.settings, .home])
    #expect(scene.stack().map(\.record.tag) == ["App.Route", "App.Route"])
  }

  @Test("a removed enum case is dropped as no longer decoding")
  func removedCase() throws {
    let record = try V1.registry().record(for: V1.Route.order(id: 42))
    let scene = try Self.restore(
      SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 1), stacks: ["main": [record]]))
    #expect(scene.report.outcome == .root)
    let reason = try #require(scene.report.dropped.first?.reason)
    #expect(reason.code == .undecodable)
    #expect(reason.codingPath == "")
    #expect(reason.description.hasPrefix("no longer decodes: "))
    #expect(reason.description.hasSuffix("(keys: order)"))
  }

  @Test("a changed field type is dropped with the field's coding path")
  func changedFieldType() throws {
    let record = try V1.registry().record(for: V1.Route.profile(userId: 7))
    let scene = try Self.restore(
      SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 1), stacks: ["main": [record]]))
    let reason = try #require(scene.report.dropped.first?.reason)
    #expect(reason.code == .undecodable)
    #expect(reason.codingPath == "profile.userId")
  }

  @Test("a struct that gained a required field is dropped with the missing key's path")
  func addedField() throws {
    let record = try V1.registry().record(for: V1.Article(id: 1, title: "Hello"))
    let scene = try Self.restore(
      SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 1), stacks: ["reader": [record]])
    )
    #expect(
      scene.report.dropped.first?.reason
        == .undecodable(codingPath: "author", message: "no value for key \"author\""))
    #expect(scene.report.outcome == .root)
    #expect(scene.stacks.isEmpty)
  }

  @Test("validators reject decoded routes with the app's reason; other types pass")
  func validators() throws {
    let registry = try V1.registry()
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: [
        "main": registry.records(for: [
          V1.Route.home, V1.Route.order(id: 42), V1.Route.order(id: 7),
        ])
      ],
      selectedTab: registry.record(for: V1.Tab.search))
    let orders: Set<Int> = [7]
    let restorer = Restorer(
      registry: registry, policy: .dropFailingRoutes,
      validators: [
        RouteValidator(V1.Route.self) { route in
          if case .order(let id) = route, !orders.contains(id) {
            return .reject("order \(id) no longer exists")
          }
          return .keep
        },
        RouteValidator { _, location in
          location == .stack("main", index: 0) ? .reject("root screen moved") : .keep
        },
      ])
    let scene = restorer.restore(snapshot)
    #expect(try scene.routes(V1.Route.self) == [.order(id: 7)])
    #expect(scene.selectedTab?.value(as: V1.Tab.self) == .search)
    #expect(
      scene.report.dropped == [
        DroppedItem(
          location: .stack("main", index: 0), tag: "App.Route",
          reason: .rejectedByValidator("root screen moved")),
        DroppedItem(
          location: .stack("main", index: 1), tag: "App.Route",
          reason: .rejectedByValidator("order 42 no longer exists")),
      ])
  }

  @Test("a snapshot whose every tag is unknown restores to the root")
  func everyTagUnknown() throws {
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: [
        "a": [RouteRecord(tag: "Gone.A", json: "{}")],
        "b": [RouteRecord(tag: "Gone.B", json: "{}")],
      ],
      sheet: RouteRecord(tag: "Gone.C", json: "1"))
    let scene = try Self.restore(snapshot)
    #expect(scene.report.outcome == .root)
    #expect(scene.report.dropped.map(\.reason) == [.unknownTag, .unknownTag, .unknownTag])
    #expect(
      scene.report.dropped.map(\.location) == [
        .stack("a", index: 0), .stack("b", index: 0), .sheet,
      ])
    #expect(scene.sheet == nil)
  }

  @Test("unreadable and future-format documents restore to the root with the cause")
  func unreadableDocuments() throws {
    let restorer = Restorer(registry: try V2.registry())
    let malformed = restorer.restore(encoded: Data("{\"format\":1".utf8))
    #expect(malformed.report.outcome == .root)
    #expect(malformed.metadata == nil)
    let reason = try #require(malformed.report.dropped.first?.reason)
    #expect(reason.code == .unreadableSnapshot)
    #expect(reason.formatError?.code == .malformedJSON)
    let future = restorer.restore(
      encoded: Data(#"{"format":9,"savedAt":"2031-01-01T00:00:00Z"}"#.utf8))
    #expect(
      future.report
        == RestoreReport(
          outcome: .root,
          dropped: [
            DroppedItem(location: .snapshot, tag: nil, reason: .newerFormat(found: 9, supported: 1))
          ]))
    var inMemory = SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 1))
    inMemory.formatVersion = 2
    #expect(restorer.restore(inMemory).report == future.report.replacingFound(2))
  }

  @Test("a route written by a newer version of its type is not decoded")
  func newerRouteVersion() throws {
    let record = RouteRecord(tag: "App.Destination", json: #"{"home":{}}"#, version: 2)
    let scene = try Self.restore(
      SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 1), stacks: ["main": [record]]))
    #expect(scene.report.dropped.first?.reason == .newerRouteVersion(stored: 2, supported: 1))
  }

  @Test("payloads that are not JSON, too large or too deep are refused")
  func badPayloads() throws {
    let restorer = Restorer(
      registry: try V2.registry(), policy: .dropFailingRoutes,
      limits: InputLimits(maxPayloadBytes: 64, maxNestingDepth: 4))
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: [
        "main": [
          RouteRecord(tag: "App.Destination", json: "{"),
          RouteRecord(tag: "App.Destination", json: #"{"home":{"#),
          RouteRecord(tag: "Swift.String", json: "\"" + String(repeating: "x", count: 100) + "\""),
          RouteRecord(tag: "App.Destination", json: #"{"home":{"a":[[[[]]]]}}"#),
          RouteRecord(tag: "Swift.Int", json: "5"),
        ]
      ])
    let scene = restorer.restore(snapshot)
    #expect(scene.elements().count == 1)
    #expect(scene.elements().first as? Int == 5)
    let reasons = scene.report.dropped.map(\.reason)
    #expect(reasons.count == 4)
    #expect(reasons[0...1].map(\.code) == [.invalidPayload, .invalidPayload])
    #expect(reasons[0...1].map(\.formatError?.code) == [.malformedJSON, .malformedJSON])
    #expect(reasons[2] == .invalidPayload(.tooLarge(byteCount: 102, limit: 64)))
    #expect(reasons[3] == .invalidPayload(.nestingTooDeep(limit: 4)))
  }

  @Test("a selection that no longer decodes becomes nil and the rest restores")
  func failingSelections() throws {
    let v1 = try V1.registry()
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: ["library": v1.records(for: [V1.Route.home])],
      selectedTab: v1.record(for: V1.Tab.search),
      split: SplitViewSnapshot(
        sidebarSelection: v1.record(for: V1.Route.order(id: 1)),
        contentSelection: v1.record(for: V1.Route.settings),
        columnVisibility: .detailOnly, preferredCompactColumn: .content),
      sheet: RouteRecord(tag: "Gone", json: "{}"))
    let scene = try Self.restore(snapshot)
    #expect(scene.selectedTab == nil)
    #expect(scene.sidebarSelection == nil)
    #expect(scene.contentSelection?.value(as: V2.Destination.self) == .settings)
    #expect(scene.columnVisibility == .detailOnly)
    #expect(scene.preferredCompactColumn == .content)
    #expect(scene.sheet == nil)
    #expect(try scene.routes(V2.Destination.self, in: "library") == [.home])
    #expect(scene.report.outcome == .partial)
    #expect(scene.report.dropped.map(\.location) == [.selectedTab, .sidebarSelection, .sheet])
  }

  @Test("unknown column visibility becomes automatic and an unknown compact column nil, reported")
  func unknownSplitNames() throws {
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: ["detail": [RouteRecord(tag: "Swift.Int", json: "1")]],
      split: SplitViewSnapshot(
        columnVisibility: ColumnVisibility(rawValue: "triple"),
        preferredCompactColumn: SplitColumn(rawValue: "inspector")))
    let scene = try Self.restore(snapshot)
    #expect(scene.columnVisibility == .automatic)
    #expect(scene.preferredCompactColumn == nil)
    #expect(scene.elements(in: "detail").first as? Int == 1)
    #expect(
      scene.report.dropped == [
        DroppedItem(location: .columnVisibility, tag: nil, reason: .unknownValue("triple")),
        DroppedItem(
          location: .preferredCompactColumn, tag: nil, reason: .unknownValue("inspector")),
      ])
    #expect(scene.report.outcome == .partial)
  }

  @Test(
    "a snapshot without routes but with an unknown split name restores, partially, not to the root")
  func unknownNameWithoutRoutes() throws {
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      split: SplitViewSnapshot(columnVisibility: ColumnVisibility(rawValue: "quad")))
    let scene = try Self.restore(snapshot)
    #expect(scene.report.outcome == .partial)
    #expect(scene.report.dropped.map(\.reason) == [.unknownValue("quad")])
  }

  @Test("when every route fails the split-view values are not applied either")
  func rootClearsSplitValues() throws {
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: ["detail": [RouteRecord(tag: "Gone", json: "{}")]],
      split: SplitViewSnapshot(columnVisibility: .detailOnly, preferredCompactColumn: .detail))
    let scene = try Self.restore(snapshot)
    #expect(scene.report.outcome == .root)
    #expect(scene.columnVisibility == .automatic)
    #expect(scene.preferredCompactColumn == nil)
  }

  @Test("metadata built from a registry records its schema version")
  func metadataFromRegistry() throws {
    let metadata = SnapshotMetadata(registry: try V2.registry(), appBuild: "2.0")
    #expect(metadata.routeSchemaVersion == 2)
    #expect(metadata.appBuild == "2.0")
  }

  @Test(
    "the restored NavigationPath holds only the kept routes, top first, under their current type names"
  )
  func navigationPathOfKeptRoutes() throws {
    let json =
      #"["App.Route","{\"settings\":{}}","App.Route","{\"order\":{\"id\":42}}","App.Route","{\"home\":{}}"]"#
    let scene = Restorer(registry: try V2.registry(), policy: .dropFailingRoutes).restore(
      navigationPath: Data(json.utf8))
    let expected =
      #"["WaypointTests.V2.Destination","{\"settings\":{}}","WaypointTests.V2.Destination","{\"home\":{}}"]"#
    #expect(String(decoding: scene.navigationPathData(), as: UTF8.self) == expected)
    #expect(scene.report.dropped.map(\.location) == [.stack("main", index: 1)])
  }

  @Test("the report reads as one line per dropped item")
  func reportDescription() throws {
    let scene = try Self.restore(Self.v1Snapshot(), policy: .dropFailingRoutes)
    let lines = scene.report.description.split(separator: "\n")
    #expect(lines.first == "partial")
    #expect(lines.count == 2)
    #expect(lines[1].hasPrefix("  dropped stack main[1] App.Route: no longer decodes"))
  }
}

extension RestoreReport {
  fileprivate func replacingFound(_ found: Int) -> RestoreReport {
    RestoreReport(
      outcome: outcome,
      dropped: [
        DroppedItem(location: .snapshot, tag: nil, reason: .newerFormat(found: found, supported: 1))
      ])
  }
}
