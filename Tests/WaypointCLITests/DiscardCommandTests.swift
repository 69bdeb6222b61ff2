import Foundation
import Testing
import WaypointSQLite

@testable import WaypointCLI

@Suite("waypoint discard")
struct DiscardCommandTests {
  let directory = TemporaryDirectory()

  @Test("every snapshot of the scenes goes, quarantined ones included; others stay")
  func discards() async throws {
    let path = try exampleStore(directory)
    let result = await run(["--db", path, "discard", "phone", "broken"])
    #expect(result.status == 0)
    #expect(result.out == "Discarded 3 snapshots of 2 scenes: phone, broken.")
    #expect(result.err.isEmpty)
    #expect(try SnapshotStore(path: path, access: .readOnly).scenes().map(\.id) == ["tablet"])
  }

  @Test("an unknown scene is noted on stderr, not an error; --json counts per scene")
  func unknownScene() async throws {
    let path = try exampleStore(directory)
    let result = await run(["--db", path, "--json", "discard", "nope", "tablet", "tablet"])
    #expect(result.status == 0)
    #expect(result.err == "waypoint discard: no scene 'nope' in \(path); nothing to discard")
    let document = try result.json()
    #expect(document["discarded"] as? Int == 1)
    let scenes = try #require(document["scenes"] as? [[String: Any]])
    #expect(scenes.map { $0["id"] as? String } == ["nope", "tablet"])
    #expect(scenes.map { $0["snapshots"] as? Int } == [0, 1])
  }

  @Test("without a scene it is a usage error, and a missing store is never created")
  func refused() async throws {
    #expect(await run(["--db", directory.path(), "discard"]).status == 64)
    let missing = await run(["--db", directory.path("missing.sqlite"), "discard", "a"])
    #expect(missing.status == 66)
    #expect(missing.err == "waypoint discard: \(directory.path("missing.sqlite")): no such file")
    #expect(!FileManager.default.fileExists(atPath: directory.path("missing.sqlite")))
  }
}
