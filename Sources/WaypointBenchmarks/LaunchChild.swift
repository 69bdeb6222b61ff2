import Foundation
import Waypoint
import WaypointNavigation
import WaypointSQLite

/// `waypoint-bench --launch-child navigator STORE | json FILE`: what an app does at launch to
/// show its scene, alone in a process, so that the benchmark times it from spawn to exit
/// (`session STORE`: the rest of the app's session, its confirmation and saves, untimed).
enum LaunchChild {
  /// The scene both children restore: the benchmark's shop stack of 11 routes, an account stack
  /// of one and a selected tab.
  static let scene = "launch"
  /// The saves of a session between two launches: over the launch row's spawns, the WAL a
  /// launch finds goes through the whole cycle between two checkpoints, as an app's does.
  static let sessionSaves = 10
  /// The fixture index of the state both children restore.
  static let launchState = 7

  /// The scene as an app that keeps its state in a JSON file (what `@SceneStorage` holds) has it.
  struct SceneFile: Codable {
    var shop: [Route]
    var account: [Route]
    var tab: String
  }

  /// Writes the scene into a new store at `store` and as JSON at `file`.
  static func prepare(store: String, file: String) throws {
    _ = try SnapshotStore(path: store).save(Fixtures.snapshot(launchState), scene: scene)
    let state = SceneFile(shop: Fixtures.routes(launchState), account: [.settings], tab: "shop")
    try JSONEncoder().encode(state).write(to: URL(fileURLWithPath: file))
  }

  /// Runs one child and ends the process, as the system ends an app: with the navigator (and
  /// its store) still alive, 0 when the scene came back whole, 1 otherwise.
  @MainActor
  static func run(_ mode: String, _ path: String) async -> Never {
    switch mode {
    case "navigator":
      let navigator = SceneNavigator(scene: scene, storePath: path, restorer: restorer)
      // The first frame reads the stack: the navigator restores then, on the main actor. (The
      // app confirms later, once its screens are up; so that the launches never make a crash
      // loop, the benchmark confirms between them, outside the timed spawn.)
      let restored = navigator.stack("shop").count == 11
      exit(restored && navigator.restoreReport?.outcome == .restored ? 0 : 1)
    case "session":
      // The rest of the app's session, in a process of its own: the confirmation once its
      // screens are up, then a save on each of the user's changes, the last back to the scene
      // the JSON file holds (so that both children restore the same routes); the process ends as
      // the system ends an app (without closing the store), so that the next launch finds the
      // file as an app's next launch does: its WAL left in place, no connection open.
      guard let store = try? SnapshotStore(path: path),
        (try? store.confirmRestore(scene: scene)) != nil
      else { exit(1) }
      let states = (1..<sessionSaves).map { 1_000 + $0 } + [launchState]
      for state in states {
        guard (try? store.save(Fixtures.snapshot(state), scene: scene))?.wrote == true else {
          exit(1)
        }
      }
      exit(0)
    case "json":
      guard let data = FileManager.default.contents(atPath: path),
        let state = try? JSONDecoder().decode(SceneFile.self, from: data)
      else { exit(1) }
      exit(state.shop.count == 11 ? 0 : 1)
    default:
      exit(64)
    }
  }
}
