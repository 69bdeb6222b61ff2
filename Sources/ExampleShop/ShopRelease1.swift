import Foundation
import Waypoint

/// Release 1.0 of the shop, as it saved its routes (route schema 1).
public enum ShopRelease1 {
  /// The tabs.
  public enum Tab: String, Codable, Hashable, Sendable, CaseIterable {
    case shop, orders, account
  }

  /// Every screen a stack can push, under the tag `Shop.Route`.
  public enum Route: Codable, Hashable, Sendable {
    case category(name: String)
    case product(id: Int)
    case order(id: Int)
    case profile(userId: Int)
    case faq
    case giftCard(code: String)
  }

  /// The checkout sheet.
  public struct Checkout: Codable, Hashable, Sendable {
    public var cartItems: Int
    public init(cartItems: Int) { self.cartItems = cartItems }
  }

  /// The build string.
  public static let appBuild = "1.0 (100)"

  /// The registry of 1.0.
  public static func registry() -> RouteRegistry {
    RouteRegistry(schemaVersion: 1)
      .registering(Tab.self, tag: "Shop.Tab", examples: Tab.allCases)
      .registering(
        Route.self, tag: "Shop.Route",
        examples: [
          .category(name: "Shoes"), .product(id: 1), .order(id: 1), .profile(userId: 1), .faq,
          .giftCard(code: "GIFT"),
        ]
      )
      .registering(Checkout.self, tag: "Shop.Checkout")
  }

  /// The restorer of 1.0.
  public static var restorer: Restorer { Restorer(registry: registry()) }

  /// The scenes 1.0 saves: an iPhone with a stack per tab (the account stack ends on the FAQ,
  /// which 2.0 removes) and the checkout sheet; an iPad with the split view, a gift card (a case
  /// that 2.0 moves to `Shop.Wallet`) and an order.
  public static func scenes() -> [ExampleShop.Scene] {
    let registry = registry()
    let metadata = SnapshotMetadata(
      registry: registry, appBuild: appBuild, savedAt: ExampleShop.savedAt)
    let iphone = SceneSnapshot(
      metadata: metadata,
      stacks: [
        "shop": registry.records(for: [Route.category(name: "Shoes"), Route.product(id: 7)]),
        "orders": registry.records(for: [Route.order(id: 42)]),
        "account": registry.records(for: [Route.profile(userId: 12), Route.faq]),
      ],
      selectedTab: registry.record(for: Tab.account),
      sheet: registry.record(for: Checkout(cartItems: 2)))
    let ipad = SceneSnapshot(
      metadata: metadata,
      stacks: [
        "shop": registry.records(for: [Route.category(name: "Boots"), Route.product(id: 9)]),
        "account": registry.records(for: [Route.profile(userId: 12), Route.giftCard(code: "G-100")]
        ),
        "orders": registry.records(for: [Route.order(id: 43)]),
      ],
      selectedTab: registry.record(for: Tab.shop),
      split: SplitViewSnapshot(
        sidebarSelection: registry.record(for: Tab.shop),
        contentSelection: registry.record(for: Route.category(name: "Boots")),
        columnVisibility: .doubleColumn, preferredCompactColumn: .content))
    return [
      ExampleShop.Scene(name: "iphone", snapshot: iphone),
      ExampleShop.Scene(name: "ipad", snapshot: ipad),
    ]
  }
}
