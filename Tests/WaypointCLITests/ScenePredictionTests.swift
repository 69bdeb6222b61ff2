import Foundation
import Testing

@testable import WaypointCLI

/// `validate` and `repair` judge a scene with one `ScenePrediction`: what one counts, the other
/// counts too.
@Suite("validate and repair judge a scene alike")
struct ScenePredictionTests {
  let directory = TemporaryDirectory()

  @Test(
    "repair counts the migrated, dropped and undetermined routes validate lists, under every policy",
    arguments: ["cut", "drop", "reset"])
  func sameCounts(policy: String) async throws {
    let output = directory.url.appendingPathComponent("demo")
    _ = await run(["demo", "--output", output.path])
    let store = output.appendingPathComponent("waypoint.sqlite").path
    let manifest = output.appendingPathComponent("routes.manifest.json").path
    let validate = try await run([
      "--db", store, "--json", "validate", "--manifest", manifest, "--policy", policy,
    ]).json()
    let repair = try await run([
      "--db", store, "--json", "repair", "--manifest", manifest, "--policy", policy, "--dry-run",
    ]).json()
    let predicted = try #require(validate["scenes"] as? [[String: Any]])
    let repaired = try #require(repair["scenes"] as? [[String: Any]])
    #expect(predicted.count == 2)
    #expect(predicted.map { $0["scene"] as? String } == repaired.map { $0["scene"] as? String })
    var compared = 0
    for (scene, entry) in zip(predicted, repaired) {
      let dropped = try #require(scene["dropped"] as? [Any])
      let undetermined = try #require(scene["undetermined"] as? [Any])
      #expect(entry["migrated"] as? Int == scene["migrated"] as? Int)
      #expect(entry["dropped"] as? Int == dropped.count)
      #expect(entry["undetermined"] as? Int == undetermined.count)
      // A scene that validate says restores as the root is one repair leaves alone.
      #expect(
        (scene["outcome"] as? String == "root") == (entry["action"] as? String == "nothingToKeep"))
      compared += 1
    }
    #expect(compared == 2)
  }

  @Test(
    "a latest document of a newer format or damaged is unreadable to validate and to repair alike, with the reason"
  )
  func unreadableAlike() async throws {
    let output = directory.url.appendingPathComponent("demo")
    _ = await run(["demo", "--output", output.path])
    let store = output.appendingPathComponent("waypoint.sqlite").path
    let manifest = output.appendingPathComponent("routes.manifest.json").path
    let latest = rawQuery(
      store, "SELECT scene_id, max(id) FROM snapshot GROUP BY scene_id ORDER BY scene_id")
    #expect(latest.count == 2)
    let newer = try #require(latest.first)
    let damaged = try #require(latest.last)
    #expect(
      rawSQL(
        store,
        "UPDATE snapshot SET document = CAST(replace(CAST(document AS TEXT), '\"format\":1', "
          + "'\"format\":2') AS BLOB) WHERE id = \(newer[1])") == 0)
    #expect(
      rawSQL(
        store, "UPDATE snapshot SET document = ? WHERE id = \(damaged[1])",
        blob: Data("{\"format\":1,".utf8)) == 0)
    let validate = await run(["--db", store, "--json", "validate", "--manifest", manifest])
    #expect(validate.status == 1)
    let scenes = try #require(try validate.json()["scenes"] as? [[String: Any]])
    #expect(scenes.map { $0["scene"] as? String } == [newer[0], damaged[0]])
    #expect(
      scenes.first?["unreadable"] as? String
        == "snapshot format 2 is newer than this build reads (up to 1)")
    #expect((scenes.last?["unreadable"] as? String)?.isEmpty == false)
    for scene in scenes {
      #expect((scene["dropped"] as? [Any])?.isEmpty == true, "\(scene)")
    }
    let summary = try #require(try validate.json()["summary"] as? [String: Any])
    #expect(summary["unreadable"] as? Int == 2)
    #expect(summary["dropped"] as? Int == 0)
    let repair = try await run([
      "--db", store, "--json", "repair", "--manifest", manifest, "--dry-run",
    ]).json()
    let repaired = try #require(repair["scenes"] as? [[String: Any]])
    #expect(repaired.map { $0["action"] as? String } == ["unreadable", "unreadable"])
  }
}
