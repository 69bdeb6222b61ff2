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
}
