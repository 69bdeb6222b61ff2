import ExampleShop
import Foundation
import Testing
import Waypoint
import WaypointManifest

@testable import WaypointCLI
@testable import WaypointSQLite

@Suite("waypoint demo")
struct DemoCommandTests {
  let directory = TemporaryDirectory()

  @Test("the demo's registries, both versions, are built without a registration mistake")
  func demoRegistries() throws {
    try DemoApp.V1.registry().check()
    try DemoApp.V3.registry().check()
    // The scene version 1.0 saves holds only routes the registry could record.
    try DemoApp.savedScene().check()
  }

  @Test(
    "a store error maps to the exit status its code calls for",
    arguments: [
      (StoreError.busy(path: "/s"), ExitCode.busy),
      (.replaced(path: "/s"), .busy),
      (.cannotOpen(path: "/s", detail: "no such file"), .noInput),
      (.corrupt(path: "/s", detail: "malformed"), .dataError),
      (.newerSchema(path: "/s", found: 9, supported: 3), .dataError),
      (.snapshotNotFound(scene: "A", id: 1), .dataError),
      (.diskFull(path: "/s"), .ioError),
    ])
  func exitStatuses(error: StoreError, status: ExitCode) {
    #expect(CLIError(error).exitCode == status)
  }

  @Test("the demo saves a snapshot, restores it under the updated types and reports each drop")
  func demo() async throws {
    let output = directory.url.appendingPathComponent("demo")
    let result = await run(["demo", "--output", output.path])
    #expect(result.status == 0)
    #expect(result.err.isEmpty)
    let saved = try Data(contentsOf: output.appendingPathComponent("waypoint.sqlite"))
    #expect(saved.prefix(15) == Data("SQLite format 3".utf8))
    // Version 1.0's navigator saved the first burst, then the rest at the flush: the link it
    // opened (order 17 on the orders tab), the split view and the sheet are in the second save.
    #expect(result.out.contains("navigator: saved snapshot 1\n"))
    #expect(result.out.contains("navigator: opened shopdemo://orders/17\n"))
    #expect(result.out.contains("navigator: saved snapshot 2\n"))
    #expect(result.out.contains("link back to order 42, for sharing: shopdemo://orders/42\n"))
    let store = try SnapshotStore(
      path: output.appendingPathComponent("waypoint.sqlite").path, access: .readOnly)
    let history = try store.history(scene: DemoCommand.phoneScene)
    #expect(history.map(\.id) == [2, 1])
    let document = try #require(try store.snapshot(id: 2)?.document.data)
    let session = try SceneSnapshot(decoding: document)
    let expected = DemoApp.savedScene()
    #expect(session.stacks == expected.stacks)
    #expect(session.selectedTab == expected.selectedTab)
    #expect(session.split == expected.split)
    #expect(session.sheet == expected.sheet)
    #expect(session.metadata.appBuild == DemoApp.appBuild)
    #expect(result.out.contains("quarantined snapshot 3 of ipad-window: unrestorable"))
    #expect(result.out.contains("stack shop: root → category(name: \"Shoes\") → product(id: 7)\n"))
    #expect(
      result.out.contains("stack account: root → profile(accountId: 12, tab: \"overview\")\n"))
    #expect(
      result.out.contains(
        "stack orders: root → purchase(id: E621E1F8-C36C-495A-93FC-0C247A3E6E5F)\n"))
    #expect(
      result.out.contains(
        "dropped stack shop[2] DemoApp.Route: rejected: product 3 was discontinued"))
    #expect(
      result.out.contains(
        "dropped stack account[1] DemoApp.Route: case faq was removed in version 2"))
    #expect(
      result.out.contains("failed at mapValues(purchase.id, 2 values): no mapping for id = 17"))
    #expect(result.out.contains("dropped sheet DemoApp.Promo: unknown tag"))
    #expect(result.out.contains("outcome: partial"))
    #expect(result.out.contains("stack search: root → Search(query: \"red boots\")\n"))
    #expect(
      result.out.contains(
        "stack search[0] DemoApp.Search: needs the app: migration of DemoApp.Search"))
    #expect(
      result.out.contains(
        "stack account[1] DemoApp.Route: dropped: case faq was removed in version 2"))
    let manifest = try RouteManifest(
      decoding: Data(contentsOf: output.appendingPathComponent("routes.manifest.json")))
    #expect(manifest.route(named: "DemoApp.Route")?.tag == "DemoApp.Destination")
  }

  @Test("the demo says where it left its store, as the other commands name a store")
  func saysWhere() async throws {
    let output = directory.url.appendingPathComponent("demo")
    let store = output.appendingPathComponent("waypoint.sqlite").path
    let result = await run(["demo", "--output", output.path])
    // The tests run from .build, as `swift run` does.
    #expect(
      result.out.hasSuffix(
        "\n\nStore: \(store)\nInspect it: swift run waypoint --db \(store) scenes"))
    // And the command it suggests works.
    let scenes = await run(["--db", store, "scenes"])
    #expect(scenes.status == 0)
    #expect(scenes.out.contains("iphone-window"))
  }

  @Test("--json gives the store and its scenes, and nothing else on stdout")
  func json() async throws {
    let output = directory.url.appendingPathComponent("demo")
    let result = await run(["demo", "--output", output.path, "--json"])
    #expect(result.status == 0)
    let document = try result.json()
    #expect(document["store"] as? String == output.appendingPathComponent("waypoint.sqlite").path)
    let scenes = try #require(document["scenes"] as? [[String: Any]])
    #expect(scenes.map { $0["id"] as? String } == ["ipad-window", "iphone-window"])
  }

  @Test("the demo reports an unwritable output directory as an I/O error")
  func unwritable() async throws {
    let file = directory.url.appendingPathComponent("file")
    try Data("x".utf8).write(to: file)
    let result = await run(["demo", "--output", file.appendingPathComponent("sub").path])
    #expect(result.status == 74)
    #expect(result.err.hasPrefix("waypoint demo: \(file.appendingPathComponent("sub").path): "))
    #expect(!result.err.dropFirst().contains("\n"))
  }

  @Test("the demo has no store to name: --db is a usage error")
  func noDB() async {
    let result = await run(["demo", "--db", "x.sqlite"])
    #expect(result.status == 64)
    #expect(result.err.hasPrefix("waypoint demo: 'demo' does not use a store"))
  }
}
