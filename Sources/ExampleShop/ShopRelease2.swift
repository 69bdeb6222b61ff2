import Foundation
import Waypoint

/// Release 2.0 of the shop (route schema 2). Its changes to 1.0, as migration steps:
/// - the type `Route` is renamed `Destination` (tag `Shop.Destination`, alias `Shop.Route`);
/// - the case `order` is renamed `purchase`, the case `faq` removed (its routes are dropped);
/// - `profile(userId:)` becomes `profile(accountId:)`, `product` gains a `variant` field;
/// - the case `giftCard` moves to the new type `Wallet` (`Shop.Wallet`);
/// - `Checkout` gains an optional `coupon` (no version bump: old routes decode as they are).
public enum ShopRelease2 {
  /// The tabs.
  public enum Tab: String, Codable, Hashable, Sendable, CaseIterable {
    case shop, orders, account
  }

  /// Every screen a stack can push, under the tag `Shop.Destination` (formerly `Shop.Route`).
  public enum Destination: Codable, Hashable, Sendable {
    case category(name: String)
    case product(id: Int, variant: String)
    case purchase(id: Int)
    case profile(accountId: Int)
  }

  /// Payment screens, new in 2.0: `giftCard` moved here from `Destination`.
  public enum Wallet: Codable, Hashable, Sendable {
    case giftCard(code: String)
    case card(last4: String)
  }

  /// The checkout sheet.
  public struct Checkout: Codable, Hashable, Sendable {
    public var cartItems: Int
    public var coupon: String?
    public init(cartItems: Int, coupon: String? = nil) {
      self.cartItems = cartItems
      self.coupon = coupon
    }
  }

  /// The build string.
  public static let appBuild = "2.0 (200)"

  /// The steps from version 1 of `Shop.Route` to version 2 of `Shop.Destination`.
  static let fromRelease1: [RouteMigrationStep] = [
    .renameTag(from: "Shop.Route"),
    .moveCase("giftCard", toTag: "Shop.Wallet", version: 1),
    .renameCase(from: "order", to: "purchase"),
    .removeCase("faq"),
    .renameField(case: "profile", from: "userId", to: "accountId"),
    .addField(case: "product", name: "variant", default: .string("standard")),
  ]

  /// The registry of 2.0.
  public static func registry() -> RouteRegistry {
    RouteRegistry(schemaVersion: 2)
      .registering(Tab.self, tag: "Shop.Tab", examples: Tab.allCases)
      .registering(
        Destination.self, tag: "Shop.Destination", version: 2,
        migrations: [RouteMigration(from: 1, fromRelease1)],
        examples: [
          .category(name: "Shoes"), .product(id: 1, variant: "standard"), .purchase(id: 1),
          .profile(accountId: 1),
        ]
      )
      .registering(
        Wallet.self, tag: "Shop.Wallet", examples: [.giftCard(code: "GIFT"), .card(last4: "4242")]
      )
      .registering(Checkout.self, tag: "Shop.Checkout")
  }

  /// The restorer of 2.0.
  public static var restorer: Restorer { Restorer(registry: registry()) }

  /// The scenes 2.0 saves: an iPhone on the orders tab with a coupon at checkout, an iPad whose
  /// split view shows a product variant and whose account stack holds a wallet route.
  public static func scenes() -> [ExampleShop.Scene] {
    let registry = registry()
    let metadata = SnapshotMetadata(
      registry: registry, appBuild: appBuild, savedAt: ExampleShop.savedAt)
    let iphone = SceneSnapshot(
      metadata: metadata,
      stacks: [
        "shop": registry.records(for: [
          Destination.category(name: "Shoes"), Destination.product(id: 7, variant: "red"),
        ]),
        "orders": registry.records(for: [Destination.purchase(id: 43)]),
        "account": registry.records(for: [Destination.profile(accountId: 12)]),
      ],
      selectedTab: registry.record(for: Tab.orders),
      sheet: registry.record(for: Checkout(cartItems: 3, coupon: "SPRING")))
    let ipad = SceneSnapshot(
      metadata: metadata,
      stacks: [
        "shop": registry.records(for: [
          Destination.category(name: "Boots"), Destination.product(id: 9, variant: "brown"),
        ]),
        "account": registry.records(for: [
          Destination.profile(accountId: 12), Wallet.card(last4: "4242"),
        ]),
      ],
      selectedTab: registry.record(for: Tab.account),
      split: SplitViewSnapshot(
        sidebarSelection: registry.record(for: Tab.account),
        contentSelection: registry.record(for: Destination.profile(accountId: 12)),
        columnVisibility: .all, preferredCompactColumn: .detail))
    return [
      ExampleShop.Scene(name: "iphone", snapshot: iphone),
      ExampleShop.Scene(name: "ipad", snapshot: ipad),
    ]
  }
}
