import Foundation
import Testing
import WaypointSQLite

@testable import WaypointCLI

@Suite("waypoint prune")
struct PruneCommandTests {
  let directory = TemporaryDirectory()

  /// A store with snapshots saved 40 days, 2 days and 1 hour ago in one scene, and one 10 days ago
  /// in another.
  func agedStore() throws -> String {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    let now = Date()
    for (index, age) in [40 * 86_400, 2 * 86_400, 3_600].enumerated() {
      try store.save(
        try stackSnapshot([.product(id: index)], at: now - TimeInterval(age)), scene: "a")
    }
    try store.save(try stackSnapshot([.settings], at: now - 10 * 86_400), scene: "b")
    return path
  }

  @Test(
    "--keep and --older-than delete what their rules name",
    arguments: [
      (["--keep", "1"], [3], [4]),
      (["--keep", "0"], [], []),
      (["--older-than", "30d"], [3, 2], [4]),
      (["--older-than", "5d"], [3, 2], []),
      (["--older-than", "90m"], [3], []),
      (["--older-than", "47h", "--keep", "2"], [3], []),
      (["--older-than", "100000s"], [3], []),
    ] as [([String], [Int64], [Int64])])
  func rules(options: [String], a: [Int64], b: [Int64]) async throws {
    let path = try agedStore()
    let result = await run(["--db", path, "prune"] + options)
    #expect(result.status == 0)
    #expect(result.out.hasPrefix("Pruned \(4 - a.count - b.count) snapshot"))
    let store = try SnapshotStore(path: path, access: .readOnly)
    #expect(try store.history(scene: "a").map(\.id) == a)
    #expect(try store.history(scene: "b").map(\.id) == b)
  }

  @Test("--json tells what was deleted and by which rules")
  func json() async throws {
    let path = try agedStore()
    let document = try await run(["--db", path, "prune", "--keep", "1", "--json"]).json()
    #expect(document["deleted"] as? Int == 2)
    #expect(document["keep"] as? Int == 1)
    #expect(document["savedBefore"] is NSNull)
  }

  @Test(
    "durations other than a whole number and d, h, m or s are usage errors, and nothing is deleted",
    arguments: ["30", "1w", "1.5d", "-3d", "d", "3 d", "30D", "999999999999d", "٣d", ""])
  func badDurations(text: String) async throws {
    let path = try agedStore()
    let result = await run(["--db", path, "prune", "--older-than", text])
    #expect(result.status == 64)
    #expect(result.err.hasPrefix("waypoint prune: invalid value '\(text)' for --older-than"))
    #expect(try SnapshotStore(path: path, access: .readOnly).statistics().snapshotCount == 4)
  }

  @Test("--keep takes a whole number of 0 or more; a rule is required")
  func badKeep() async throws {
    let path = try agedStore()
    #expect(await run(["--db", path, "prune", "--keep", "-1"]).status == 64)
    #expect(await run(["--db", path, "prune", "--keep", "two"]).status == 64)
    let none = await run(["--db", path, "prune"])
    #expect(none.status == 64)
    #expect(none.err.hasPrefix("waypoint prune: give --keep N, --older-than DURATION, or both"))
  }

  @Test("durations parse to seconds")
  func durations() {
    #expect(ValueParser.duration.parse("30d") == 30 * 86_400)
    #expect(ValueParser.duration.parse("12h") == 43_200)
    #expect(ValueParser.duration.parse("90m") == 5_400)
    #expect(ValueParser.duration.parse("45s") == 45)
    #expect(ValueParser.duration.parse("0s") == 0)
    #expect(ValueParser.duration.parse("+5s") == nil)
  }
}
