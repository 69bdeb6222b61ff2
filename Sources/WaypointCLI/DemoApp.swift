import Foundation
import Waypoint

/// The example app the demo runs: a shop with three tabs, as shipped in two versions.
enum DemoApp {
  /// Version 1.0 of the app.
  enum V1 {
    enum Tab: String, Codable, Hashable, Sendable { case shop, orders, account }

    enum Route: Codable, Hashable, Sendable {
      case category(name: String)
      case product(id: Int)
      case order(id: Int)
      case profile(userId: Int)
      case settings
    }

    struct Promo: Codable, Hashable, Sendable { var code: String }

    static func registry() throws(RouteRegistryError) -> RouteRegistry {
      try RouteRegistry(schemaVersion: 1)
        .registering(Tab.self, tag: "DemoApp.Tab")
        .registering(Route.self, tag: "DemoApp.Route")
        .registering(Promo.self, tag: "DemoApp.Promo")
    }
  }

  /// Version 2.0: `Route` is renamed `Destination`, `order` is gone, `profile` takes a UUID, and
  /// the promo sheet was removed.
  enum V2 {
    enum Tab: String, Codable, Hashable, Sendable { case shop, orders, account }

    enum Destination: Codable, Hashable, Sendable {
      case category(name: String)
      case product(id: Int)
      case profile(userId: UUID)
      case settings
    }

    static func registry() throws(RouteRegistryError) -> RouteRegistry {
      try RouteRegistry(schemaVersion: 2)
        .registering(Tab.self, tag: "DemoApp.Tab")
        .registering(Destination.self, tag: "DemoApp.Destination", aliases: ["DemoApp.Route"])
    }

    /// Product 3 was discontinued between the two versions.
    static let discontinuedProducts: Set<Int> = [3]

    static let validators = [
      RouteValidator(Destination.self) { destination in
        if case .product(let id) = destination, discontinuedProducts.contains(id) {
          return .reject("product \(id) was discontinued")
        }
        return .keep
      }
    ]
  }

  /// The scene version 1.0 saves: one stack per tab, the orders tab selected, an iPad sidebar and a
  /// promo sheet on top.
  static func savedScene() throws(RouteRegistryError) -> SceneSnapshot {
    let registry = try V1.registry()
    return SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: registry.schemaVersion, appBuild: "1.0 (100)"),
      stacks: [
        "shop": try registry.records(for: [
          V1.Route.category(name: "Shoes"), V1.Route.product(id: 7), V1.Route.product(id: 3),
        ]),
        "orders": try registry.records(for: [V1.Route.order(id: 42), V1.Route.product(id: 7)]),
        "account": try registry.records(for: [V1.Route.settings, V1.Route.profile(userId: 12)]),
      ],
      selectedTab: try registry.record(for: V1.Tab.orders),
      split: SplitViewSnapshot(
        sidebarSelection: try registry.record(for: V1.Tab.shop),
        columnVisibility: .doubleColumn,
        preferredCompactColumn: .detail
      ),
      sheet: try registry.record(for: V1.Promo(code: "WELCOME10"))
    )
  }
}
