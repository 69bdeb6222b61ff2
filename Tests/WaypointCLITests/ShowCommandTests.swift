import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointCLI

@Suite("waypoint show")
struct ShowCommandTests {
  let directory = TemporaryDirectory()

  @Test("a tab scene with a split view is drawn as a tree, stacks root to top")
  func tabScene() async throws {
    let path = try exampleStore(directory)
    let result = await run(["--db", path, "show", "tablet"])
    #expect(result.status == 0)
    #expect(result.err.isEmpty)
    let uuid = orderID.uuidString
    #expect(
      result.out == """
        scene tablet, snapshot 3 (latest)
        ├── saved 2026-11-18T11:06:40Z by build 2.0 (7), route schema 1, format 1, \
        \(try #require(try SnapshotStore(path: path, access: .readOnly).history(scene: "tablet").first?.byteCount)) B
        ├── tabs, selected: Shop.Tab "orders"
        │   ├── stack orders (selected tab): 1 route, root to top
        │   │   └── [0] Shop.Route {"order":{"id":"\(uuid)"}}
        │   └── stack shop: 2 routes, root to top
        │       ├── [0] Shop.Route {"product":{"id":7}}
        │       └── [1] Shop.Route {"product":{"id":8}}
        ├── split view, columns: doubleColumn, preferred compact column: detail
        │   ├── sidebar selection: Shop.Tab "shop"
        │   ├── content selection: none
        │   └── detail column, stack detail: 1 route, root to top
        │       └── [0] Shop.Route {"settings":{}}
        └── sheet: Shop.Route {"profile":{"name":"Ada Lovelace"}}
        """)
  }

  @Test("--snapshot shows an earlier snapshot; a quarantined one shows why it is aside")
  func earlierAndQuarantined() async throws {
    let path = try exampleStore(directory)
    let earlier = await run(["--db", path, "show", "phone", "--snapshot", "1"])
    #expect(earlier.status == 0)
    #expect(earlier.out.hasPrefix("scene phone, snapshot 1\n"))
    #expect(
      earlier.out.hasSuffix(
        "└── stack main: 1 route, root to top\n    └── [0] Shop.Route {\"product\":{\"id\":1}}"))
    let broken = await run(["--db", path, "show", "broken"])
    #expect(broken.out.contains("├── quarantined (unrestorable) since "))
    #expect(broken.out.contains(": stack main[0] Gone.Type: unknown tag\n"))
  }

  @Test("--json gives stacks root first, selections, split and sheet, with null for what is absent")
  func json() async throws {
    let path = try exampleStore(directory)
    let tablet = try await run(["--db", path, "--json", "show", "tablet"]).json()
    #expect(tablet["scene"] as? String == "tablet")
    #expect(tablet["isLatest"] as? Bool == true)
    let stacks = try #require(tablet["stacks"] as? [[String: Any]])
    #expect(stacks.map { $0["name"] as? String } == ["detail", "orders", "shop"])
    let shop = try #require(stacks[2]["routes"] as? [[String: Any]])
    #expect(
      shop.map { $0["json"] as? String } == [#"{"product":{"id":7}}"#, #"{"product":{"id":8}}"#])
    #expect(shop.first?["tag"] as? String == "Shop.Route")
    #expect(shop.first?["version"] as? Int == 1)
    let split = try #require(tablet["split"] as? [String: Any])
    #expect(split["columnVisibility"] as? String == "doubleColumn")
    #expect(split["preferredCompactColumn"] as? String == "detail")
    #expect(split["contentSelection"] is NSNull)
    #expect((tablet["selectedTab"] as? [String: Any])?["json"] as? String == #""orders""#)
    let phone = try await run(["--db", path, "--json", "show", "phone", "--snapshot", "1"]).json()
    #expect(phone["isLatest"] as? Bool == false)
    #expect(phone["split"] is NSNull)
    #expect(phone["sheet"] is NSNull)
  }

  @Test(
    "an unknown scene or snapshot, or a bad id, is an error naming it",
    arguments: [
      (["show", "nope"], 65, "no scene 'nope'"),
      (["show", "phone", "--snapshot", "3"], 65, "no snapshot 3 in scene phone"),
      (["show", "phone", "--snapshot", "x"], 64, "invalid value 'x' for --snapshot"),
      (["show", "phone", "--snapshot", "0"], 64, "invalid value '0' for --snapshot"),
    ] as [([String], Int32, String)])
  func notFound(arguments: [String], status: Int32, message: String) async throws {
    let path = try exampleStore(directory)
    let result = await run(["--db", path] + arguments)
    #expect(result.status == status)
    #expect(result.out.isEmpty)
    #expect(result.err.contains(message))
  }

  @Test("a misspelt scene id gets a suggestion from the store's scenes")
  func suggestion() async throws {
    let path = try exampleStore(directory)
    let result = await run(["--db", path, "show", "phnoe"])
    #expect(result.status == 65)
    #expect(result.err == "waypoint show: \(path): no scene 'phnoe' (did you mean 'phone'?)")
  }

  @Test("a document from a newer format cannot be drawn: exit 65 naming the snapshot")
  func newerFormat() async throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    try store.save(try stackSnapshot([.settings]), scene: "s")
    let newer = Data(#"{"format":9,"savedAt":"2026-11-29T12:00:00Z"}"#.utf8)
    #expect(rawSQL(path, "UPDATE snapshot SET document = ?", blob: newer) == 0)
    let result = await run(["--db", path, "show", "s"])
    #expect(result.status == 65)
    #expect(
      result.err
        == "waypoint show: \(path): snapshot 1: snapshot format 9 is newer than this build reads (up to 1)"
    )
  }

  @Test("a note per route is the place show --manifest will fill")
  func annotations() throws {
    let snapshot = try stackSnapshot([.product(id: 1), .settings])
    let info = try #require(
      try {
        let path = directory.path()
        try SnapshotStore(path: path).save(snapshot, scene: "s")
        return try SnapshotStore(path: path, access: .readOnly).history(scene: "s").first
      }())
    var tree = SceneTree(style: Style(isEnabled: false))
    tree.annotate = { location, _ in location == .stack("main", index: 1) ? "dropped: test" : nil }
    let lines = tree.tree(snapshot, info: info, isLatest: true).render()
    #expect(lines.last == "    └── [1] Shop.Route {\"settings\":{}}  dropped: test")
  }
}
