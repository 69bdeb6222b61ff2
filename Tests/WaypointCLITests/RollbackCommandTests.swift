import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointCLI

@Suite("waypoint rollback")
struct RollbackCommandTests {
  let directory = TemporaryDirectory()

  @Test("an earlier snapshot becomes the latest as a new copy; the history stays")
  func rollsBack() async throws {
    let path = try exampleStore(directory)
    let result = await run(["--db", path, "rollback", "phone", "--to", "1"])
    #expect(result.status == 0)
    #expect(result.out == "Rolled scene phone back to snapshot 1: saved as snapshot 5.")
    let store = try SnapshotStore(path: path, access: .readOnly)
    #expect(try store.history(scene: "phone").map(\.id) == [5, 2, 1])
    let copy = try SceneSnapshot(decoding: try #require(try store.snapshot(id: 5)?.document.data))
    let original = try SceneSnapshot(
      decoding: try #require(try store.snapshot(id: 1)?.document.data))
    #expect(copy.stacks == original.stacks)
    #expect(copy.metadata.savedAt != original.metadata.savedAt)
  }

  @Test("rolling back to the latest writes nothing and says so once; --json tells")
  func toLatest() async throws {
    let path = try exampleStore(directory)
    let text = await run(["--db", path, "rollback", "phone", "--to", "2"])
    #expect(text.status == 0)
    #expect(text.out == "Scene phone already holds snapshot 2 as its latest; nothing written.")
    let result = await run(["--db", path, "rollback", "phone", "--to", "2", "--json"])
    #expect(result.status == 0)
    let document = try result.json()
    #expect(document["wrote"] as? Bool == false)
    #expect(document["latestSnapshot"] as? Int == 2)
    #expect(document["rolledBackTo"] as? Int == 2)
    #expect(try SnapshotStore(path: path, access: .readOnly).history(scene: "phone").count == 2)
  }

  @Test("rolling back to an earlier snapshot the latest one equals writes nothing and says so")
  func toEqualSnapshot() async throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    for routes in [[Route.product(id: 1)], [.product(id: 2)], [.product(id: 1)]] {
      try store.save(try stackSnapshot(routes), scene: "phone")
    }
    let result = await run(["--db", path, "rollback", "phone", "--to", "1"])
    #expect(result.status == 0)
    #expect(
      result.out
        == "Scene phone's latest snapshot, 3, already holds what snapshot 1 holds; nothing written."
    )
    #expect(try store.history(scene: "phone").map(\.id) == [3, 2, 1])
  }

  @Test(
    "a snapshot of another scene, an unknown scene or a missing --to is refused",
    arguments: [
      (["rollback", "phone", "--to", "3"], 65, "no snapshot 3 in scene phone"),
      (["rollback", "nope", "--to", "1"], 65, "no scene 'nope'"),
      (["rollback", "phone"], 64, "missing --to SNAPSHOT_ID"),
      (["rollback", "phone", "--to", "-1"], 64, "invalid value '-1' for --to"),
    ] as [([String], Int32, String)])
  func refused(arguments: [String], status: Int32, message: String) async throws {
    let path = try exampleStore(directory)
    let before = try fingerprint(path).0
    let result = await run(["--db", path] + arguments)
    #expect(result.status == status)
    #expect(result.err.contains(message))
    #expect(try fingerprint(path).0 == before)
  }
}
