import Foundation
import Testing
import WaypointSQLite

@testable import WaypointCLI

@Suite("waypoint history")
struct HistoryCommandTests {
  let directory = TemporaryDirectory()

  @Test("a scene's snapshots, newest first, the latest marked")
  func text() async throws {
    let path = try exampleStore(directory)
    let result = await run(["--db", path, "history", "phone"])
    #expect(result.status == 0)
    let lines = result.out.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    #expect(
      lines[0] == "SNAPSHOT  SAVED AT              BUILD    SCHEMA  SIZE   UNCONFIRMED  STATUS")
    #expect(lines[1].hasPrefix("2         2026-11-18T11:06:40Z  1.0 (1)  1       "))
    #expect(lines[1].hasSuffix("0            latest"))
    #expect(lines[2].hasPrefix("1         2026-11-18T11:06:40Z"))
    #expect(lines[2].hasSuffix(" 0"))
  }

  @Test("a quarantined snapshot shows its kind, date and detail")
  func quarantined() async throws {
    let path = try exampleStore(directory)
    let result = await run(["--db", path, "history", "broken"])
    #expect(result.out.contains("latest, quarantined (unrestorable) since "))
    #expect(result.out.hasSuffix(": stack main[0] Gone.Type: unknown tag"))
  }

  @Test("--json lists every snapshot's metadata, newest first")
  func json() async throws {
    let path = try exampleStore(directory)
    let document = try await run(["--db", path, "history", "phone", "--json"]).json()
    #expect(document["scene"] as? String == "phone")
    let snapshots = try #require(document["snapshots"] as? [[String: Any]])
    #expect(snapshots.map { $0["id"] as? Int } == [2, 1])
    #expect(snapshots.allSatisfy { ($0["bytes"] as? Int ?? 0) > 0 })
    #expect(snapshots.allSatisfy { $0["unconfirmedRestores"] as? Int == 0 })
  }

  @Test("an unknown scene exits 65 naming the store and the scene")
  func unknownScene() async throws {
    let path = try exampleStore(directory)
    let result = await run(["--db", path, "history", "nope"])
    #expect(result.status == 65)
    #expect(result.err == "waypoint history: \(path): no scene 'nope'")
  }
}
