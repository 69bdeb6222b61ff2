import Foundation
import Waypoint

/// Builds a scene snapshot for a test in a few lines, from the app's own route values or from raw
/// `(tag, JSON, version)` triples for shapes that no longer exist as Swift types.
///
/// ```swift
/// let snapshot = SceneBuilder(registry: .app)
///   .stack("shop", Route.category(name: "Shoes"), Route.product(id: 7))
///   .stack("account", raw: ("MyApp.Route", #"{"faq":{}}"#, 1))
///   .tab(Tab.shop)
///   .split(sidebar: Tab.shop, columns: .doubleColumn, compactColumn: .detail)
///   .sheet(Promo(code: "WELCOME10"))
///   .snapshot
/// ```
///
/// Values go through the registry's `record(for:)`, as the app's saves do. A value the registry
/// cannot record (an unregistered type, a value `JSONEncoder` refuses) yields the same unrecordable
/// record as in the app: ``checked()`` throws for it, and a store refuses to save it. Raw triples
/// are stored as given, however malformed, so that a test can build exactly the bytes an old or
/// damaged build saved.
public struct SceneBuilder: Sendable {
  /// The date every builder stamps unless told otherwise (2026-01-01 00:00:00 UTC), so that a
  /// built snapshot encodes to the same bytes on every run.
  public static let fixedDate = Date(timeIntervalSince1970: 1_767_225_600)

  /// The registry that records route values.
  public var registry: RouteRegistry
  /// The snapshot built so far.
  public var snapshot: SceneSnapshot

  /// A builder for an empty scene saved by `registry`'s schema version.
  public init(registry: RouteRegistry, appBuild: String? = nil, savedAt: Date = fixedDate) {
    self.registry = registry
    snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(registry: registry, appBuild: appBuild, savedAt: savedAt))
  }

  /// The stack `name` holding `routes`, root first (replacing any stack of that name).
  // Disfavored so that an array of routes is taken as its elements (the overload below), not as
  // one route of an array type.
  @_disfavoredOverload
  public func stack(_ name: String, _ routes: any RestorableRoute...) -> Self {
    stack(name, routes)
  }

  /// The stack `name` holding `routes`, root first.
  public func stack(_ name: String, _ routes: [any RestorableRoute]) -> Self {
    with { $0.snapshot.stacks[name] = registry.records(for: routes) }
  }

  /// The stack `name` holding `routes` of one type, root first (an array of routes is its
  /// elements, never one route).
  public func stack<Route: RestorableRoute>(_ name: String, _ routes: [Route]) -> Self {
    stack(name, routes.map { $0 as any RestorableRoute })
  }

  /// The stack `name` holding raw `(tag, JSON, version)` triples, root first.
  public func stack(_ name: String, raw routes: (String, String, Int)...) -> Self {
    stack(name, records: routes.map(Self.record))
  }

  /// The stack `name` holding records as they are.
  public func stack(_ name: String, records: [RouteRecord]) -> Self {
    with { $0.snapshot.stacks[name] = records }
  }

  /// The main stack (`SceneSnapshot.mainStackName`) holding `routes`.
  @_disfavoredOverload
  public func main(_ routes: any RestorableRoute...) -> Self {
    stack(SceneSnapshot.mainStackName, routes)
  }

  /// The main stack (`SceneSnapshot.mainStackName`) holding `routes` of one type.
  public func main<Route: RestorableRoute>(_ routes: [Route]) -> Self {
    stack(SceneSnapshot.mainStackName, routes)
  }

  /// The selected tab.
  public func tab(_ tab: any RestorableRoute) -> Self {
    with { $0.snapshot.selectedTab = registry.record(for: tab) }
  }

  /// The selected tab as a raw `(tag, JSON, version)` triple.
  public func tab(raw: (String, String, Int)) -> Self {
    with { $0.snapshot.selectedTab = Self.record(raw) }
  }

  /// The split view: its selections (app values), column visibility and preferred compact column.
  public func split(
    sidebar: (any RestorableRoute)? = nil, content: (any RestorableRoute)? = nil,
    columns: ColumnVisibility = .automatic, compactColumn: SplitColumn? = nil
  ) -> Self {
    split(
      SplitViewSnapshot(
        sidebarSelection: sidebar.map { registry.record(for: $0) },
        contentSelection: content.map { registry.record(for: $0) },
        columnVisibility: columns, preferredCompactColumn: compactColumn))
  }

  /// The split view as a ready snapshot (raw selections, unknown visibility names, …).
  public func split(_ split: SplitViewSnapshot) -> Self {
    with { $0.snapshot.split = split }
  }

  /// The presented sheet.
  public func sheet(_ route: any RestorableRoute) -> Self {
    with { $0.snapshot.sheet = registry.record(for: route) }
  }

  /// The presented sheet as a raw `(tag, JSON, version)` triple.
  public func sheet(raw: (String, String, Int)) -> Self {
    with { $0.snapshot.sheet = Self.record(raw) }
  }

  /// The app build string in the metadata.
  public func appBuild(_ build: String?) -> Self {
    with { $0.snapshot.metadata.appBuild = build }
  }

  /// The route-schema version in the metadata (a newer one than the restoring build's makes the
  /// restore drop everything with `newerRouteSchema`, as in the app).
  public func schemaVersion(_ version: Int) -> Self {
    with { $0.snapshot.metadata.routeSchemaVersion = version }
  }

  /// The snapshot after the same check a save makes.
  ///
  /// - Throws: ``WaypointTestFailure`` naming the problem `SceneSnapshot.check()` found (an
  ///   unrecordable value, an oversized or malformed raw record).
  public func checked() throws(WaypointTestFailure) -> SceneSnapshot {
    do {
      try snapshot.check()
    } catch {
      throw WaypointTestFailure("the built snapshot cannot be saved: \(error)")
    }
    return snapshot
  }

  /// The snapshot document's bytes, as a save writes them.
  public var encoded: Data { snapshot.encoded() }

  private func with(_ change: (inout Self) -> Void) -> Self {
    var copy = self
    change(&copy)
    return copy
  }

  private static func record(_ raw: (String, String, Int)) -> RouteRecord {
    RouteRecord(tag: raw.0, json: raw.1, version: raw.2)
  }
}
