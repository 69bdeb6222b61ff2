import Foundation
import Testing
import WaypointSQLite

@testable import WaypointCLI

@Suite("waypoint scenes")
struct ScenesCommandTests {
  let directory = TemporaryDirectory()

  @Test("one line per scene: id, latest snapshot, saved at, build, stack depths, history")
  func text() async throws {
    let path = try exampleStore(directory)
    let result = await run(["--db", path, "scenes"])
    #expect(result.status == 0)
    #expect(result.err.isEmpty)
    let date = "2026-11-18T11:06:40Z"
    #expect(
      result.out.split(separator: "\n").map(String.init) == [
        "SCENE   LATEST  SAVED AT              BUILD    STACKS                      HISTORY",
        "broken  4       \(date)  -        main 1                      1 snapshot, 1 quarantined",
        "phone   2       \(date)  1.0 (1)  main 2                      2 snapshots",
        "tablet  3       \(date)  2.0 (7)  detail 1, orders 1, shop 2  1 snapshot",
      ])
  }

  @Test("--json gives every scene with its latest snapshot's metadata")
  func json() async throws {
    let path = try exampleStore(directory)
    let document = try await run(["scenes", "--db", path, "--json"]).json()
    let scenes = try #require(document["scenes"] as? [[String: Any]])
    #expect(scenes.map { $0["id"] as? String } == ["broken", "phone", "tablet"])
    let phone = scenes[1]
    #expect(phone["snapshots"] as? Int == 2)
    #expect(phone["stackDepths"] as? [String: Int] == ["main": 2])
    let latest = try #require(phone["latest"] as? [String: Any])
    #expect(latest["id"] as? Int == 2)
    #expect(latest["appBuild"] as? String == "1.0 (1)")
    #expect(latest["savedAt"] as? String == "2026-11-18T11:06:40Z")
    #expect(latest["quarantine"] is NSNull)
    let broken = try #require(scenes[0]["latest"] as? [String: Any])
    let quarantine = try #require(broken["quarantine"] as? [String: Any])
    #expect(quarantine["kind"] as? String == "unrestorable")
  }

  @Test("an empty store lists nothing and says so on stderr")
  func empty() async throws {
    let path = directory.path()
    _ = try SnapshotStore(path: path)
    let result = await run(["--db", path, "scenes"])
    #expect(result.status == 0)
    #expect(result.out.isEmpty)
    #expect(result.err == "waypoint scenes: no scenes in \(path)")
    #expect(try await run(["--db", path, "scenes", "--json"]).json()["scenes"] as? [Any] != nil)
  }

  @Test("scene ids and builds from the store cannot drive the terminal")
  func hostileText() async throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    try store.save(try stackSnapshot([.settings], build: "1\u{1B}[2J"), scene: "evil")
    // No app can save such an id (SceneID refuses control characters); a planted store can hold one.
    #expect(
      rawSQL(
        path,
        "UPDATE snapshot SET scene_id = 'evil' || char(27, 93) || '0;x' || char(7, 10) || 'line'")
        == 0)
    let result = await run(["--db", path, "scenes"])
    #expect(result.status == 0)
    #expect(!result.out.contains("\u{1B}"))
    #expect(result.out.contains("evil\\u{1B}]0;x\\u{7}\\nline"))
    #expect(result.out.split(separator: "\n").count == 2)
  }
}
