import Foundation
import Waypoint
import WaypointNavigation
import WaypointSQLite

/// `--navigator`: what a navigation change costs the calling actor (the save happens elsewhere),
/// and how many writes 100 changes within one save delay make.
@MainActor
enum NavigatorBenchmark {
  static func run(iterations: Int, in directory: URL) async throws {
    let store = try SnapshotStore(
      path: directory.appendingPathComponent("navigator.sqlite").path,
      configuration: StoreConfiguration(retention: 1000))
    let navigator = SceneNavigator(
      scene: "scene", store: store, restorer: restorer,
      configuration: NavigatorConfiguration(saveDelay: .milliseconds(500), confirmationDelay: nil))
    await navigator.restore()
    print("Navigator: \(iterations) changes (push and pop alternating), save delay 0.5 s")
    // The first change of each delay schedules the save; the others only mark the state changed.
    let change = median(iterations) { index in
      if index.isMultiple(of: 2) {
        navigator.push(Route.product(id: index, variant: "blue-42"))
      } else {
        navigator.pop()
      }
    }
    await navigator.flush()
    let before = try store.history(scene: "scene").count
    for index in 0..<100 { navigator.push(Route.review(productId: 1, page: index)) }
    await navigator.waitForScheduledSave()
    let writes = try store.history(scene: "scene").count - before
    print(String(format: "median per navigation change on the main actor   %8.2f µs", change))
    print("writes for 100 changes within one save delay        \(writes)")
  }
}
