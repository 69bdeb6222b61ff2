import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointNavigation

@Suite("Scene navigator: each restore's outcome record, for the app's analytics and the store")
@MainActor
struct NavigatorOutcomeTests {
  /// A release whose `Route` lost `settings`: the tests' registry without it, at schema 2.
  enum RouteV2: RestorableRoute {
    case home
    case order(Int)
  }

  @Test("after the report, the record of the restore; kept in the store by the next flush")
  func outcomeEvent() async throws {
    let folder = try TemporaryFolder()
    let store = try folder.store()
    _ = try store.save(
      SceneSnapshot(
        metadata: SnapshotMetadata(registry: try registry(), appBuild: "1.0"),
        stacks: ["main": try registry().records(for: [Route.home, Route.settings, Route.order(7)])]
      ),
      scene: "scene")
    let updated = RouteRegistry(schemaVersion: 2).registering(
      RouteV2.self, tag: "Test.Route", version: 2,
      migrations: [RouteMigration(from: 1, [.removeCase("settings")])])
    let navigator = SceneNavigator(
      scene: "scene", store: store, restorer: Restorer(registry: updated),
      configuration: NavigatorConfiguration(
        saveDelay: .seconds(3600), confirmationDelay: nil, appBuild: "2.0",
        outcomeOptions: RestoreOutcome.Options(tag: { "#" + $0 })))
    let log = EventLog(navigator)
    let report = navigator.restoreNow()
    #expect(report.outcome == .partial)

    let records = log.events.compactMap { event -> RestoreOutcome? in
      if case .restoredOutcome(let outcome) = event { outcome } else { nil }
    }
    #expect(records.count == 1)
    let record = try #require(records.first)
    #expect(record.appBuild == "2.0")
    #expect(record.routeSchemaVersion == 2)
    #expect(record.storedRouteSchemaVersion == 1)
    #expect(record.outcome == .partial)
    #expect(record.crashLoop == .none)
    #expect(record.items.first?.kind == .dropped)
    #expect(record.items.first?.tag == "#Test.Route")
    #expect(record.items.first?.reason == "removedCase")
    #expect(record.items.contains { $0.kind == .migrated && $0.count == 1 })
    // The report comes first, then the record.
    if case .restored = log.events.first {} else { Issue.record("first event: \(log.events)") }

    await navigator.flush()
    #expect(try store.restoreOutcomes().map(\.record) == [record.jsonLine])
  }

  @Test("a scene's first launch, with nothing saved, sends no record and keeps none")
  func firstLaunch() async throws {
    let folder = try TemporaryFolder()
    let store = try folder.store()
    let navigator = SceneNavigator(
      scene: "scene", store: store, restorer: try restorer(), configuration: manual)
    let log = EventLog(navigator)
    #expect(navigator.restoreNow().outcome == .root)
    #expect(
      !log.events.contains { if case .restoredOutcome = $0 { true } else { false } })
    navigator.push(Route.home)
    await navigator.flush()
    #expect(try store.restoreOutcomes().isEmpty)
  }

  @Test("a navigator without a store sends no record")
  func inMemory() {
    let navigator = SceneNavigator(scene: "scene", restorer: Restorer(registry: RouteRegistry()))
    let log = EventLog(navigator)
    navigator.restoreNow()
    #expect(
      !log.events.contains { if case .restoredOutcome = $0 { true } else { false } })
  }
}
