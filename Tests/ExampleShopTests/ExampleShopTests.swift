import ExampleShop
import Foundation
import Testing
import Waypoint
import WaypointManifest
import WaypointTesting

/// The shop's frozen releases and committed manifest, next to this file.
let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("Fixtures")

/// One release's code: its registry and the scenes it saves.
struct Release: Sendable, CustomTestStringConvertible {
  var name: String
  var registry: @Sendable () -> RouteRegistry
  var scenes: @Sendable () -> [ExampleShop.Scene]
  var testDescription: String { name }

  var restorer: Restorer { Restorer(registry: registry()) }

  static let all = [
    Release(name: "1.0", registry: ShopRelease1.registry, scenes: ShopRelease1.scenes),
    Release(name: "2.0", registry: ShopRelease2.registry, scenes: ShopRelease2.scenes),
    Release(name: "3.0", registry: ShopRelease3.registry, scenes: ShopRelease3.scenes),
  ]

  /// The release as the kit records it, from this release's own code.
  var frozen: FrozenRelease {
    var release = FrozenRelease(name, registry: registry())
    for scene in scenes() { release.add(scene.name, snapshot: scene.snapshot) }
    return release
  }
}

/// The fixture file of `scene` in `release`.
func fixture(_ release: String, _ scene: String) -> URL {
  fixtures.appendingPathComponent(release).appendingPathComponent("\(scene).snapshot.json")
}

@Suite("The example shop's three releases, protected by WaypointTesting")
struct ExampleShopTests {
  /// `WAYPOINT_RECORD_FIXTURES=1 swift test --filter ExampleShop` records a release whose folder is
  /// missing, from that release's code (then releasesRestore re-records the expectations under
  /// the current release, on purpose).
  @Test("each release's fixtures are what that release's code saves, and its manifest")
  func fixturesAreTheReleasesCode() throws {
    for release in Release.all {
      let folder = fixtures.appendingPathComponent(release.name)
      if WaypointAssert.isRecordingFixtures, !FileManager.default.fileExists(atPath: folder.path) {
        try release.frozen.record(in: fixtures, restoringWith: release.restorer)
      }
      for scene in release.scenes() {
        let committed = try Data(contentsOf: fixture(release.name, scene.name))
        #expect(committed == scene.snapshot.encoded(), "\(release.name)/\(scene.name)")
      }
      let manifest = try Data(contentsOf: folder.appendingPathComponent("manifest.json"))
      #expect(manifest == RouteManifest(registry: release.registry()).encoded(), "\(release.name)")
      #expect(release.registry().problems.isEmpty)
    }
  }

  @Test("every release still restores under release 3 with its recorded outcome")
  func everyReleaseRestores() {
    assertReleasesRestore(in: fixtures, with: ShopRelease3.restorer)
  }

  @Test("release 3's manifest is the committed one")
  func manifestIsCommitted() {
    assertManifestMatches(
      fixtures.appendingPathComponent("routes.manifest.json"), registry: ShopRelease3.registry(),
      release: "3.0")
  }

  @Test(
    "1.0's iPhone restores partly under 3.0: the removed FAQ is dropped by name, the rest migrates")
  func release1IPhone() throws {
    let data = try Data(contentsOf: fixture("1.0", "iphone"))
    let scene = ShopRelease3.restorer.restore(encoded: data)
    #expect(scene.report.outcome == .partial)
    #expect(scene.report.dropped.map(\.location.description) == ["stack account[1]"])
    #expect(scene.report.dropped.map(\.reason.code) == [.removedCase])
    typealias Destination = ShopRelease3.Destination
    #expect(
      try scene.routes(Destination.self, in: "shop")
        == [.category(name: "Shoes"), .product(id: 7, variant: "standard")])
    #expect(
      try scene.routes(Destination.self, in: "orders")
        == [.purchase(id: try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")))])
    #expect(try scene.routes(Destination.self, in: "account") == [.profile(accountId: 12)])
    #expect(scene.selectedTab?.value(as: ShopRelease3.Tab.self) == .account)
    #expect(
      scene.sheet?.value(as: ShopRelease3.Checkout.self)
        == ShopRelease3.Checkout(cartItems: 2, currency: "EUR"))
  }

