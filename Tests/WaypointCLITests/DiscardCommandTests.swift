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

  @Test("--json counts what each scene had; a scene given twice is discarded once")
  func json() async throws {
    let path = try exampleStore(directory)
    let result = await run(["--db", path, "--json", "discard", "broken", "tablet", "tablet"])
    #expect(result.status == 0)
    #expect(result.err.isEmpty)
    let document = try result.json()
    #expect(document["discarded"] as? Int == 2)
    let scenes = try #require(document["scenes"] as? [[String: Any]])
    #expect(scenes.map { $0["id"] as? String } == ["broken", "tablet"])
    #expect(scenes.map { $0["snapshots"] as? Int } == [1, 1])
  }

  @Test(
    "a scene id that matches nothing is named with a suggestion, exits 65 and nothing is discarded",
    arguments: [
      (["phnoe"], "no scene 'phnoe' (did you mean 'phone'?)"),
      (["tablet", "phnoe"], "no scene 'phnoe' (did you mean 'phone'?)"),
      (
        ["nope", "tablet", "brokne"], "no scene 'nope', no scene 'brokne' (did you mean 'broken'?)"
      ),
    ])
  func unknownScene(scenes: [String], named: String) async throws {
    let path = try exampleStore(directory)
    let before = try fingerprint(path).0
    for json in [false, true] {
      let result = await run(["--db", path] + (json ? ["--json"] : []) + ["discard"] + scenes)
      #expect(result.status == 65)
      #expect(result.err == "waypoint discard: \(path): \(named); nothing discarded")
      #expect(result.out.isEmpty)
    }
    #expect(try fingerprint(path).0 == before)
    #expect(try SnapshotStore(path: path, access: .readOnly).scenes().count == 3)
    // The same words and status as the commands that read one scene.
    let show = await run(["--db", path, "show", "phnoe"])
    #expect(show.status == 65)
    #expect(show.err == "waypoint show: \(path): no scene 'phnoe' (did you mean 'phone'?)")
  }

  @Test("many unknown scene ids: the first ten are named, the rest counted")
  func manyUnknown() async throws {
    let path = try exampleStore(directory)
    let ids = (1...12).map { "unknown-\($0)" }
    let result = await run(["--db", path, "discard"] + ids)
    #expect(result.status == 65)
    #expect(
      result.err
        == "waypoint discard: \(path): "
        + ids.prefix(10).map { "no scene '\($0)'" }.joined(separator: ", ")
        + ", and 2 more unknown; nothing discarded")
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
