import ExampleShop
import Foundation
import Testing
import Waypoint
import WaypointTesting

@Suite("Scene builder")
struct SceneBuilderTests {
  @Test("a builder from app values makes the snapshot the demo's 1.0 saves, byte for byte")
  func matchesHandBuiltSnapshot() throws {
    typealias R = DemoApp.V1.Route
    let built = SceneBuilder(
      registry: DemoApp.V1.registry(), appBuild: DemoApp.appBuild,
      savedAt: Date(timeIntervalSince1970: 5)
    )
    .stack("shop", R.category(name: "Shoes"), R.product(id: 7), R.product(id: 3))
    .stack("orders", R.order(id: 42), R.order(id: 17))
    .stack("account", R.profile(userId: 12), R.faq, R.settings)
    .stack("search", DemoApp.V1.Search(query: "Red Boots"))
    .tab(DemoApp.V1.Tab.orders)
    .split(sidebar: DemoApp.V1.Tab.shop, columns: .doubleColumn, compactColumn: .detail)
    .sheet(DemoApp.V1.Promo(code: "WELCOME10"))
    var expected = DemoApp.savedScene()
    expected.metadata.savedAt = Date(timeIntervalSince1970: 5)
    #expect(built.snapshot == expected)
    #expect(built.encoded == expected.encoded())
    #expect(try built.checked() == expected)
  }

  @Test("raw triples are stored as given and restore as the app would restore them")
  func rawTriples() {
    let built = SceneBuilder(registry: DemoApp.V3.registry())
      .stack(
        "account", raw: ("DemoApp.Route", #"{"profile":{"userId":12}}"#, 1),
        ("DemoApp.Route", #"{"faq":{}}"#, 1)
      )
      .tab(raw: ("DemoApp.Tab", #""orders""#, 1))
      .sheet(raw: ("DemoApp.Promo", #"{"code":"WELCOME10"}"#, 1))
    #expect(
      built.snapshot.stacks["account"]?.map(\.json) == [
        #"{"profile":{"userId":12}}"#, #"{"faq":{}}"#,
      ])
    let scene = Restorer(registry: DemoApp.V3.registry()).restore(built.snapshot)
    #expect(scene.report.outcome == .partial)
    #expect(
      scene.stack("account").map(\.value) as? [DemoApp.V3.Destination]
        == [.profile(accountId: 12, tab: "overview")])
    #expect(scene.selectedTab?.value(as: DemoApp.V3.Tab.self) == .orders)
    #expect(scene.report.dropped.map(\.location) == [.stack("account", index: 1), .sheet])
  }

  @Test("the main stack, the schema version and the fixed date are set by the builder")
  func mainStackAndMetadata() {
    let built = SceneBuilder(registry: DemoApp.V3.registry())
      .main(DemoApp.V3.Destination.settings)
      .schemaVersion(9)
      .appBuild("3.1")
    #expect(built.snapshot.stacks.keys.sorted() == [SceneSnapshot.mainStackName])
    #expect(built.snapshot.metadata.routeSchemaVersion == 9)
    #expect(built.snapshot.metadata.appBuild == "3.1")
    #expect(built.snapshot.metadata.savedAt == SceneBuilder.fixedDate)
    let scene = Restorer(registry: DemoApp.V3.registry()).restore(built.snapshot)
    #expect(scene.report.dropped.first?.reason.code == .newerRouteSchema)
  }

  @Test("an array of routes given to stack or main is its elements, not one route")
  func arrayOfRoutes() {
    typealias R = DemoApp.V1.Route
    let routes: [R] = [.category(name: "Shoes"), .product(id: 7)]
    let registry = DemoApp.V1.registry()
    let expected = registry.records(for: routes)
    #expect(expected.count == 2)
    #expect(
      SceneBuilder(registry: registry).stack("shop", routes).snapshot.stacks["shop"] == expected)
    #expect(
      SceneBuilder(registry: registry).main(routes).snapshot.stacks[SceneSnapshot.mainStackName]
        == expected)
  }

  @Test("an unregistered value fails the save's check with a message naming it")
  func unregisteredValue() {
    struct Unknown: Codable, Hashable, Sendable { var x = 1 }
    let builder = SceneBuilder(registry: DemoApp.V3.registry()).main(Unknown())
    let failure = #expect(throws: WaypointTestFailure.self) { try builder.checked() }
    #expect(failure?.message.hasPrefix("the built snapshot cannot be saved: ") == true)
    #expect(failure?.message.contains("Unknown") == true)
  }
}
