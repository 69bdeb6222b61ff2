import ExampleShop
import Foundation
import Testing
import Waypoint
import WaypointSQLite
import WaypointTesting

@Suite("Test kit: the outcome records an app would send")
struct OutcomeKitTests {
  @Test("restoring 1.0's fixtures under 3.0 drops nothing but faq, on the records themselves")
  func releaseOutcomes() throws {
    let folder = try temporaryFolder()
    let v1 = DemoApp.V1.registry()
    var release = FrozenRelease("1.0", registry: v1)
    release.add(
      "account",
      snapshot: SceneBuilder(registry: v1)
        .stack("account", DemoApp.V1.Route.profile(userId: 12), DemoApp.V1.Route.faq).snapshot)
    release.add(
      "shop",
      snapshot: SceneBuilder(registry: v1).stack("shop", DemoApp.V1.Route.category(name: "Shoes"))
        .snapshot)
    try release.record(in: folder, restoringWith: Restorer(registry: v1))

    let outcomes = try WaypointAssert.releaseOutcomes(
      in: folder, with: Restorer(registry: DemoApp.V3.registry()), appBuild: "3.0 (300)")
    #expect(outcomes.keys.sorted() == ["1.0"])
    let records = try #require(outcomes["1.0"])
    #expect(records.keys.sorted() == ["account", "shop"])
    for record in records.values {
      #expect(record.appBuild == "3.0 (300)")
      #expect(record.routeSchemaVersion == 3)
      for item in record.items where item.kind == .dropped {
        #expect(item.reason == "removedCase")
      }
    }
    #expect(records["account"]?.outcome == .partial)
    #expect(
      records["account"]?.items.filter { $0.kind == .dropped }.map(\.count) == [1])
    #expect(records["shop"]?.items.allSatisfy { $0.kind == .migrated } == true)
  }

  @Test("a relaunch keeps each restore's record, in the simulator and in the store")
  func relaunchOutcomes() throws {
    var device = try RelaunchSimulator()
    defer { device.removeFiles() }
    device.appBuild = "3.0"
    let v1 = DemoApp.V1.registry()
    try device.save(
      SceneBuilder(registry: v1).stack("account", DemoApp.V1.Route.faq).snapshot, scene: "main")
    let v3 = Restorer(registry: DemoApp.V3.registry())
    _ = try device.restore(scene: "main", with: v3)
    _ = try device.restore(scene: "main", with: v3)
    #expect(device.outcomes.count == 2)
    #expect(device.outcomes.first?.outcome == .root)
    #expect(device.outcomes.first?.items.map(\.reason) == ["removedCase"])
    #expect(device.outcomes.allSatisfy { $0.appBuild == "3.0" })
    let kept = try device.launch { store throws(WaypointTestFailure) in
      do {
        return try store.restoreOutcomes().map(\.record)
      } catch {
        throw WaypointTestFailure("\(error)")
      }
    }
    #expect(kept == device.outcomes.map(\.jsonLine))
  }
}
