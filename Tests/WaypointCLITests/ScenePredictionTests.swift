import Foundation
import Testing

@testable import WaypointCLI

/// `validate` and `repair` judge a scene with one `ScenePrediction`: what one counts, the other
/// counts too.
@Suite("validate and repair judge a scene alike")
struct ScenePredictionTests {
  let directory = TemporaryDirectory()

  /// Scene ids as stored bytes: printable ASCII, text to escape, non-ASCII, and invalid UTF-8
  /// (repaired as a `String` of them is).
  static let sceneBytes: [[UInt8]] =
    [
      "main", "", "a b", "tab\tnew\nline", "caf\u{E9}", "\u{7F}\u{202E}x", "\u{1F600}", "\\\"",
      "line\u{2028}end", "\u{1B}[2J", "0000139B-D6C7-CDAC-B672-FF0FD6EE7899", "~ }{",
    ].map { Array($0.utf8) } + [[0xFF], [0x61, 0xC3], [0xED, 0xA0, 0x80], [0x00], [0x22, 0x80]]

  @Test(
    "the usual scene's line written as bytes is the line of its prediction",
    arguments: [false, true])
  func usualLine(styled: Bool) {
    let style = Style(isEnabled: styled)
    let snapshots: [Int64] = [0, 1, 9, 10, 99, 1_000_000, -1, -10, .max, .min]
    for sceneBytes in Self.sceneBytes {
      let scene = String(decoding: sceneBytes, as: UTF8.self)
      for snapshot in snapshots {
        for kept in [0, 1, 13, 65_535] {
          var bytes: [UInt8] = []
          sceneBytes.withUnsafeBytes { sceneBytes in
            ValidateCommand.appendUsualLine(
              scene: sceneBytes, snapshot: snapshot, kept: kept, to: &bytes)
          }
          let prediction = ScenePrediction(scene: scene, snapshot: snapshot, kept: kept)
          let expected = ValidateCommand.lines(prediction, style).map { $0 + "\n" }.joined()
          #expect(
            String(decoding: bytes, as: UTF8.self) == expected,
            "scene \(sceneBytes), snapshot \(snapshot), kept \(kept)")
        }
      }
    }
  }

  @Test("the usual scene's JSON object written as bytes is the object of its prediction")
  func usualObject() {
    let snapshots: [Int64] = [0, 1, 10, 1_000_000, -1, .max, .min]
    for sceneBytes in Self.sceneBytes {
      let scene = String(decoding: sceneBytes, as: UTF8.self)
      for snapshot in snapshots {
        for kept in [0, 13, 65_535] {
          var bytes: [UInt8] = []
          sceneBytes.withUnsafeBytes { sceneBytes in
            ValidateCommand.appendUsualObject(
              scene: sceneBytes, snapshot: snapshot, kept: kept, to: &bytes)
          }
          var json = JSONStream(.compact)
          ScenePrediction(scene: scene, snapshot: snapshot, kept: kept).write(to: &json)
          var expected: [UInt8] = []
          json.take(appendingTo: &expected)
          #expect(
            bytes == expected,
            "scene \(sceneBytes), snapshot \(snapshot), kept \(kept): \(String(decoding: bytes, as: UTF8.self))"
          )
        }
      }
    }
  }

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
