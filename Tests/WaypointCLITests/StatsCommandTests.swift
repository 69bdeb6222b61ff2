import Foundation
import Testing
import WaypointSQLite

@testable import WaypointCLI

@Suite("waypoint stats")
struct StatsCommandTests {
  let directory = TemporaryDirectory()

  @Test("counts, sizes, oldest and newest, and routes per tag in all and in latest snapshots")
  func text() async throws {
    let path = try exampleStore(directory)
    let result = await run(["--db", path, "stats"])
    #expect(result.status == 0)
    let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines[0] == "scenes        3")
    #expect(lines[1] == "snapshots     4 (1 quarantined)")
    #expect(lines[4] == "oldest        2026-11-18T11:06:40Z")
    #expect(lines[5] == "newest        2026-11-18T11:06:40Z")
    #expect(
      Array(lines.suffix(4)) == [
        "TAG         ROUTES  IN LATEST",
        "Shop.Route  8       7",
        "Shop.Tab    2       2",
        "Gone.Type   1       1",
      ])
  }

  @Test("--json carries the same numbers; unreadable documents are counted, not fatal")
  func json() async throws {
    let path = try exampleStore(directory)
    #expect(
      rawSQL(path, "UPDATE snapshot SET document = ? WHERE id = 1", blob: Data("x".utf8)) == 0)
    let document = try await run(["--db", path, "stats", "--json"]).json()
    #expect(document["scenes"] as? Int == 3)
    #expect(document["snapshots"] as? Int == 4)
    #expect(document["quarantined"] as? Int == 1)
    #expect(document["unreadableDocuments"] as? Int == 1)
    #expect((document["documentBytes"] as? Int ?? 0) > 0)
    #expect((document["fileBytes"] as? Int ?? 0) > 0)
    #expect(document["oldest"] as? String == "2026-11-18T11:06:40Z")
    let tags = try #require(document["tags"] as? [[String: Any]])
    #expect(tags.first?["tag"] as? String == "Shop.Route")
    #expect(tags.first?["routes"] as? Int == 7)
    #expect(tags.first?["inLatest"] as? Int == 7)
  }

  @Test("an empty store has no dates and no tags")
  func empty() async throws {
    let path = directory.path()
    _ = try SnapshotStore(path: path)
    let document = try await run(["--db", path, "stats", "--json"]).json()
    #expect(document["snapshots"] as? Int == 0)
    #expect(document["oldest"] is NSNull)
    #expect((document["tags"] as? [Any])?.isEmpty == true)
    #expect(await run(["--db", path, "stats"]).out.contains("oldest        -"))
  }
}
