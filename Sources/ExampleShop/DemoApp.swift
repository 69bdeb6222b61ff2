import Foundation
import Waypoint

/// The example app the demo runs (`waypoint demo`; also the kit's and the CLI's tests' material): a shop with three tabs, shipped in three versions.
package enum DemoApp {
  /// Version 1.0 of the app, as it saved its routes.
  package enum V1 {
    package enum Tab: String, Codable, Hashable, Sendable { case shop, orders, account }

    package enum Route: Codable, Hashable, Sendable {
      case category(name: String)
      case product(id: Int)
      case order(id: Int)
      case profile(userId: Int)
      case faq
      case settings
    }

    package struct Promo: Codable, Hashable, Sendable {
      package var code: String
      package init(code: String) { self.code = code }
    }

    package struct Search: Codable, Hashable, Sendable {
      package var query: String
      package init(query: String) { self.query = query }
    }

    package static func registry() -> RouteRegistry {
      RouteRegistry(schemaVersion: 1)
        .registering(Tab.self, tag: "DemoApp.Tab", examples: [.shop, .orders, .account])
        .registering(
          Route.self, tag: "DemoApp.Route",
          examples: [
            .category(name: "Shoes"), .product(id: 7), .order(id: 42), .profile(userId: 1), .faq,
            .settings,
          ]
        )
        .registering(Promo.self, tag: "DemoApp.Promo")
        .registering(Search.self, tag: "DemoApp.Search")
    }
  }

  /// Version 3.0, the current one. Its history, as migration steps:
  /// - 2.0: `Route` renamed `Destination`; `order` renamed `purchase`; `faq` removed;
  ///   `profile(userId:)` renamed `profile(accountId:)`; the `Promo` sheet type deleted.
  /// - 3.0: purchase ids become UUIDs (through a table of the old ids); `profile` gains a `tab`;
  ///   search queries are normalized to lowercase by a custom step.
  package enum V3 {
    package enum Tab: String, Codable, Hashable, Sendable { case shop, orders, account }

    package enum Destination: Codable, Hashable, Sendable {
      case category(name: String)
      case product(id: Int)
      case purchase(id: UUID)
      case profile(accountId: Int, tab: String)
      case settings
    }

    /// Old integer order ids and the UUIDs the server gave them in 3.0.
    package static let purchaseIDs: [JSONValue: JSONValue] = [
      .integer(42): .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
      .integer(43): .string("0F2C5A38-7D41-4C1B-9C0E-2B6F1D3A4E5B"),
    ]

    package struct Search: Codable, Hashable, Sendable {
      package var query: String
      package init(query: String) { self.query = query }
    }

    /// The custom step of 3.0: search queries become lowercase.
    @Sendable static func lowercaseQuery(_ payload: JSONValue) throws -> JSONValue {
      guard case .object(var search) = payload, case .string(let query)? = search["query"] else {
        return payload
      }
      search["query"] = .string(query.lowercased())
      return .object(search)
    }

    package static func registry() -> RouteRegistry {
      RouteRegistry(schemaVersion: 3)
        .registering(Tab.self, tag: "DemoApp.Tab", examples: [.shop, .orders, .account])
        .registering(
          Search.self, tag: "DemoApp.Search", version: 3,
          migrations: [
            RouteMigration(from: 2, [.custom("lowercase search queries", lowercaseQuery)])
          ]
        )
        .registering(
          Destination.self, tag: "DemoApp.Destination", version: 3,
          migrations: [
            RouteMigration(
              from: 1,
              [
                .renameTag(from: "DemoApp.Route"), .renameCase(from: "order", to: "purchase"),
                .removeCase("faq"),
                .renameField(case: "profile", from: "userId", to: "accountId"),
              ]),
            RouteMigration(
              from: 2,
              [
                .mapValues(case: "purchase", field: "id", table: purchaseIDs),
                .addField(case: "profile", name: "tab", default: .string("overview")),
              ]),
          ],
          examples: [
            .category(name: "shoes"), .product(id: 1), .purchase(id: UUID()),
            .profile(accountId: 1, tab: "overview"),
            .settings,
          ])
    }

    /// Product 3 was discontinued.
    package static let discontinuedProducts: Set<Int> = [3]

    package static let validators = [
      RouteValidator(Destination.self) { destination in
        if case .product(let id) = destination, discontinuedProducts.contains(id) {
          return .reject("product \(id) was discontinued")
        }
        return .keep
      }
    ]
  }

  /// The build string of version 1.0, which saves the demo's scene.
  package static let appBuild = "1.0 (100)"

  /// The scene version 1.0 saves: one stack per tab, the orders tab selected, an iPad sidebar and a
  /// promo sheet on top.
  package static func savedScene() -> SceneSnapshot {
    let registry = V1.registry()
    return SceneSnapshot(
      metadata: SnapshotMetadata(registry: registry, appBuild: appBuild),
      stacks: [
        "shop": registry.records(for: [
          V1.Route.category(name: "Shoes"), V1.Route.product(id: 7), V1.Route.product(id: 3),
        ]),
        "orders": registry.records(for: [V1.Route.order(id: 42), V1.Route.order(id: 17)]),
        "account": registry.records(for: [
          V1.Route.profile(userId: 12), V1.Route.faq, V1.Route.settings,
        ]),
        "search": registry.records(for: [V1.Search(query: "Red Boots")]),
      ],
      selectedTab: registry.record(for: V1.Tab.orders),
      split: SplitViewSnapshot(
        sidebarSelection: registry.record(for: V1.Tab.shop),
        columnVisibility: .doubleColumn,
        preferredCompactColumn: .detail
      ),
      sheet: registry.record(for: V1.Promo(code: "WELCOME10"))
    )
  }
}
