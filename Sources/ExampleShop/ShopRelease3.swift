import Foundation
import Waypoint

/// Release 3.0 of the shop, the current one (route schema 3). Its changes to 2.0:
/// - purchase ids are retyped from integers to UUIDs, through the table of the ids the server
///   renumbered (an id it does not list fails the migration, and the route is dropped);
/// - `Checkout` gains a required `currency` (version 2, with a default for saved checkouts);
/// - the tab `wallet` is added.
///
/// The types that stacks push are also registered under the names SwiftUI writes into a
/// `NavigationPath` (`ExampleShop.ShopRelease3.Destination`): the round-trip check asked for it.
public enum ShopRelease3 {
  /// The tabs.
  public enum Tab: String, Codable, Hashable, Sendable, CaseIterable {
    case shop, orders, account, wallet
  }

  /// Every screen a stack can push, under the tag `Shop.Destination`.
  public enum Destination: Codable, Hashable, Sendable {
    case category(name: String)
    case product(id: Int, variant: String)
    case purchase(id: UUID)
    case profile(accountId: Int)
  }

  /// Payment screens.
  public enum Wallet: Codable, Hashable, Sendable {
    case giftCard(code: String)
    case card(last4: String)
  }

  /// The checkout sheet.
  public struct Checkout: Codable, Hashable, Sendable {
    public var cartItems: Int
    public var coupon: String?
    public var currency: String
    public init(cartItems: Int, coupon: String? = nil, currency: String) {
      self.cartItems = cartItems
      self.coupon = coupon
      self.currency = currency
    }
  }

  /// The build string.
  public static let appBuild = "3.0 (300)"

  /// The integer purchase ids saved by 1.0 and 2.0 and the UUIDs the server gave them in 3.0.
  public static let purchaseIDs: [JSONValue: JSONValue] = [
    .integer(42): .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
    .integer(43): .string("0F2C5A38-7D41-4C1B-9C0E-2B6F1D3A4E5B"),
  ]

  /// The UUID that purchase 42 got (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`).
  public static let purchase42 = UUID(
    uuid: (
      0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F
    ))

  /// The registry of 3.0.
  public static func registry() -> RouteRegistry {
    RouteRegistry(schemaVersion: 3)
      .registering(Tab.self, tag: "Shop.Tab", examples: Tab.allCases)
      .registering(
        Destination.self, tag: "Shop.Destination", version: 3,
        aliases: [_typeName(Destination.self, qualified: true)],
        migrations: [
          RouteMigration(from: 1, ShopRelease2.fromRelease1),
          RouteMigration(from: 2, [.mapValues(case: "purchase", field: "id", table: purchaseIDs)]),
        ],
        examples: [
          .category(name: "Shoes"), .product(id: 1, variant: "standard"),
          .purchase(id: purchase42), .profile(accountId: 1),
        ]
      )
      .registering(
        Wallet.self, tag: "Shop.Wallet", aliases: [_typeName(Wallet.self, qualified: true)],
        examples: [.giftCard(code: "GIFT"), .card(last4: "4242")]
      )
      .registering(
        Checkout.self, tag: "Shop.Checkout", version: 2,
        migrations: [
          RouteMigration(from: 1, [.addField(case: nil, name: "currency", default: .string("EUR"))])
        ])
  }

  /// The restorer of 3.0.
  public static var restorer: Restorer { Restorer(registry: registry()) }

  /// The scenes 3.0 saves: an iPhone on the new wallet tab, an iPad whose split view selects a
  /// purchase with the sidebar hidden.
  public static func scenes() -> [ExampleShop.Scene] {
    let registry = registry()
    let metadata = SnapshotMetadata(
      registry: registry, appBuild: appBuild, savedAt: ExampleShop.savedAt)
    let purchase = Destination.purchase(id: purchase42)
    let iphone = SceneSnapshot(
      metadata: metadata,
      stacks: [
        "shop": registry.records(for: [Destination.category(name: "Hats")]),
        "orders": registry.records(for: [purchase]),
        "wallet": registry.records(for: [Wallet.giftCard(code: "G-200")]),
      ],
      selectedTab: registry.record(for: Tab.wallet),
      sheet: registry.record(for: Checkout(cartItems: 1, currency: "CHF")))
    let ipad = SceneSnapshot(
      metadata: metadata,
      stacks: [
        "orders": registry.records(for: [purchase]),
        "shop": registry.records(for: [Destination.product(id: 9, variant: "brown")]),
      ],
      selectedTab: registry.record(for: Tab.orders),
      split: SplitViewSnapshot(
        sidebarSelection: registry.record(for: Tab.orders),
        contentSelection: registry.record(for: purchase),
        columnVisibility: .detailOnly, preferredCompactColumn: .detail))
    return [
      ExampleShop.Scene(name: "iphone", snapshot: iphone),
      ExampleShop.Scene(name: "ipad", snapshot: ipad),
    ]
  }
}
