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
  /// purchase with the sidebar hidden, and the scene a deep link to a product opened.
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
    var scenes = [
      ExampleShop.Scene(name: "iphone", snapshot: iphone),
      ExampleShop.Scene(name: "ipad", snapshot: ipad),
    ]
    if let url = URL(string: "shop://product/9?variant=brown"),
      let linked = scene(forDeepLink: url)
    {
      scenes.append(ExampleShop.Scene(name: "deeplink", snapshot: linked))
    }
    return scenes
  }

  /// The scene a deep link opens, as 3.0 saves it: `shop://product/ID?variant=NAME` (the shop tab,
  /// its category and the product), `shop://orders/UUID` (the orders tab on the purchase) or
  /// `shop://wallet/CODE` (the wallet tab on a gift card).
  ///
  /// A link that is not one of these (another scheme, an unknown host, a missing, non-numeric,
  /// out-of-range or malformed id, extra path parts, more than 200 characters of a code or
  /// variant) opens nothing: `nil`, and the app stays where it is. Nothing in a link traps.
  public static func scene(forDeepLink url: URL) -> SceneSnapshot? {
    guard url.scheme == "shop", let host = url.host else { return nil }
    let parts = url.path.split(separator: "/").map(String.init)
    guard parts.count == 1, let value = parts.first, !value.isEmpty, value.count <= 200 else {
      return nil
    }
    let registry = registry()
    var snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(
        registry: registry, appBuild: appBuild, savedAt: ExampleShop.savedAt))
    switch host {
    case "product":
      guard let id = Int(value), id > 0 else { return nil }
      let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
      let variant = query.first { $0.name == "variant" }?.value ?? "standard"
      guard !variant.isEmpty, variant.count <= 200 else { return nil }
      snapshot.stacks["shop"] = registry.records(for: [
        Destination.category(name: "Linked"), Destination.product(id: id, variant: variant),
      ])
      snapshot.selectedTab = registry.record(for: Tab.shop)
    case "orders":
      guard let id = UUID(uuidString: value) else { return nil }
      snapshot.stacks["orders"] = registry.records(for: [Destination.purchase(id: id)])
      snapshot.selectedTab = registry.record(for: Tab.orders)
    case "wallet":
      snapshot.stacks["wallet"] = registry.records(for: [Wallet.giftCard(code: value)])
      snapshot.selectedTab = registry.record(for: Tab.wallet)
    default:
      return nil
    }
    return snapshot
  }
}