  @Test("1.0's iPad restores whole under 3.0: the gift card moved to Wallet, the split view kept")
  func release1IPad() throws {
    let data = try Data(contentsOf: fixture("1.0", "ipad"))
    let scene = ShopRelease3.restorer.restore(encoded: data)
    #expect(scene.report.outcome == .restored)
    let account = scene.stack("account")
    #expect(account.count == 2)
    #expect(account.last?.value(as: ShopRelease3.Wallet.self) == .giftCard(code: "G-100"))
    #expect(account.last?.record.tag == "Shop.Wallet")
    #expect(scene.sidebarSelection?.value(as: ShopRelease3.Tab.self) == .shop)
    #expect(
      scene.contentSelection?.value(as: ShopRelease3.Destination.self) == .category(name: "Boots"))
    #expect(scene.columnVisibility == .doubleColumn)
    #expect(scene.preferredCompactColumn == .content)
  }

  @Test("every release's committed expectations name the outcome under release 3")
  func expectations() throws {
    let outcomes = try Release.all.flatMap { release in
      try release.scenes().map { scene in
        let data = try Data(contentsOf: fixture(release.name, scene.name))
        return "\(release.name)/\(scene.name): "
          + ShopRelease3.restorer.restore(encoded: data).report.outcome.rawValue
      }
    }
    #expect(
      outcomes == [
        "1.0/iphone: partial", "1.0/ipad: restored", "2.0/iphone: restored",
        "2.0/ipad: restored", "3.0/iphone: restored", "3.0/ipad: restored",
        "3.0/deeplink: restored",
      ])
    let expectations = try String(
      contentsOf: fixtures.appendingPathComponent("1.0/expectations.json"), encoding: .utf8)
    #expect(expectations.contains("\"removedCase\""))
    #expect(expectations.contains("\"partial\""))
  }

  @Test("a purchase id the server did not renumber fails its migration and is dropped by name")
  func unmappedPurchase() {
    let registry = ShopRelease1.registry()
    let snapshot = SceneBuilder(registry: registry)
      .stack("orders", ShopRelease1.Route.order(id: 99))
      .snapshot
    let scene = ShopRelease3.restorer.restore(snapshot)
    #expect(scene.report.dropped.map(\.reason.code) == [.migrationFailed])
    #expect(scene.stack("orders").isEmpty)
  }

  @Test("the manifest drift between releases names each change, and none loses routes")
  func drift() throws {
    func manifest(_ release: String) throws -> RouteManifest {
      try RouteManifest(
        decoding: Data(contentsOf: fixtures.appendingPathComponent("\(release)/manifest.json")))
    }
    let current = RouteManifest(registry: ShopRelease3.registry())
    let from1 = ManifestDiff(committed: try manifest("1.0"), current: current, release: "1.0")
    #expect(!from1.losesRoutes)
    #expect(
      from1.orderedFindings().map(\.text) == [
        "tag `Shop.Checkout`: shape changed with version 2 (its migrations carry routes saved by "
          + "1.0; the round-trip and frozen-release checks prove them)",
        "tag `Shop.Route` (now `Shop.Destination`): shape changed with version 3 (its migrations "
          + "carry routes saved by 1.0; the round-trip and frozen-release checks prove them)",
        "tag `Shop.Tab`: value `wallet` added",
        "tag `Shop.Wallet` added",
      ])
    let from2 = ManifestDiff(committed: try manifest("2.0"), current: current, release: "2.0")
    #expect(!from2.losesRoutes)
    #expect(from2.findings().count == 3)
    let same = ManifestDiff(committed: try manifest("3.0"), current: current, release: "3.0")
    #expect(same.findings().isEmpty)
  }

  @Test("a migration step taken out at the same version is a difference, never \"no difference\"")
  func changedMigrationSameVersion() throws {
    let committed = RouteManifest(registry: ShopRelease3.registry())
    var routes = committed.routes
    let index = try #require(routes.firstIndex { $0.migrations.contains { !$0.steps.isEmpty } })
    let migration = try #require(routes[index].migrations.firstIndex { !$0.steps.isEmpty })
    routes[index].migrations[migration].steps.removeFirst()
    let edited = try RouteManifest(schemaVersion: committed.schemaVersion, routes: routes)
    let diff = ManifestDiff(committed: committed, current: edited, release: "3.0")
    #expect(!diff.losesRoutes)
    let route = routes[index]
    #expect(
      diff.findings().map(\.text) == [
        "tag `\(route.tag)`: its migrations from versions before \(route.version) changed: routes "
          + "saved at those versions migrate differently (the frozen-release checks prove them)"
      ])
    #expect(ManifestDiff(committed: committed, current: committed, release: "3.0").findings() == [])
  }

  @Test("release 3 without its migrations would lose 1.0's routes, and the diff says so")
  func forgottenMigration() throws {
    let old = try RouteManifest(
      decoding: Data(contentsOf: fixtures.appendingPathComponent("1.0/manifest.json")))
    let careless = RouteRegistry(schemaVersion: 3)
      .registering(ShopRelease3.Tab.self, tag: "Shop.Tab", examples: ShopRelease3.Tab.allCases)
      .registering(
        ShopRelease3.Destination.self, tag: "Shop.Destination",
        examples: [.category(name: "Shoes"), .profile(accountId: 1)])
    let diff = ManifestDiff(
      committed: old, current: RouteManifest(registry: careless), release: "1.0")
    #expect(diff.losesRoutes)
    #expect(
      diff.orderedFindings().filter(\.losesRoutes).map(\.text) == [
        "tag `Shop.Checkout` removed or renamed without alias: routes saved by 1.0 will be dropped",
        "tag `Shop.Route` removed or renamed without alias: routes saved by 1.0 will be dropped",
      ])
  }

  @Test("an update on the device: 1.0 saves, 3.0 restores partly, saves, and relaunches whole")
  func updateAcrossLaunches() throws {
    var device = try RelaunchSimulator()
    defer { device.removeFiles() }
    let old = try #require(ShopRelease1.scenes().first { $0.name == "iphone" })
    try device.save(old.snapshot, scene: "iphone")
    let updated = try device.restore(scene: "iphone", with: ShopRelease3.restorer)
    #expect(updated.scene.report.outcome == .partial)
    #expect(updated.scene.report.dropped.map(\.reason.code) == [.removedCase])
    let current = try #require(ShopRelease3.scenes().first { $0.name == "iphone" })
    try device.save(current.snapshot, scene: "iphone")
    let next = try device.restore(scene: "iphone", with: ShopRelease3.restorer)
    #expect(next.scene.report.outcome == .restored)
    #expect(next.scene.selectedTab?.value(as: ShopRelease3.Tab.self) == .wallet)
    #expect(device.launches == 4)
  }

  @Test("release 3's scenes survive relaunches, crash loops, a downgrade to 2.0 and a discard")
  func relaunches() {
    for scene in ShopRelease3.scenes() {
      assertSurvivesRelaunch(
        scene.snapshot, scene: scene.name, restoringWith: ShopRelease3.restorer)
      assertCrashLoopEndsAtRoot(
        scene.snapshot, scene: scene.name, restoringWith: ShopRelease3.restorer)
      assertSurvivesDowngrade(
        scene.snapshot, scene: scene.name, older: ShopRelease2.restorer,
        newer: ShopRelease3.restorer)
      assertDiscardedSceneRestoresToRoot(
        scene.snapshot, scene: scene.name, restoringWith: ShopRelease3.restorer)
    }
  }

  @Test("release 3's routes round-trip through the store, NavigationPath and the manifest")
  func roundTrips() throws {
    let purchase = try #require(UUID(uuidString: "0F2C5A38-7D41-4C1B-9C0E-2B6F1D3A4E5B"))
    assertRoundTrips(
      [
        ShopRelease3.Destination.category(name: "Hats"), .product(id: 3, variant: "blue"),
        .purchase(id: purchase), .profile(accountId: 5),
      ], restoringWith: ShopRelease3.restorer)
    assertRoundTrips(
      [ShopRelease3.Wallet.giftCard(code: "G"), .card(last4: "0000")],
      restoringWith: ShopRelease3.restorer)
  }

  @Test("a deep link opens its tab and routes, and the scene it saved is a frozen fixture")
  func deepLink() throws {
    let url = try #require(URL(string: "shop://orders/E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    let snapshot = try #require(ShopRelease3.scene(forDeepLink: url))
    let scene = ShopRelease3.restorer.restore(snapshot)
    #expect(scene.report.outcome == .restored)
    #expect(
      try scene.routes(ShopRelease3.Destination.self, in: "orders")
        == [.purchase(id: ShopRelease3.purchase42)])
    #expect(scene.selectedTab?.value(as: ShopRelease3.Tab.self) == .orders)
    let committed = try Data(contentsOf: fixture("3.0", "deeplink"))
    let linked = ShopRelease3.restorer.restore(encoded: committed)
    #expect(
      try linked.routes(ShopRelease3.Destination.self, in: "shop")
        == [.category(name: "Linked"), .product(id: 9, variant: "brown")])
  }

  @Test(
    "a hostile deep link opens nothing",
    arguments: [
      "https://product/9", "shop://product/abc", "shop://product/-1",
      "shop://product/99999999999999999999999", "shop://product/9/10", "shop://orders/42",
      "shop://nowhere/1", "shop://product", "shop://wallet/" + String(repeating: "x", count: 201),
      "shop://product/9?variant=",
    ])
  func hostileDeepLink(link: String) throws {
    let url = try #require(URL(string: link))
    #expect(ShopRelease3.scene(forDeepLink: url) == nil)
  }

  @Test("a 3.0 that forgot to move the gift card fails the frozen releases, naming 1.0's iPad")
  func forgottenMove() {
    typealias Destination = ShopRelease3.Destination
    let careless = RouteRegistry(schemaVersion: 3)
      .registering(ShopRelease3.Tab.self, tag: "Shop.Tab", examples: ShopRelease3.Tab.allCases)
      .registering(
        Destination.self, tag: "Shop.Destination", version: 3,
        migrations: [
          RouteMigration(
            from: 1,
            [
              .renameTag(from: "Shop.Route"), .renameCase(from: "order", to: "purchase"),
              .removeCase("faq"), .renameField(case: "profile", from: "userId", to: "accountId"),
              .addField(case: "product", name: "variant", default: .string("standard")),
            ]),
          RouteMigration(
            from: 2,
            [.mapValues(case: "purchase", field: "id", table: ShopRelease3.purchaseIDs)]),
        ]
      )
      .registering(ShopRelease3.Wallet.self, tag: "Shop.Wallet")
      .registering(
        ShopRelease3.Checkout.self, tag: "Shop.Checkout", version: 2,
        migrations: [
          RouteMigration(from: 1, [.addField(case: nil, name: "currency", default: .string("EUR"))])
        ])
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.releasesRestore(
        in: fixtures, with: Restorer(registry: careless), recordingExpectations: false)
    }
    let message = failure?.message ?? ""
    #expect(message.contains("1.0"))
    #expect(message.contains("ipad"))
    #expect(message.contains("stack account[1]"))
    #expect(message.contains("WAYPOINT_RECORD_FIXTURES=1"))
    #expect(!message.contains("2.0"), "\(message)")
  }
}
