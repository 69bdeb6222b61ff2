import Foundation
import Testing

@testable import Waypoint
@testable import WaypointManifest

@Suite("Repairing a snapshot from a prediction")
struct RepairPlanTests {
  /// `App.Item` renamed its field `n` to `id` in version 2; `App.Search` migrates with a custom
  /// step, which only the app can run.
  static func manifest() throws -> RouteManifest {
    try RouteManifest(
      schemaVersion: 2,
      routes: [
        RouteManifest.Route(
          tag: "App.Item", version: 2, aliases: [],
          shape: .object([RouteShape.Field("id", .integer(.int))]),
          migrations: [.init(from: 1, [.step(.renameField(case: nil, from: "n", to: "id"))])]),
        RouteManifest.Route(
          tag: "App.Search", version: 2, aliases: [],
          shape: .object([RouteShape.Field("query", .string)]),
          migrations: [.init(from: 1, [.custom(name: "lowercase")])]),
      ])
  }

  static let old = RouteRecord(tag: "App.Item", json: #"{"n":1}"#, version: 1)
  static let current = RouteRecord(tag: "App.Item", json: #"{"id":2}"#, version: 2)
  static let gone = RouteRecord(tag: "Gone.Type", json: "{}")
  static let search = RouteRecord(tag: "App.Search", json: #"{"query":"Shoes"}"#, version: 1)

  static func snapshot(
    main: [RouteRecord], sheet: RouteRecord? = nil, split: SplitViewSnapshot? = nil,
    schemaVersion: Int = 2
  ) -> SceneSnapshot {
    SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: schemaVersion), stacks: ["main": main],
      split: split, sheet: sheet)
  }

  @Test(
    "migrated routes replace the stored ones, dropped ones go, undetermined ones stay as stored")
  func repairs() throws {
    let snapshot = Self.snapshot(
      main: [Self.old, Self.current, Self.gone, Self.search], sheet: Self.gone,
      split: SplitViewSnapshot(
        sidebarSelection: Self.current, columnVisibility: ColumnVisibility(rawValue: "sideways"),
        preferredCompactColumn: SplitColumn(rawValue: "middle")))
    let prediction = try Self.manifest().predict(snapshot, policy: .dropFailingRoutes)
    let repaired = try #require(prediction.repaired(snapshot))
    let migrated = RouteRecord(tag: "App.Item", json: #"{"id":1}"#, version: 2)
    #expect(repaired.stacks == ["main": [migrated, Self.current, Self.search]])
    #expect(repaired.sheet == nil)
    #expect(repaired.split?.sidebarSelection == Self.current)
    #expect(repaired.split?.columnVisibility == .automatic)
    #expect(repaired.split?.preferredCompactColumn == nil)
    #expect(repaired.metadata == snapshot.metadata)
    // A restore of the repaired snapshot keeps everything it can judge.
    let again = try Self.manifest().predict(repaired, policy: .dropFailingRoutes)
    #expect(again.report.dropped.isEmpty)
    #expect(again.repaired(repaired) == nil)
  }

  @Test("a snapshot with nothing to migrate or drop has nothing to repair")
  func nothingToRepair() throws {
    let snapshot = Self.snapshot(main: [Self.current, Self.search])
    let prediction = try Self.manifest().predict(snapshot)
    #expect(prediction.hasUndetermined)
    #expect(prediction.repaired(snapshot) == nil)
  }

  @Test(
    "a prediction of the root repairs nothing: unreadable, newer, or nothing to keep",
    arguments: [
      "not JSON", #"{"format":99,"savedAt":"2026-01-01T00:00:00Z"}"#,
    ])
  func unreadable(document: String) throws {
    let prediction = try Self.manifest().predict(encoded: Data(document.utf8))
    #expect(prediction.report.outcome == .root)
    let snapshot = Self.snapshot(main: [Self.old, Self.gone])
    #expect(prediction.repaired(snapshot) == nil)
  }

  @Test("a root prediction of a readable snapshot repairs nothing, whatever its routes say")
  func root() throws {
    let manifest = try Self.manifest()
    for snapshot in [
      Self.snapshot(main: [Self.gone]),
      Self.snapshot(main: [Self.old, Self.gone], schemaVersion: 3),
      Self.snapshot(main: [Self.old, RouteRecord(tag: "App.Item", json: "{}", version: 9)]),
    ] {
      let prediction = manifest.predict(snapshot, policy: .dropFailingRoutes)
      #expect(prediction.report.outcome == .root)
      #expect(prediction.dropsSomething)
      #expect(prediction.repaired(snapshot) == nil)
    }
    let reset = Self.snapshot(main: [Self.old, Self.gone])
    #expect(manifest.predict(reset, policy: .resetOnAnyFailure).repaired(reset) == nil)
  }

  @Test("entries that do not match the snapshot change nothing")
  func foreignEntries() {
    let snapshot = Self.snapshot(
      main: [Self.current], split: SplitViewSnapshot(columnVisibility: .all))
    let prediction = RestorePrediction(
      entries: [
        .init(location: .stack("nowhere", index: 7), tag: "App.Item", fate: .dropped(.unknownTag)),
        .init(location: .stack("main", index: 3), tag: "App.Item", fate: .dropped(.unknownTag)),
        .init(location: .stack("main", index: 0), tag: "Other.Tag", fate: .migrated(Self.old)),
        .init(location: .sheet, tag: "App.Item", fate: .dropped(.unknownTag)),
        .init(location: .columnVisibility, tag: nil, fate: .dropped(.unknownValue("all"))),
        .init(location: .preferredCompactColumn, tag: nil, fate: .dropped(.unknownValue("x"))),
      ],
      report: RestoreReport(outcome: .partial))
    #expect(prediction.repaired(snapshot) == nil)
  }

  @Test("undetermined fates are never changed, and kept ones stay as stored")
  func undetermined() {
    let snapshot = Self.snapshot(main: [Self.old, Self.search], sheet: Self.gone)
    let prediction = RestorePrediction(
      entries: [
        .init(location: .stack("main", index: 0), tag: "App.Item", fate: .undetermined("why")),
        .init(location: .stack("main", index: 1), tag: "App.Search", fate: .kept),
        .init(location: .sheet, tag: "Gone.Type", fate: .undetermined("custom")),
      ],
      report: RestoreReport(outcome: .restored))
    #expect(prediction.repaired(snapshot) == nil)
  }

  @Test("a fate reads the same in every tool")
  func fateDescription() {
    #expect(RouteFate.kept.description == "kept")
    #expect(
      RouteFate.migrated(Self.current).description == #"migrated to App.Item@v2 {"id":2}"#)
    #expect(RouteFate.dropped(.unknownTag).description == "dropped: unknown tag")
    #expect(RouteFate.undetermined("a custom step").description == "needs the app: a custom step")
  }
}
