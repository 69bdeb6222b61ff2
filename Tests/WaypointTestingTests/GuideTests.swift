// The code of Docs/Testing.md, verbatim: GuideCodeTests checks that every ```swift block of the
// guide appears here, and these tests run it. The frozen release it records is committed in
// Fixtures/.

import Foundation
import Testing
import Waypoint
import WaypointTesting

enum ShopTab: String, Codable, Hashable, Sendable { case shop, orders, account }

enum ShopRoute: Codable, Hashable, Sendable {
  case category(name: String)
  case product(id: Int)
  case order(id: Int)
  case settings
}

enum ShopRoutes {
  static func registry() -> RouteRegistry {
    RouteRegistry(schemaVersion: 1)
      .registering(ShopTab.self, examples: [.shop, .orders, .account])
      .registering(
        ShopRoute.self,
        examples: [.category(name: "Shoes"), .product(id: 1), .order(id: 1), .settings])
  }

  static var restorer: Restorer { Restorer(registry: registry()) }
}

/// The frozen releases, committed next to this file.
let fixturesFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().appendingPathComponent("Fixtures")

@Suite("Protect the shop's saved navigation")
struct ShopNavigationTests {
  /// Records this release's scenes, with WAYPOINT_RECORD_FIXTURES=1; commit the folder it writes.
  func freezeThisRelease() throws {
    let registry = ShopRoutes.registry()
    let ipad = SceneBuilder(registry: registry)
      .stack("shop", ShopRoute.category(name: "Shoes"), ShopRoute.product(id: 7))
      .stack("orders", ShopRoute.order(id: 42))
      .tab(ShopTab.orders)
      .split(sidebar: ShopTab.shop, columns: .doubleColumn, compactColumn: .detail)
      .sheet(ShopRoute.settings)
    var release = FrozenRelease("1.0", registry: registry)
    release.add("ipad", snapshot: ipad.snapshot)
    release.add(
      "phone", snapshot: SceneBuilder(registry: registry).main(ShopRoute.settings).snapshot)
    let recorded = FileManager.default.fileExists(
      atPath: fixturesFolder.appendingPathComponent("1.0").path)
    if WaypointAssert.isRecordingFixtures, !recorded {
      try release.record(in: fixturesFolder, restoringWith: ShopRoutes.restorer)
    }
  }

  @Test("every frozen release still restores as expected")
  func everyReleaseStillRestores() throws {
    try freezeThisRelease()
    assertReleasesRestore(in: fixturesFolder, with: ShopRoutes.restorer)
  }

  @Test("the route manifest is the committed one")
  func manifestIsCommitted() {
    assertManifestMatches(
      fixturesFolder.appendingPathComponent("routes.manifest.json"),
      registry: ShopRoutes.registry(),
      release: "1.0")
  }

  @Test("routes round-trip through the store, NavigationPath and the manifest")
  func routesRoundTrip() {
    let routes: [ShopRoute] = [
      .category(name: "Shoes"), .product(id: 7), .order(id: 42), .settings,
    ]
    assertRoundTrips(routes, restoringWith: ShopRoutes.restorer)
  }

  @Test("a scene survives relaunches, a crash loop and a discard")
  func relaunches() {
    let scene = SceneBuilder(registry: ShopRoutes.registry())
      .stack("shop", ShopRoute.product(id: 7))
      .tab(ShopTab.shop)
      .snapshot
    assertSurvivesRelaunch(scene, restoringWith: ShopRoutes.restorer)
    assertCrashLoopEndsAtRoot(scene, restoringWith: ShopRoutes.restorer)
    assertDiscardedSceneRestoresToRoot(scene, restoringWith: ShopRoutes.restorer)
  }

  @Test("an update between two launches keeps the scene, and records the restore")
  func updateBetweenLaunches() throws {
    var device = try RelaunchSimulator()  // a device with no store yet, in a temporary folder
    defer { device.removeFiles() }
    let saved = SceneBuilder(registry: ShopRoutes.registry())
      .stack("shop", ShopRoute.category(name: "Shoes"), ShopRoute.product(id: 7))
      .snapshot
    try device.save(saved, scene: "phone")  // one launch: the installed build saves
    // The next launch, with the new build's restorer, confirms once the UI is up.
    let restoration = try device.restore(scene: "phone", with: ShopRoutes.restorer)
    #expect(restoration.report.outcome == .restored)
    #expect(device.outcomes.map(\.outcome) == [.restored])  // what analytics would receive
  }
}
